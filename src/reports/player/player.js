// The 3D player (src/reports/player_page.h): after three.js, the GLTFLoader and OrbitControls, with
// ANIMDEX_PLAYER holding one .glb as base64 (`glb`, `joints`) and the animations' names, rates,
// first times and frame counts; or, on a page comparing two dumps, several rigs (`rigs`: a label,
// a .glb and joint names each) drawn over one another, each animation naming its clip in each rig
// (`sides`, null where a rig lacks it). Joints are dots, bones lines from each joint to its parent;
// names reach the page only through textContent. Without WebGL the page still poses (animdexPose)
// and says why it draws nothing.
(function () {
  'use strict';
  const data = ANIMDEX_PLAYER;
  if (!data.rigs) {  // one rig: each animation is the clip of its own index
    data.rigs = [{label: '', glb: data.glb, joints: data.joints}];
    data.animations.forEach(function (a, i) { a.sides = [{clip: i, fps: a.fps, first: a.first, frames: a.frames}]; });
  }
  const palette = data.rigs.length === 1 ? [[0x1f77b4, 0xd62728]] : [[0x1f77b4, 0x1f77b4], [0xd62728, 0xd62728]];
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
  let rigs = [], current = 0, playing = false, last = 0, dotSize = 1;

  function fail(message) {
    const p = document.getElementById('error');
    p.textContent = message;
    p.hidden = false;
    document.body.dataset.error = message;
  }

  function bytes(base64) {
    const text = atob(base64);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; ++i) out[i] = text.charCodeAt(i);
    return out.buffer;
  }

  function worldPositions(rig) {
    return rig.joints.map(function (node) {
      node.updateWorldMatrix(true, false);
      const e = node.matrixWorld.elements;
      return [e[12], e[13], e[14]];
    });
  }

  // Draws a rig at its pose; a rig without the shown animation is hidden and gives null.
  function redraw(rig) {
    const shown = rig.action !== null;
    rig.bones.visible = rig.dots.visible = shown;
    if (!shown) return null;
    const points = worldPositions(rig);
    const lines = rig.bones.geometry.attributes.position.array;
    let k = 0;
    points.forEach(function (p, j) {
      const q = rig.parents[j] >= 0 ? points[rig.parents[j]] : p;
      lines.set(q, k); lines.set(p, k + 3); k += 6;
      rig.dots.geometry.attributes.position.array.set(p, j * 3);
    });
    rig.bones.geometry.attributes.position.needsUpdate = true;
    rig.dots.geometry.attributes.position.needsUpdate = true;
    rig.dots.geometry.computeBoundingSphere();
    return points;
  }

  function shownAnimation() { return data.animations[current]; }
  function frameCount() { return shownAnimation().frames; }
  function rate() { return shownAnimation().fps; }

  // Each rig at the frame's time in its own animation, held at its last sample past its end.
  function showFrame(frame) {
    frame = Math.max(0, Math.min(frameCount() - 1, Math.round(frame)));
    const seconds = frame / rate();
    const poses = rigs.map(function (rig, r) {
      const side = shownAnimation().sides[r];
      if (side) { rig.action.time = Math.min(seconds, (side.frames - 1) / side.fps); rig.mixer.update(0); }
      return redraw(rig);
    });
    render();
    slider.value = frame;
    clock.textContent = 'frame ' + frame + ' / ' + (frameCount() - 1) + ', ' +
        (shownAnimation().first + seconds).toFixed(3) + ' s at ' + rate() + ' per second';
    return poses;
  }

  function firstPose(poses) { return poses.find(function (p) { return p !== null; }); }

  function choose(index) {
    current = index;
    chooser.value = String(index);
    rigs.forEach(function (rig, r) {
      if (rig.action) rig.action.stop();
      const side = data.animations[index].sides[r];
      rig.action = side ? rig.mixer.clipAction(rig.clips[side.clip]) : null;
      if (rig.action) { rig.action.play(); rig.action.paused = true; }
    });
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
    history.replaceState(null, '', '#anim=' + encodeURIComponent(shownAnimation().name) + '&frame=' + frame);
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

  function fit(poses) {
    const points = [].concat.apply([], poses.filter(function (p) { return p !== null; }));
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
    dotSize = size / 80;
    rigs.forEach(function (rig) { rig.dots.material.size = dotSize; });
  }

  function hover(event) {
    const rect = canvas.getBoundingClientRect();
    const mouse = new THREE.Vector2((event.clientX - rect.left) / rect.width * 2 - 1, -(event.clientY - rect.top) / rect.height * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.params.Points.threshold = dotSize;
    ray.setFromCamera(mouse, camera);
    let text = null;
    rigs.forEach(function (rig, r) {
      const hit = text === null && rig.dots.visible ? ray.intersectObject(rig.dots)[0] : undefined;
      if (hit) {
        const name = data.rigs[r].joints[hit.index] || rig.joints[hit.index].name;
        text = (data.rigs[r].label ? data.rigs[r].label + ': ' : '') + name + ' (joint ' + hit.index + ')';
      }
    });
    tip.hidden = text === null;
    if (text !== null) {
      tip.textContent = text;
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

  function rigOf(gltf, nodes, colours) {
    const skin = gltf.parser.json.skins[0];
    const joints = skin.joints.map(function (i) { return nodes[i]; });
    const jointOf = new Map(skin.joints.map(function (n, j) { return [n, j]; }));
    const parents = joints.map(function (node) {
      return node.parent && jointOf.has(nodes.indexOf(node.parent)) ? jointOf.get(nodes.indexOf(node.parent)) : -1;
    });
    scene.add(gltf.scene);
    const bones = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({color: colours[0]}));
    bones.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(joints.length * 6), 3));
    const dots = new THREE.Points(new THREE.BufferGeometry(), new THREE.PointsMaterial({color: colours[1]}));
    dots.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(joints.length * 3), 3));
    bones.frustumCulled = dots.frustumCulled = false;
    scene.add(bones, dots);
    return {joints: joints, parents: parents, bones: bones, dots: dots, mixer: new THREE.AnimationMixer(gltf.scene),
            clips: gltf.animations, action: null};
  }

  function start(loaded) {
    rigs = loaded.map(function (l, r) { return rigOf(l.gltf, l.nodes, palette[r % palette.length]); });
    data.animations.forEach(function (a, i) {
      const option = document.createElement('option');
      option.value = String(i);
      option.textContent = a.name;
      chooser.appendChild(option);
    });
    resize();
    choose(0);
    fit(showFrame(0));
    window.animdexPoses = function (f) { playing = false; return showFrame(f); };
    window.animdexPose = function (f) { return firstPose(window.animdexPoses(f)); };
    window.animdexChoose = function (name) {
      const index = data.animations.findIndex(function (a) { return a.name === name; });
      if (index < 0) return false;
      choose(index); showFrame(0); writeAddress(0);
      return true;
    };
    if (!renderer) fail('This browser has no WebGL: the skeleton is not drawn (the poses are still computed).');
    const shown = showFrame(readAddress());
    document.body.dataset.animation = shownAnimation().name;
    document.body.dataset.frame = String(frame());
    document.body.dataset.pose = JSON.stringify(firstPose(shown));
    document.body.dataset.poses = JSON.stringify(shown);
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

  function load(rig) {
    return new Promise(function (resolve, reject) {
      new THREE.GLTFLoader().parse(bytes(rig.glb), '', function (gltf) {
        gltf.parser.getDependencies('node').then(function (nodes) { resolve({gltf: gltf, nodes: nodes}); }, reject);
      }, function (e) { reject('the embedded glTF could not be read: ' + e); });
    });
  }

  Promise.all(data.rigs.map(load)).then(start, function (e) { fail(String(e)); });
})();
