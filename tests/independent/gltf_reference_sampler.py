#!/usr/bin/env python3
"""Independent glTF 2.0 reference reader and skeleton sampler.

Written from the Khronos glTF 2.0 specification alone (GLB File Format,
Accessors, Nodes and Hierarchy / Transformations, Skins, Animations and
Appendix C "Interpolation"), without reading the animdex C++ sources, so
that it can check the C++ glTF exporter from the outside.

Checks (any violation: message on stderr, exit 1): GLB header/chunks
(magic, version 2, lengths, 4-byte alignment, JSON first, BIN second);
bufferViews inside buffers, accessors inside bufferViews (byteStride) and
aligned to their component size; sampler inputs float SCALAR with min/max
equal to the data and strictly increasing; output counts (x3 CUBICSPLINE);
one parent per node, no cycles; first skin's inverseBindMatrices float MAT4,
count == joints (spec allows >=; stricter on purpose), and at rest
world(joint) * inverseBind(joint) == identity within
1e-4 * max(1, largest joint world translation).

Usage: gltf_reference_sampler.py FILE [--animation NAME_OR_INDEX | --rest]
                                      [--times T1,T2,...] [--fps F]
Output: one JSON object on stdout: the first skin's joints and, per sampled
time, each joint's world position and column-major world matrix.
Exit 0 success, 1 file error, 2 usage error.
"""
import argparse, base64, bisect, json, math, os, struct, sys, urllib.parse  # standard library only

GLB_MAGIC, CHUNK_JSON, CHUNK_BIN = 0x46546C67, 0x4E4F534A, 0x004E4942
COMPONENTS = {5120: ("b", 1), 5121: ("B", 1), 5122: ("h", 2),
              5123: ("H", 2), 5125: ("I", 4), 5126: ("f", 4)}
# Spec, Animations/Accessors: normalized integer -> float conversions.
NORMALIZE = {5120: lambda c: max(c / 127.0, -1.0), 5121: lambda c: c / 255.0,
             5122: lambda c: max(c / 32767.0, -1.0), 5123: lambda c: c / 65535.0}
WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
PATHS = ("translation", "rotation", "scale")
IDENTITY = [1.0 if i % 5 == 0 else 0.0 for i in range(16)]

class FileError(Exception):  # the file breaks the glTF 2.0 spec or cannot be read: exit 1
    pass

class UsageError(Exception):  # the command line asks for something the file lacks: exit 2
    pass

def require(cond, msg):
    if not cond:
        raise FileError(msg)

def f32(x):
    """Round a JSON number to float32, so it compares exactly with binary data."""
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]

# ---------------------------------------------------------------- container
def read_glb(data):
    require(len(data) >= 12, "GLB: file shorter than the 12-byte header")
    magic, version, length = struct.unpack_from("<III", data, 0)
    require(magic == GLB_MAGIC, "GLB: bad magic 0x%08x" % magic)
    require(version == 2, "GLB: version %d, expected 2" % version)
    require(length == len(data), "GLB: header length %d != file size %d" % (length, len(data)))
    chunks, pos = [], 12
    while pos < length:  # pos stays 4-aligned because every length is checked
        require(pos + 8 <= length, "GLB: truncated chunk header at byte %d" % pos)
        clen, ctype = struct.unpack_from("<II", data, pos)
        require(clen % 4 == 0, "GLB: chunk at byte %d has length %d, not a multiple of 4" % (pos, clen))
        require(pos + 8 + clen <= length, "GLB: chunk at byte %d runs past end of file" % pos)
        chunks.append((ctype, data[pos + 8:pos + 8 + clen]))
        pos += 8 + clen
    require(chunks and chunks[0][0] == CHUNK_JSON, "GLB: first chunk is not JSON")
    bins = [i for i, (ctype, _) in enumerate(chunks) if ctype == CHUNK_BIN]
    require(bins in ([], [1]), "GLB: BIN chunk must be the second chunk and appear once")
    return parse_json(chunks[0][1]), (chunks[1][1] if bins else None)

def parse_json(raw):
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise FileError("JSON: %s" % e)
    require(isinstance(doc, dict), "JSON: top level is not an object")
    version = str(doc.get("asset", {}).get("version", ""))
    require(version.startswith("2."), "asset.version is %r, expected 2.x" % version)
    return doc

def load_buffers(doc, path, bin_chunk):
    out = []
    for i, buf in enumerate(doc.get("buffers", [])):
        size, uri = buf.get("byteLength"), buf.get("uri")
        require(isinstance(size, int) and size >= 1, "buffer %d: bad byteLength %r" % (i, size))
        if uri is None:  # only the GLB-stored buffer (index 0) may omit uri
            require(i == 0 and bin_chunk is not None, "buffer %d: no uri and no GLB BIN chunk" % i)
            require(size <= len(bin_chunk) <= size + 3,
                    "buffer 0: byteLength %d vs BIN chunk %d bytes (allowed padding 0..3)" % (size, len(bin_chunk)))
            data = bin_chunk
        elif uri.startswith("data:"):
            head, _, payload = uri.partition(",")
            require(head.endswith(";base64"), "buffer %d: data URI is not base64" % i)
            try:
                data = base64.b64decode(payload, validate=True)
            except ValueError as e:
                raise FileError("buffer %d: bad base64: %s" % (i, e))
        else:
            with open(os.path.join(os.path.dirname(path), urllib.parse.unquote(uri)), "rb") as f:
                data = f.read()
        require(len(data) >= size, "buffer %d: %d bytes, byteLength says %d" % (i, len(data), size))
        out.append(data[:size])  # views are checked against byteLength, not padding
    return out

def load_document(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.lower().endswith(".glb") or data[:4] == b"glTF":
        doc, bin_chunk = read_glb(data)
    else:
        doc, bin_chunk = parse_json(data), None
    return doc, load_buffers(doc, path, bin_chunk)

# ---------------------------------------------------------------- accessors
def locate(doc, buffers, acc, where, csize, elem):
    """Bounds/alignment checks; returns (bytes, first element offset, stride)."""
    views, vi = doc.get("bufferViews", []), acc["bufferView"]
    require(isinstance(vi, int) and 0 <= vi < len(views), "%s: bad bufferView %r" % (where, vi))
    view = views[vi]
    bi, voff, vlen = view.get("buffer"), view.get("byteOffset", 0), view.get("byteLength", 0)
    require(isinstance(bi, int) and 0 <= bi < len(buffers), "bufferView %d: bad buffer %r" % (vi, bi))
    require(voff + vlen <= len(buffers[bi]),
            "bufferView %d: offset %d + length %d exceeds buffer %d (%d bytes)"
            % (vi, voff, vlen, bi, len(buffers[bi])))
    stride = view.get("byteStride", elem)  # absent -> tightly packed
    if "byteStride" in view:
        require(4 <= stride <= 252 and stride % 4 == 0 and stride >= elem,
                "bufferView %d: bad byteStride %d for %d-byte elements" % (vi, stride, elem))
    aoff = acc.get("byteOffset", 0)
    require((voff + aoff) % csize == 0,
            "%s: start %d not aligned to component size %d" % (where, voff + aoff, csize))
    end = aoff + stride * (acc["count"] - 1) + elem
    require(end <= vlen, "%s: needs %d bytes but bufferView %d has %d" % (where, end, vi, vlen))
    return buffers[bi], voff + aoff, stride

def read_accessor(doc, buffers, index):
    accs = doc.get("accessors", [])
    require(isinstance(index, int) and 0 <= index < len(accs), "bad accessor index %r" % index)
    acc, where = accs[index], "accessor %d" % index
    ctype, width, count = acc.get("componentType"), WIDTHS.get(acc.get("type")), acc.get("count")
    require(ctype in COMPONENTS, "%s: bad componentType %r" % (where, ctype))
    require(width is not None, "%s: unsupported type %r" % (where, acc.get("type")))
    require(isinstance(count, int) and count >= 1, "%s: bad count %r" % (where, count))
    norm = acc.get("normalized", False)
    require(not (norm and ctype in (5125, 5126)), "%s: normalized on float/uint" % where)
    require("sparse" not in acc, "%s: sparse accessors are not supported by this reader" % where)
    if "bufferView" not in acc:
        return [(0.0,) * width] * count  # spec: no bufferView -> all zeros
    fmt, csize = COMPONENTS[ctype]
    data, start, stride = locate(doc, buffers, acc, where, csize, csize * width)
    unpack = struct.Struct("<%d%s" % (width, fmt)).unpack_from
    conv = NORMALIZE[ctype] if norm else float
    return [tuple(conv(c) for c in unpack(data, start + i * stride)) for i in range(count)]

# ---------------------------------------------------------------- math
def mat_mul(a, b):
    """4x4 product of column-major matrices; element (row r, col c) is m[c*4+r]."""
    return [sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4)) for c in range(4) for r in range(4)]

def trs_matrix(t, q, s):
    """local = T * R * S for column vectors; q is (x, y, z, w) as in glTF."""
    x, y, z, w = normalized([float(c) for c in q])  # quantized (int) keys are not exactly unit
    s = [float(c) for c in s]
    rot = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
           [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
           [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    m = [0.0] * 12 + [float(t[0]), float(t[1]), float(t[2]), 1.0]
    for c in range(3):
        for r in range(3):
            m[c * 4 + r] = rot[r][c] * s[c]
    return m

def lerp(a, b, u):
    return [x + (y - x) * u for x, y in zip(a, b)]

def normalized(q):
    n = math.sqrt(sum(c * c for c in q))
    return [c / n for c in q] if n > 0 else list(q)

def slerp(a, b, u):
    d = sum(x * y for x, y in zip(a, b))
    if d < 0:  # q and -q are the same rotation: take the shorter arc
        b, d = [-c for c in b], -d
    angle = math.acos(min(d, 1.0))
    if angle < 1e-6:  # sin(angle) ~ 0 would divide by zero; lerp is exact enough
        return normalized(lerp(a, b, u))
    wa, wb = math.sin(angle * (1 - u)) / math.sin(angle), math.sin(angle * u) / math.sin(angle)
    return [wa * x + wb * y for x, y in zip(a, b)]

# ---------------------------------------------------------------- animation
def sample(sampler, t, path):
    times, values, mode = sampler
    keys = values[1::3] if mode == "CUBICSPLINE" else values  # triplets: in, value, out
    if t <= times[0]:
        return list(keys[0])
    if t >= times[-1]:
        return list(keys[-1])
    k = bisect.bisect_right(times, t) - 1  # times[k] <= t < times[k+1]
    td = times[k + 1] - times[k]
    u = (t - times[k]) / td
    if mode == "STEP":
        return list(keys[k])
    if mode == "LINEAR":
        return slerp(keys[k], keys[k + 1], u) if path == "rotation" else lerp(keys[k], keys[k + 1], u)
    v0, b0, a1, v1 = values[3 * k + 1], values[3 * k + 2], values[3 * k + 3], values[3 * k + 4]
    u2, u3 = u * u, u * u * u  # Appendix C Hermite form, tangents scaled by td
    h = (2 * u3 - 3 * u2 + 1, td * (u3 - 2 * u2 + u), -2 * u3 + 3 * u2, td * (u3 - u2))
    out = [h[0] * p + h[1] * m + h[2] * q + h[3] * n for p, m, q, n in zip(v0, b0, v1, a1)]
    return normalized(out) if path == "rotation" else out

def check_input(acc, times, where):
    require(acc.get("componentType") == 5126 and acc.get("type") == "SCALAR",
            "%s: input must be float SCALAR" % where)
    for key, actual in (("min", min(times)), ("max", max(times))):
        stored = acc.get(key)
        require(isinstance(stored, list) and len(stored) == 1 and isinstance(stored[0], (int, float)),
                "%s: input accessor %s missing or malformed" % (where, key))
        require(f32(stored[0]) == actual, "%s: input %s is %r but data gives %r" % (where, key, stored[0], actual))
    for i in range(1, len(times)):
        if not times[i] > times[i - 1]:
            raise FileError("%s: input times not strictly increasing at key %d (%r after %r)"
                            % (where, i, times[i], times[i - 1]))

def load_sampler(doc, read, s, where):
    mode = s.get("interpolation", "LINEAR")
    require(mode in ("LINEAR", "STEP", "CUBICSPLINE"), "%s: bad interpolation %r" % (where, mode))
    times = [v[0] for v in read(s.get("input"))]
    check_input(doc["accessors"][s["input"]], times, where)
    values = read(s.get("output"))
    per_key = 3 if mode == "CUBICSPLINE" else 1
    require(len(values) == per_key * len(times),
            "%s: %d outputs for %d inputs (%s)" % (where, len(values), len(times), mode))
    require(mode != "CUBICSPLINE" or len(times) >= 2, "%s: CUBICSPLINE needs >= 2 keys" % where)
    return times, values, mode

def load_animation(doc, read, ai):
    anim, nodes = doc["animations"][ai], doc.get("nodes", [])
    samplers = [load_sampler(doc, read, s, "animation %d sampler %d" % (ai, si))
                for si, s in enumerate(anim.get("samplers", []))]
    channels, inputs = {}, set()
    for ci, ch in enumerate(anim.get("channels", [])):
        where, target = "animation %d channel %d" % (ai, ci), ch.get("target", {})
        node, path, si = target.get("node"), target.get("path"), ch.get("sampler")
        if path == "weights" or node is None:  # morph weights / extension targets: out of scope
            continue
        require(path in PATHS, "%s: bad path %r" % (where, path))
        require(isinstance(node, int) and 0 <= node < len(nodes), "%s: bad node %r" % (where, node))
        require(isinstance(si, int) and 0 <= si < len(samplers), "%s: bad sampler %r" % (where, si))
        require((node, path) not in channels, "%s: node %d %s targeted twice" % (where, node, path))
        require("matrix" not in nodes[node], "%s: animated node %d has a matrix" % (where, node))
        width = len(samplers[si][1][0])
        require(width == (4 if path == "rotation" else 3), "%s: %s output has %d components" % (where, path, width))
        channels[(node, path)] = samplers[si]
        inputs.update(samplers[si][0])
    return channels, sorted(inputs)

# ---------------------------------------------------------------- skeleton
def parents_of(nodes):
    parent = [None] * len(nodes)
    for p, node in enumerate(nodes):
        for c in node.get("children", []):
            require(isinstance(c, int) and 0 <= c < len(nodes), "node %d: bad child %r" % (p, c))
            if parent[c] is not None:
                raise FileError("node %d has more than one parent (%d and %d)" % (c, parent[c], p))
            parent[c] = p
    for start in range(len(nodes)):  # one parent each, so a cycle never reaches a root
        n, steps = start, 0
        while n is not None:
            steps += 1
            require(steps <= len(nodes), "node hierarchy has a cycle through node %d" % start)
            n = parent[n]
    return parent

def local_matrix(node, channels=None, ni=None, t=None):
    if "matrix" in node:  # animated nodes never have one (checked)
        require(len(node["matrix"]) == 16, "node %d: matrix needs 16 numbers" % ni)
        return [float(v) for v in node["matrix"]]
    trs = [node.get("translation", [0, 0, 0]), node.get("rotation", [0, 0, 0, 1]), node.get("scale", [1, 1, 1])]
    require([len(v) for v in trs] == [3, 4, 3], "node %d: bad translation/rotation/scale length" % ni)
    for k, path in enumerate(PATHS):
        if channels and (ni, path) in channels:
            trs[k] = sample(channels[(ni, path)], t, path)
    return trs_matrix(*trs)

def world_matrices(parent, local, wanted):
    world = {}
    for n in wanted:
        chain = []
        while n is not None and n not in world:
            chain.append(n)
            n = parent[n]
        for m in reversed(chain):  # root first, so the parent is ready
            world[m] = local[m] if parent[m] is None else mat_mul(world[parent[m]], local[m])
    return world

def first_skin(doc):
    skins, nodes = doc.get("skins", []), doc.get("nodes", [])
    require(skins, "no skins: the joints are taken from the first skin")
    joints = skins[0].get("joints", [])
    require(joints and all(isinstance(j, int) and 0 <= j < len(nodes) for j in joints), "skin 0: bad joints")
    require(len(set(joints)) == len(joints), "skin 0: duplicate joints")
    return skins[0], joints

def inverse_bind_error(doc, read, skin, joints, world):
    if "inverseBindMatrices" not in skin:
        return None
    ai = skin["inverseBindMatrices"]
    mats = read(ai)
    acc = doc["accessors"][ai]
    require(acc.get("type") == "MAT4" and acc.get("componentType") == 5126,
            "skin 0: inverseBindMatrices is not float MAT4")
    require(len(mats) == len(joints), "skin 0: %d inverse bind matrices for %d joints" % (len(mats), len(joints)))
    scale = max([1.0] + [math.hypot(*world[j][12:15]) for j in joints])
    worst, at = 0.0, 0
    for i, (j, ibm) in enumerate(zip(joints, mats)):
        prod = mat_mul(world[j], list(ibm))
        err = max(abs(p - e) for p, e in zip(prod, IDENTITY))
        if err > worst:
            worst, at = err, i
    require(worst <= 1e-4 * scale, "skin 0: joint %d (node %d): world * inverseBind differs from identity by %g "
            "(tolerance %g)" % (at, joints[at], worst, 1e-4 * scale))
    return worst

# ---------------------------------------------------------------- driver
def pick_animation(doc, want):
    names = [a.get("name") for a in doc.get("animations", [])]
    if want is None and names:
        return 0
    if want in names:
        return names.index(want)
    if want is not None and want.lstrip("-").isdigit() and 0 <= int(want) < len(names):
        return int(want)
    what = "the file has no animations" if want is None else "unknown animation %r" % want
    raise UsageError("%s; animations in file: %s (or use --rest)" % (what, json.dumps(names)))

def frame_times(args, inputs):
    if args.times is not None:
        return args.times
    if not inputs:
        return []
    if args.fps is None:
        return inputs
    lo, hi, fps = inputs[0], inputs[-1], args.fps
    # Keys are float32: k/F counts as inside if it is within 1e-9 once rounded to float32.
    ks = range(math.floor(lo * fps) - 1, math.ceil(hi * fps) + 2)
    return [k / fps for k in ks if lo - 1e-9 <= f32(k / fps) <= hi + 1e-9]

def frame(t, world, joints):
    return {"time": t, "positions": [world[j][12:15] for j in joints], "matrices": [world[j] for j in joints]}

def run(args):
    doc, buffers = load_document(args.file)
    cache = {}

    def read(i):  # accessors are shared between samplers: decode each once
        if i not in cache:
            cache[i] = read_accessor(doc, buffers, i)
        return cache[i]
    nodes = doc.get("nodes", [])
    parent = parents_of(nodes)
    skin, joints = first_skin(doc)
    anims = [load_animation(doc, read, ai) for ai in range(len(doc.get("animations", [])))]
    rest_world = world_matrices(parent, [local_matrix(n, ni=i) for i, n in enumerate(nodes)], joints)
    ibm_error = inverse_bind_error(doc, read, skin, joints, rest_world)
    names = [a.get("name") for a in doc.get("animations", [])]
    if args.all:  # every animation at its own input times: positions only, to keep the output small
        sampled = []
        for ai, (channels, inputs) in enumerate(anims):
            frames = []
            for t in frame_times(args, inputs):
                local = [local_matrix(n, channels, i, t) for i, n in enumerate(nodes)]
                world = world_matrices(parent, local, joints)
                frames.append({"time": t, "positions": [world[j][12:15] for j in joints]})
            sampled.append({"animation": names[ai], "frames": frames})
        return {"file": args.file, "joints": [{"index": i, "node": n, "name": nodes[n].get("name")} for i, n in enumerate(joints)],
                "rest": frame(None, rest_world, joints)["positions"], "sampled": sampled,
                "inverse_bind_max_error": ibm_error, "animations": names}
    if args.rest:
        ai, frames = None, [frame(None, rest_world, joints)]
    else:
        ai = pick_animation(doc, args.animation)
        channels, inputs = anims[ai]
        frames = []
        for t in frame_times(args, inputs):
            local = [local_matrix(n, channels, i, t) for i, n in enumerate(nodes)]
            frames.append(frame(t, world_matrices(parent, local, joints), joints))
    return {"file": args.file, "animation": None if ai is None else names[ai],
            "joints": [{"index": i, "node": n, "name": nodes[n].get("name")} for i, n in enumerate(joints)],
            "frames": frames, "inverse_bind_max_error": ibm_error, "animations": names}

def time_list(text):  # argparse turns the ValueError into a usage error (exit 2)
    return [float(x) for x in text.split(",") if x.strip()]

def positive(text):
    if not float(text) > 0:
        raise ValueError(text)
    return float(text)

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", help=".glb or .gltf file")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--animation", help="animation name, or index if no animation has that name (default 0)")
    group.add_argument("--rest", action="store_true", help="no animation: nodes' own TRS (one frame, time null)")
    group.add_argument("--all", action="store_true",
                       help="every animation (positions only) and the rest pose, in one run (added by animdex's harness)")
    ap.add_argument("--times", type=time_list, help="comma-separated sample times in seconds")
    ap.add_argument("--fps", type=positive, help="sample every k/F seconds across the animation's input range")
    args = ap.parse_args(argv)
    try:
        result = run(args)
    except UsageError as e:
        print("%s: usage error: %s" % (args.file, e), file=sys.stderr)
        return 2
    except (FileError, OSError) as e:
        print("%s: error: %s" % (args.file, e), file=sys.stderr)
        return 1
    except (KeyError, IndexError, TypeError, ValueError, struct.error) as e:  # wrong JSON shapes
        print("%s: error: malformed glTF (%s: %s)" % (args.file, type(e).__name__, e), file=sys.stderr)
        return 1
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0

if __name__ == "__main__":
    sys.exit(main())
