// The 3D player (src/reports/player_page.h): after three.js, the GLTFLoader and OrbitControls, with
// ANIMDEX_PLAYER holding the .glb as base64, the animations' names, rates, first times and frame
// counts, and the joints' names. Joints are dots, bones lines from each joint to its parent; names
// reach the page only through textContent. Without WebGL the page still poses (animdexPose) and
// says why it draws nothing.
(function () {
  'use strict';
  const data = ANIMDEX_PLAYER;
  const view = document.getElementById('view');
  const chooser = document.getElementById('animation');
  const slider = document.getElementById('frame');
  const play = document.getElementById('play');
  const clock = document.getElementById('clock');
  const tip = document.getElementById('tip');
  let renderer = null;
  try {
    renderer = new THREE.WebGLRenderer({antialias: true});
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    view.appendChild(renderer.domElement);
  } catch (e) {
    renderer = null;
  }
  const canvas = renderer ? renderer.domElement : document.createElement('canvas');
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xf7f7f7);
  const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1e6);
  const controls = new THREE.OrbitControls(camera, canvas);
  function render() { if (renderer) renderer.render(scene, camera); }
  let joints = [], parents = [], mixer = null, action = null, clips = [], current = 0, playing = false;
  let last = 0, bones = null, dots = null;

  function fail(message) {
    const p = document.getElementById('error');
    p.textContent = message;
    p.hidden = false;
    document.body.dataset.error = message;
  }

  function bytes() {
    const text = atob(data.glb);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; ++i) out[i] = text.charCodeAt(i);
    return out.buffer;
  }

  function worldPositions() {
    return joints.map(function (node) {
      node.updateWorldMatrix(true, false);
      const e = node.matrixWorld.elements;
      return [e[12], e[13], e[14]];
    });
  }

  function redraw() {
    const points = worldPositions();
    const lines = bones.geometry.attributes.position.array;
    let k = 0;
    points.forEach(function (p, j) {
      const q = parents[j] >= 0 ? points[parents[j]] : p;
      lines.set(q, k); lines.set(p, k + 3); k += 6;
      dots.geometry.attributes.position.array.set(p, j * 3);
    });
    bones.geometry.attributes.position.needsUpdate = true;
    dots.geometry.attributes.position.needsUpdate = true;
    dots.geometry.computeBoundingSphere();
    render();
    return points;
  }

  function frameCount() { return data.animations[current].frames; }
  function rate() { return data.animations[current].fps; }

  function showFrame(frame) {
    frame = Math.max(0, Math.min(frameCount() - 1, Math.round(frame)));
    action.time = frame / rate();
    mixer.update(0);
    slider.value = frame;
    const seconds = data.animations[current].first + frame / rate();
    clock.textContent = 'frame ' + frame + ' / ' + (frameCount() - 1) + ', ' + seconds.toFixed(3) + ' s at ' + rate() + ' per second';
    return redraw();
  }

  function choose(index) {
    current = index;
    chooser.value = String(index);
    if (action) action.stop();
    action = mixer.clipAction(clips[index]);
    action.play();
    action.paused = true;
    slider.max = frameCount() - 1;
  }

  function readAddress() {
    const params = new URLSearchParams(location.hash.slice(1));
    const name = params.get('anim');
    let index = 0;
    if (name !== null) {
      index = data.animations.findIndex(function (a) { return a.name === name; });
      if (index < 0) { fail('no animation named ' + name + ' in this page'); index = 0; }
    }
    choose(index);
    return Number(params.get('frame') || 0);
  }

  function writeAddress(frame) {
    history.replaceState(null, '', '#anim=' + encodeURIComponent(data.animations[current].name) + '&frame=' + frame);
  }

  function frame() { return Number(slider.value); }

  function tick(now) {
    if (playing) {
      const seconds = (now - last) / 1000;
      const next = frame() + seconds * rate();
      last = now;
      showFrame(next >= frameCount() ? 0 : next);
    }
    requestAnimationFrame(tick);
  }

  function fit(points) {
    const box = new THREE.Box3().setFromPoints(points.map(function (p) { return new THREE.Vector3(p[0], p[1], p[2]); }));
    const size = Math.max(box.getSize(new THREE.Vector3()).length(), 1e-3);
    const centre = box.getCenter(new THREE.Vector3());
    camera.near = size / 1000; camera.far = size * 100; camera.updateProjectionMatrix();
    camera.position.set(centre.x + size * 0.9, centre.y + size * 0.5, centre.z + size * 1.2);
    controls.target.copy(centre);
    controls.update();
    const grid = new THREE.GridHelper(size * 2, 20, 0x999999, 0xdddddd);
    grid.position.set(centre.x, box.min.y, centre.z);
    scene.add(grid);
    dots.material.size = size / 80;
  }

  function hover(event) {
    const rect = canvas.getBoundingClientRect();
    const mouse = new THREE.Vector2((event.clientX - rect.left) / rect.width * 2 - 1, -(event.clientY - rect.top) / rect.height * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.params.Points.threshold = dots.material.size;
    ray.setFromCamera(mouse, camera);
    const hit = ray.intersectObject(dots)[0];
    tip.hidden = !hit;
    if (hit) {
      tip.textContent = (data.joints[hit.index] || joints[hit.index].name) + ' (joint ' + hit.index + ')';
      tip.style.left = (event.clientX + 12) + 'px';
      tip.style.top = (event.clientY + 12) + 'px';
    }
  }

  function resize() {
    const width = view.clientWidth, height = Math.max(320, window.innerHeight - 160);
    if (renderer) renderer.setSize(width, height);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    render();
  }

  function start(gltf, nodes) {
    const skin = gltf.parser.json.skins[0];
    joints = skin.joints.map(function (i) { return nodes[i]; });
    const jointOf = new Map(skin.joints.map(function (n, j) { return [n, j]; }));
    parents = joints.map(function (node) { return node.parent && jointOf.has(nodes.indexOf(node.parent)) ? jointOf.get(nodes.indexOf(node.parent)) : -1; });
    scene.add(gltf.scene);
    bones = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({color: 0x1f77b4}));
    bones.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(joints.length * 6), 3));
    dots = new THREE.Points(new THREE.BufferGeometry(), new THREE.PointsMaterial({color: 0xd62728}));
    dots.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(joints.length * 3), 3));
    bones.frustumCulled = dots.frustumCulled = false;
    scene.add(bones, dots);
    mixer = new THREE.AnimationMixer(gltf.scene);
    clips = gltf.animations;
    data.animations.forEach(function (a, i) {
      const option = document.createElement('option');
      option.value = String(i);
      option.textContent = a.name;
      chooser.appendChild(option);
    });
    resize();
    fit(redraw());
    window.animdexPose = function (f) { playing = false; return showFrame(f); };
    window.animdexChoose = function (name) {
      const index = data.animations.findIndex(function (a) { return a.name === name; });
      if (index < 0) return false;
      choose(index); showFrame(0); writeAddress(0);
      return true;
    };
    if (!renderer) fail('This browser has no WebGL: the skeleton is not drawn (the poses are still computed).');
    const shown = showFrame(readAddress());
    document.body.dataset.animation = data.animations[current].name;
    document.body.dataset.frame = String(frame());
    document.body.dataset.pose = JSON.stringify(shown);
    document.body.dataset.ready = '1';
    chooser.addEventListener('change', function () { choose(Number(chooser.value)); showFrame(0); writeAddress(0); });
    slider.addEventListener('input', function () { playing = false; play.textContent = 'Play'; showFrame(frame()); writeAddress(frame()); });
    play.addEventListener('click', function () {
      playing = !playing; last = performance.now();
      play.textContent = playing ? 'Pause' : 'Play';
      if (!playing) writeAddress(frame());
    });
    window.addEventListener('hashchange', function () { showFrame(readAddress()); });
    window.addEventListener('resize', resize);
    canvas.addEventListener('mousemove', hover);
    controls.addEventListener('change', function () { render(); });
    requestAnimationFrame(tick);
  }

  new THREE.GLTFLoader().parse(bytes(), '', function (gltf) {
    gltf.parser.getDependencies('node').then(function (nodes) { start(gltf, nodes); }, function (e) { fail(String(e)); });
  }, function (e) { fail('the embedded glTF could not be read: ' + e); });
})();
