#!/usr/bin/env python3
"""Independent check of `animdex pose` on Naruto GNT `.mot` files.

A second reader of the format, written from the format note alone (../shared/formats/gnt-mot.md: MOT
header, slot table, GNTA header, bone headers, key times, 16-bit `bits << 16` or f32 coordinates, the
parser invariants), separately from the C++ code, plus an evaluator for the project's pose rules:

  * each bone header is one track; track flags TRANSLATE 0x01 -> T, ROTATE 0x08 -> R, SCALE 0x02 -> S
    (several bits: it feeds each of them; none: it feeds nothing); T and S take x,y,z, R takes x,y,z,w;
  * linear interpolation of each component between two keys; at a key's own time that key's value, and of
    keys sharing one time the later wins; before the first key the first value, after the last key the
    last value (held); one key: its value at every time; a track without keys gives no value;
  * a time-only track (flags1 without 0x0200) gives no value, but its bone is still a node;
  * two tracks of one bone feeding the same vector: the later header wins;
  * nodes: one per distinct bone ID with a track, by bone ID ascending (unsigned 16-bit).

For every non-empty slot of every `.mot` under FOLDER it evaluates every node at every key time, the
midpoints between consecutive distinct key times, 0.5 s before the first key and 0.5 s after the last key,
asks `animdex pose FILE --slot N --time ... --format jsonl` for the same times and compares T, R and S
(relative 1e-5, absolute 1e-6 near zero; null must match null; the node lists must match).

Usage: gnt_reference_eval.py selftest
       gnt_reference_eval.py check ANIMDEX_BINARY FOLDER   (FOLDER `sample`: ANIMDEX_BINARY sample DIR
                                                           --characters 3 into a temporary folder)
       gnt_reference_eval.py eval FILE SLOT TIME [TIME ...] (print this evaluator's poses as jsonl)
Exit codes: 0 all agree; 1 a disagreement, or nothing compared; 2 usage; 77 skipped (FOLDER not found).
"""
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile

FPS = 60
REL_TOL = 1e-5
ABS_TOL = 1e-6
MAX_COMMAND_CHARS = 100_000

TRANSLATE, SCALE, ROTATE = 0x01, 0x02, 0x08
KINDS = (("T", TRANSLATE, 3), ("R", ROTATE, 4), ("S", SCALE, 3))


class MotError(Exception):
    pass


def align16(n):
    return (n + 15) & ~15


def decode16(bits):
    """16-bit coordinate: the upper half of an IEEE f32 (bfloat16-like)."""
    return struct.unpack(">f", struct.pack(">I", (bits & 0xFFFF) << 16))[0]


def parse(data):
    """Parse a whole .mot file. Returns {"slots": N, "anims": {slot: anim}}; raises MotError."""
    size = len(data)

    def u16(o):
        return struct.unpack_from(">H", data, o)[0]

    def u32(o):
        return struct.unpack_from(">I", data, o)[0]

    def f32(o):
        return struct.unpack_from(">f", data, o)[0]

    if size < 0x10:
        raise MotError(f"file is {size} bytes, shorter than the 0x10-byte MOT header")
    if u32(0) != 0:
        raise MotError(f"u32 at 0x00 is 0x{u32(0):X}, not 0")
    n = u32(4)
    if u32(8) != 0x10:
        raise MotError(f"header size 0x{u32(8):X}, not 0x10")
    if n < 1 or 0x10 + 4 * n > size:
        raise MotError(f"slot count {n} does not fit the file")
    if u32(0x0C) != size:
        raise MotError(f"stored file size {u32(0x0C)} differs from the real length {size}")
    first = align16(0x10 + 4 * n)
    offsets = {}
    for slot in range(n):
        off = u32(0x10 + 4 * slot)
        if off == 0:
            continue
        if off < first or off >= size or off % 16:
            raise MotError(f"slot {slot}: offset 0x{off:X} out of range or not 16-aligned")
        if off in offsets.values():
            raise MotError(f"slot {slot}: duplicate offset 0x{off:X}")
        offsets[slot] = off
    # A GNTA extends to the next GNTA in file order (or the end of the file).
    ordered = sorted(offsets.values()) + [size]
    extent = {o: ordered[i + 1] for i, o in enumerate(ordered[:-1])}
    anims = {}
    for slot, off in offsets.items():
        end = extent[off]
        where = f"slot {slot} (GNTA at 0x{off:X})"
        if off + 0x10 > end:
            raise MotError(f"{where}: header does not fit")
        bones = u16(off + 2)
        if u32(off + 4) != 0x10:
            raise MotError(f"{where}: GNTA header size 0x{u32(off + 4):X}, not 0x10")
        if off + 0x10 + 0x20 * bones > end:
            raise MotError(f"{where}: {bones} bone headers do not fit")
        tracks = []
        for i in range(bones):
            h = off + 0x10 + 0x20 * i
            flags1, track_flags, bone, keys = u16(h), u16(h + 2), u16(h + 4), u16(h + 6)
            time_off, coord_off = u32(h + 0x10), u32(h + 0x14)
            bw = f"{where} bone header {i}"
            if u32(h + 0x0C) or u32(h + 0x18) or u32(h + 0x1C):
                raise MotError(f"{bw}: reserved words are not zero")
            if off + time_off + 4 * keys > end:
                raise MotError(f"{bw}: key times at +0x{time_off:X} ({keys} keys) run past the GNTA")
            times = [f32(off + time_off + 4 * k) for k in range(keys)]
            values = None
            if flags1 & 0x0200:
                if flags1 & 0x0002:
                    width = 2
                elif flags1 & 0x0004:
                    width = 4
                else:
                    raise MotError(f"{bw}: flags1 0x{flags1:04X} has 0x0200 without 0x0002 or 0x0004")
                if coord_off != align16(time_off + 4 * keys):
                    raise MotError(f"{bw}: coordinates at +0x{coord_off:X} do not follow the key times")
                if off + coord_off + 4 * width * keys > end:
                    raise MotError(f"{bw}: coordinates run past the GNTA")
                values = []
                for k in range(keys):
                    at = off + coord_off + 4 * width * k
                    if width == 2:
                        values.append(tuple(decode16(u16(at + 2 * c)) for c in range(4)))
                    else:
                        values.append(tuple(f32(at + 4 * c) for c in range(4)))
            tracks.append(dict(flags1=flags1, flags=track_flags, bone=bone, times=times, values=values))
        anims[slot] = dict(play_speed=f32(off + 8), end_time=f32(off + 12), tracks=tracks)
    return dict(slots=n, anims=anims)


def evaluate_track(times, values, t):
    """Value (x, y, z, w) of one coordinate track at time t, or None when it has no keys."""
    if not times:
        return None
    if t < times[0]:
        return values[0]
    # The last key whose time is at or before t (of keys sharing a time, the later one).
    i = 0
    for k, kt in enumerate(times):
        if kt <= t:
            i = k
    if i == len(times) - 1 or times[i] == t:
        return values[i]
    t0, t1 = times[i], times[i + 1]
    u = (t - t0) / (t1 - t0)
    return tuple(a + (b - a) * u for a, b in zip(values[i], values[i + 1]))


def pose(anim, t):
    """List of {"node", "T", "R", "S"} by bone ID ascending."""
    nodes = {}
    for track in anim["tracks"]:
        node = nodes.setdefault(track["bone"], {"node": track["bone"], "T": None, "R": None, "S": None})
        if track["values"] is None:
            continue  # time-only: no value
        value = evaluate_track(track["times"], track["values"], t)
        if value is None:
            continue
        for kind, bit, count in KINDS:
            if track["flags"] & bit:
                node[kind] = list(value[:count])
    return [nodes[b] for b in sorted(nodes)]


def sample_times(anim):
    """Key times, midpoints between consecutive distinct key times, first - 0.5 and last + 0.5."""
    distinct = sorted({t for track in anim["tracks"] for t in track["times"] if math.isfinite(t)})
    if not distinct:
        return []
    wanted = list(distinct)
    wanted += [(a + b) / 2 for a, b in zip(distinct, distinct[1:])]
    wanted += [distinct[0] - 0.5, distinct[-1] + 0.5]
    return sorted(set(wanted))


def close(a, b):
    return abs(a - b) <= max(ABS_TOL, REL_TOL * max(abs(a), abs(b)))


def compare_vector(want, got):
    """None when equal within tolerance, else a short reason. Returns (reason, components compared)."""
    if want is None or got is None:
        return (None, 0) if want is None and got is None else (f"{got} vs reference {want}", 0)
    if not isinstance(got, list) or len(got) != len(want):
        return f"{got} vs reference {want}", 0
    for a, b in zip(want, got):
        if b is None or isinstance(b, bool) or not isinstance(b, (int, float)) or not close(a, b):
            return f"{got} vs reference {want}", len(want)
    return None, len(want)


# ---------------------------------------------------------------------------------------------------------
# selftest


def build_mot(anims, slots):
    """A .mot from {slot: [(flags1, track_flags, bone, times, coords)]} laid out as the note describes."""
    blobs = {}
    for slot, tracks in anims.items():
        head = bytearray(struct.pack(">HHIff", 0, len(tracks), 0x10, 0.1, max(
            [t for tr in tracks for t in tr[3]] or [0.0])))
        body = bytearray()
        base = 0x10 + 0x20 * len(tracks)
        headers = bytearray()
        for flags1, track_flags, bone, times, coords in tracks:
            time_off = base + len(body)
            body += b"".join(struct.pack(">f", t) for t in times)
            body += b"\xAB" * (align16(len(body)) - len(body))  # junk padding
            coord_off = 0
            if coords is not None:
                coord_off = base + len(body)
                for c in coords:
                    body += struct.pack(">4H", *c) if flags1 & 0x0002 else struct.pack(">4f", *c)
                body += b"\xCD" * (align16(len(body)) - len(body))
            headers += struct.pack(">HHHHfIIIII", flags1, track_flags, bone, len(times),
                                   times[-1] if times else 0.0, 0, time_off, coord_off, 0, 0)
        blobs[slot] = bytes(head + headers + body)
    table_end = align16(0x10 + 4 * slots)
    data = bytearray(table_end)
    offsets = {}
    for slot in sorted(blobs, reverse=True):
        offsets[slot] = len(data)
        data += blobs[slot]
    struct.pack_into(">IIII", data, 0, 0, slots, 0x10, len(data))
    for slot, off in offsets.items():
        struct.pack_into(">I", data, 0x10 + 4 * slot, off)
    return bytes(data)


def selftest():
    failures = []

    def expect(what, got, want):
        same = (got == want) if not isinstance(want, float) else (
            got == want and math.copysign(1, got) == math.copysign(1, want))
        if not same:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    # CoordinateTest vectors from the note.
    for bits, want in ((0x4048, 3.125), (0x3C93, 0.017944336), (0x404E, 3.21875), (0x8000, -0.0)):
        # The note gives float32 decimal text: compare with that text read as a float32.
        expect(f"decode16(0x{bits:04X})", decode16(bits), struct.unpack(">f", struct.pack(">f", want))[0])

    # A synthetic file exercising every rule.
    one, two, three, half = 0x3F80, 0x4000, 0x4040, 0x3F00
    f_times = [0.0, 1.0, 1.0, 2.0]
    anims = {
        3: [
            (0x0202, 0x21, 5, [0.5, 1.5], [(one, two, three, 0x4120), (three, two, one, 0x41A0)]),  # T
            (0x0204, 0x28, 5, f_times, [(0, 0, 0, 0), (1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)]),  # R
            (0x0000, 0x22, 0xFFFF, [0.0, 1.0], None),  # time-only: node, no value
            (0x0202, 0x03, 7, [0.25], [(half, half, half, half)]),  # T and S, one key
            (0x0202, 0x20, 9, [0.0, 1.0], [(one, one, one, one), (two, two, two, two)]),  # no kind
            (0x0204, 0x01, 7, [0.0, 2.0], [(10, 20, 30, 40), (30, 40, 50, 60)]),  # later T of bone 7 wins
            (0x0000, 0x01, 7, [0.0], None),  # time-only after it: gives no value
        ],
        0: [(0x0202, 0x28, 2, [0.0], [(0x8000, 0, 0, 0)])],
    }
    mot = parse(build_mot(anims, 5))
    expect("slots", mot["slots"], 5)
    expect("non-empty slots", sorted(mot["anims"]), [0, 3])
    a = mot["anims"][3]

    def node(t, bone):
        return {n["node"]: n for n in pose(a, t)}[bone]

    expect("node order", [n["node"] for n in pose(a, 0.0)], [5, 7, 9, 0xFFFF])
    expect("T before first key", node(0.0, 5)["T"], [1.0, 2.0, 3.0])
    expect("T at a key", node(0.5, 5)["T"], [1.0, 2.0, 3.0])
    expect("T midway", node(1.0, 5)["T"], [2.0, 2.0, 2.0])
    expect("T after last key", node(9.0, 5)["T"], [3.0, 2.0, 1.0])
    expect("R before duplicate time", node(0.5, 5)["R"], [0.5, 1.0, 1.5, 2.0])
    expect("R at duplicate time: later key", node(1.0, 5)["R"], [5.0, 6.0, 7.0, 8.0])
    expect("R after duplicate time", node(1.5, 5)["R"], [7.0, 8.0, 9.0, 10.0])
    expect("S of a T+R bone", node(1.0, 5)["S"], None)
    expect("time-only bone", (node(1.0, 0xFFFF)["T"], node(1.0, 0xFFFF)["S"]), (None, None))
    expect("later track wins T", node(1.0, 7)["T"], [20.0, 30.0, 40.0])
    expect("one key, S", node(5.0, 7)["S"], [0.5, 0.5, 0.5])
    expect("no-kind track", (node(0.5, 9)["T"], node(0.5, 9)["R"], node(0.5, 9)["S"]), (None, None, None))
    expect("-0.0 rotation", mot["anims"][0]["tracks"][0]["values"][0][0], -0.0)
    expect("sample times", sample_times(mot["anims"][0]), [-0.5, 0.0, 0.5])

    # The parser invariants reject broken files.
    good = build_mot(anims, 5)
    broken = {
        "non-zero word 0": b"\0\0\0\1" + good[4:],
        "wrong stored size": good[:12] + struct.pack(">I", len(good) + 16) + good[16:],
        "truncated": good[:-16],
        "bad header size": good[:8] + struct.pack(">I", 0x20) + good[12:],
        "slot offset unaligned": good[:0x10] + struct.pack(">I", 0x38) + good[0x14:],
    }
    dup = bytearray(good)
    dup[0x10 + 4 * 0:0x10 + 4 * 1] = good[0x10 + 4 * 3:0x10 + 4 * 4]
    broken["duplicate offset"] = bytes(dup)
    for name, data in broken.items():
        try:
            parse(data)
            failures.append(f"parser accepted a file with {name}")
        except MotError:
            pass

    for f in failures:
        print("FAIL", f)
    print(f"selftest: {'FAILED' if failures else 'passed'} ({len(failures)} failures)")
    return 1 if failures else 0


# ---------------------------------------------------------------------------------------------------------
# check against animdex


def chunks(fixed_len, times):
    """Split the times so that each command line stays under MAX_COMMAND_CHARS."""
    out, current, length = [], [], fixed_len
    for t in times:
        extra = len("--time") + len(repr(t)) + 2
        if current and length + extra > MAX_COMMAND_CHARS:
            out.append(current)
            current, length = [], fixed_len
        current.append(t)
        length += extra
    if current:
        out.append(current)
    return out


def check(binary, folder):
    temp = None
    if folder == "sample":
        temp = tempfile.mkdtemp(prefix="gnt_reference_eval.")
        result = subprocess.run([binary, "sample", temp, "--characters", "3"], capture_output=True, text=True)
        if result.returncode != 0:
            shutil.rmtree(temp, ignore_errors=True)
            print(f"`{binary} sample` failed (exit {result.returncode}): {result.stderr.strip()}")
            return 1
        folder = temp
    elif not os.path.isdir(folder):
        print(f"skipped: {folder} not found")
        return 77
    try:
        return check_folder(binary, folder)
    finally:
        if temp:
            shutil.rmtree(temp, ignore_errors=True)


def check_folder(binary, folder):
    files = skipped = slots = poses = compared = 0
    problems = []

    def disagree(text):
        problems.append(text)

    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            if not name.lower().endswith(".mot"):
                continue
            path = os.path.join(root, name)
            try:
                with open(path, "rb") as fh:
                    mot = parse(fh.read())
            except MotError as e:
                skipped += 1
                print(f"skipped {path}: {e}")
                continue
            files += 1
            for slot in sorted(mot["anims"]):
                anim = mot["anims"][slot]
                times = sample_times(anim)
                if not times:
                    continue
                slots += 1
                fixed = [binary, "pose", path, "--slot", str(slot), "--format", "jsonl"]
                for part in chunks(sum(len(a) + 1 for a in fixed), times):
                    args = list(fixed)
                    for t in part:
                        args += ["--time", repr(t)]
                    result = subprocess.run(args, capture_output=True, text=True)
                    where = f"{path} slot {slot}"
                    if result.returncode != 0:
                        disagree(f"{where}: animdex exit {result.returncode}: {result.stderr.strip()[:300]}")
                        continue
                    lines = [l for l in result.stdout.splitlines() if l.strip()]
                    if len(lines) != len(part):
                        disagree(f"{where}: {len(lines)} lines for {len(part)} times")
                        continue
                    for t, line in zip(part, lines):
                        at = f"{where} t={t!r}"
                        try:
                            got = json.loads(line)
                        except ValueError as e:
                            disagree(f"{at}: not JSON ({e}): {line[:200]}")
                            continue
                        poses += 1
                        header = [("file", got.get("file") == path), ("format", got.get("format") == "gnt_mot"),
                                  ("slot", got.get("slot") == str(slot)), ("fps", got.get("fps") == FPS),
                                  ("time", isinstance(got.get("time"), (int, float)) and close(got["time"], t)),
                                  ("frame", isinstance(got.get("frame"), (int, float))
                                   and close(got["frame"], t * FPS))]
                        for key, ok in header:
                            if not ok:
                                disagree(f"{at}: \"{key}\" is {got.get(key)!r}")
                        want_nodes = pose(anim, t)
                        got_nodes = got.get("nodes")
                        if not isinstance(got_nodes, list):
                            disagree(f"{at}: \"nodes\" is {got_nodes!r}")
                            continue
                        got_ids = [n.get("node") if isinstance(n, dict) else n for n in got_nodes]
                        want_ids = [n["node"] for n in want_nodes]
                        if got_ids != want_ids:
                            disagree(f"{at}: nodes {got_ids} vs reference {want_ids}")
                            continue
                        for want, have in zip(want_nodes, got_nodes):
                            for key in ("T", "R", "S"):
                                reason, n = compare_vector(want[key], have.get(key))
                                compared += n
                                if reason:
                                    disagree(f"{at} node {want['node']} {key}: animdex {reason}")
    print(f"{files} files ({skipped} skipped: rejected by the reference parser), {slots} slots, {poses} poses, "
          f"{compared} values compared, {len(problems)} disagreements")
    for p in problems[:10]:
        print("  DISAGREE", p)
    if problems:
        return 1
    if compared == 0:
        print("nothing was compared")
        return 1
    return 0


def eval_command(path, slot, times):
    with open(path, "rb") as fh:
        mot = parse(fh.read())
    anim = mot["anims"].get(slot)
    if anim is None:
        print(f"slot {slot} is empty or past the {mot['slots']} slots", file=sys.stderr)
        return 1
    for t in times:
        print(json.dumps({"file": path, "format": "gnt_mot", "slot": str(slot), "time": t, "frame": t * FPS,
                          "fps": FPS, "nodes": pose(anim, t)}))
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "selftest":
        return selftest()
    if len(argv) == 4 and argv[1] == "check":
        return check(argv[2], argv[3])
    if len(argv) >= 5 and argv[1] == "eval":
        try:
            return eval_command(argv[2], int(argv[3], 0), [float(x) for x in argv[4:]])
        except MotError as e:
            print(f"{argv[2]}: {e}", file=sys.stderr)
            return 1
    print("usage: gnt_reference_eval.py selftest | check ANIMDEX_BINARY FOLDER|sample | eval FILE SLOT TIME...",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
