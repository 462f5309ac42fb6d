#!/usr/bin/env python3
"""Independent check of `animdex pose` on Kingdom Hearts II motions (BAR / .mset / .anb / bare Motion).

A second decoder and evaluator written from the format note alone (../shared/formats/kh2-mset.md:
"Motion sub-file", "What the real files show" and "Evaluating a motion") plus the project's decisions
where the note is silent, separately from the C++ code. Standard library only, little-endian.

What it evaluates, per pose:
- interpolated motions: nodes 0 .. TotalBoneCount-1; bones start at the bind pose (null, "bind_pose"),
  then InitialPose ("initial_pose"), then forward curves ("curve"); IK helpers start from their 0x40-byte
  record ("helper_record"), then inverse curves ("curve"). Curves follow the game's routine: one bracket
  over the key-time table, pre/post region with inclusive boundaries, modes 0-3, the inside segment decided
  by the left key's type (0 const, 1 linear, 2 hermite with A.out/B.in tangents scaled by the span, 3 -> 0).
- raw motions: nodes are bones; stored frame floor(key_time * FPS / 60) clamped to the stored frames,
  "M" the 16 stored floats, T/S/R decomposed from the matrix (Euler XYZ, R = Rz Ry Rx).
Key time = float32(seconds * 60) (1/60 s units).

Usage:
  kh2_reference_eval.py selftest CORPUS_FOLDER
      (a) interpolated.motion, bone 0 rotate.x at key time 16 = 0.428581; (b) every key of every curve of
      every motion evaluated at its own key time returns its value (test-0000.anb reported apart).
  kh2_reference_eval.py check ANIMDEX_BINARY CORPUS_FOLDER
      for every motion, one `animdex pose FILE [--slot S] --time T ... --format jsonl` call with up to 12
      times; compares every node's S, R, T (and M for raw), from_*, kind and the node list.
Exit 77 = skipped (no folder), 1 = disagreement (or nothing compared), 2 = usage.
"""
import json
import math
import os
import struct
import subprocess
import sys

CHANNEL_NAMES = ("scale.x", "scale.y", "scale.z", "rotate.x", "rotate.y", "rotate.z",
                 "translate.x", "translate.y", "translate.z")

INTERP_FIELDS = ("IKHelperOff", "JointOff", "KeyTimeCount", "InitialPoseOff", "InitialPoseCount",
                 "RootPosOff", "FCurveFwdOff", "FCurveFwdCount", "FCurveInvOff", "FCurveInvCount",
                 "FCurveKeyOff", "KeyTimeOff", "KeyValueOff", "KeyTangentOff", "ConstraintOff",
                 "ConstraintCount", "ConstraintActivationOff", "LimiterOff", "ExpressionOff",
                 "ExpressionCount", "ExprNodeOff", "ExprNodeCount")


class FormatError(Exception):
    pass


def f32(x):
    """Round a Python float to float32 (the game's and the tool's time type)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


class Reader:
    """Bounds-checked little-endian reads over a whole file."""

    def __init__(self, data):
        self.d = data

    def _get(self, fmt, off, size):
        if off < 0 or off + size > len(self.d):
            raise FormatError(f"read of {size} bytes at 0x{off:x} outside the file (length 0x{len(self.d):x})")
        return struct.unpack_from(fmt, self.d, off)[0]

    def u8(self, o): return self._get("<B", o, 1)
    def u16(self, o): return self._get("<H", o, 2)
    def s16(self, o): return self._get("<h", o, 2)
    def u32(self, o): return self._get("<I", o, 4)
    def s32(self, o): return self._get("<i", o, 4)
    def f(self, o): return self._get("<f", o, 4)

    def floats(self, o, n):
        if o < 0 or o + 4 * n > len(self.d):
            raise FormatError(f"read of {n} floats at 0x{o:x} outside the file")
        return list(struct.unpack_from(f"<{n}f", self.d, o))


# ----------------------------------------------------------------------------------------------- BAR

def bar_entries(rd, base):
    """Entries of the BAR at absolute offset `base`: (index, type, dup, name, absolute offset, size)."""
    if rd.d[base:base + 3] != b"BAR":
        raise FormatError(f"no BAR magic at 0x{base:x}")
    count = rd.s32(base + 4)
    if count < 0 or base + 16 + 16 * count > len(rd.d):
        raise FormatError(f"BAR at 0x{base:x}: bad entry count {count}")
    out = []
    for i in range(count):
        e = base + 16 + 16 * i
        typ, dup = rd.u16(e), rd.u16(e + 2)
        name = rd.d[e + 4:e + 8].split(b"\0")[0].decode("latin-1")
        off, size = rd.s32(e + 8), rd.s32(e + 12)
        out.append((i, typ, dup, name, base + off, size))
    return out


def anb_motion(rd, anb_base):
    """The Motion entry of the ANB (a BAR) at anb_base: (absolute offset, size) or None when absent/empty.
    The ANB is bounded by its parent container (here: the file), not by its slot's size."""
    for _, typ, _, _, off, size in bar_entries(rd, anb_base):
        if typ == 9:
            return (off, size) if size > 0 else None
    return None


def find_motions(path, data):
    """(format, [(slot text or None, absolute motion offset, motion size)], notes) for one file."""
    rd = Reader(data)
    ext = os.path.splitext(path)[1].lower()
    if data[:3] != b"BAR":
        if len(data) >= 0xA0 and not any(data[:0x90]) and rd.s32(0x90) in (0, 1):
            return "kh2_motion", [(None, 0, len(data))], []
        return None, [], []
    entries = bar_entries(rd, 0)
    if any(typ == 9 for _, typ, _, _, _, _ in entries):  # the file itself is an ANB
        m = anb_motion(rd, 0)
        return "kh2_anb", ([(None, m[0], m[1])] if m else []), ([] if m else ["empty Motion"])
    fmt = "kh2_mset" if ext == ".mset" else "kh2_bar"
    motions, notes = [], []

    def walk(entries_, prefix):
        for i, typ, _, _, off, size in entries_:
            slot = f"{prefix}{i}"
            if size <= 0:
                continue  # dummy / no data
            if typ == 17:
                if data[off:off + 3] != b"BAR":
                    notes.append(f"slot {slot}: ANB payload without BAR magic")
                    continue
                m = anb_motion(rd, off)
                if m is None:
                    notes.append(f"slot {slot}: empty Motion")
                else:
                    motions.append((slot, m[0], m[1]))
            elif typ == 20 and not prefix:
                if data[off:off + 3] != b"BAR":
                    notes.append(f"slot {slot}: motion set payload without BAR magic")
                    continue
                walk(bar_entries(rd, off), f"{slot}/")

    walk(entries, "")
    return fmt, motions, notes


# ---------------------------------------------------------------------------------------- Motion

class Key:
    __slots__ = ("type", "idx", "vi", "ini", "outi")

    def __init__(self, packed, vi, ini, outi):
        self.type = packed & 3
        self.idx = packed >> 2
        self.vi, self.ini, self.outi = vi, ini, outi


class Curve:
    __slots__ = ("joint", "channel", "pre", "post", "keys", "first")

    def __init__(self, joint, packed, keys, first):
        self.joint = joint
        self.channel = packed & 15
        self.pre = (packed >> 4) & 3
        self.post = (packed >> 6) & 3
        self.keys = keys
        self.first = first


class Motion:
    def __init__(self, data, moff, msize):
        rd = Reader(data)
        self.rd = rd
        self.moff, self.msize = moff, msize
        if msize < 0xA0:
            raise FormatError("motion shorter than its common header")
        r = moff + 0x90
        self.r = r
        self.type = rd.s32(r)
        self.subtype = rd.s32(r + 4)
        self.extra_offset = rd.s32(r + 8)
        if self.type == 0:
            self.kind = "interpolated"
            self._parse_interpolated()
        elif self.type == 1:
            self.kind = "raw"
            self._parse_raw()
        else:
            raise FormatError(f"motion type {self.type}")
        if not (self.fps > 0):
            raise FormatError(f"FPS {self.fps}")

    # -------- interpolated
    def _parse_interpolated(self):
        rd, r = self.rd, self.r
        if self.msize < 0x90 + 0x10 + 0xA0:
            raise FormatError("interpolated motion shorter than its header")
        h = r + 0x10
        self.bone_count = rd.s16(h)
        self.total_bone_count = rd.s16(h + 2)
        self.frame_count = rd.s32(h + 4)
        self.hdr = {name: rd.s32(h + 8 + 4 * i) for i, name in enumerate(INTERP_FIELDS)}
        self.frame_start, self.frame_end, self.fps, self.frame_return = rd.floats(h + 0x80, 4)
        H = self.hdr
        if self.bone_count < 0 or self.total_bone_count < self.bone_count:
            raise FormatError(f"BoneCount {self.bone_count} / TotalBoneCount {self.total_bone_count}")
        n = H["KeyTimeCount"]
        self.kt = rd.floats(r + H["KeyTimeOff"], n) if n > 0 else []
        self.n_values = (H["KeyTangentOff"] - H["KeyValueOff"]) // 4
        self.n_tangents = (H["ConstraintOff"] - H["KeyTangentOff"]) // 4
        self.n_keys = (H["KeyTimeOff"] - H["FCurveKeyOff"]) // 8
        self.values = self._table(H["KeyValueOff"], self.n_values)
        self.tangents = self._table(H["KeyTangentOff"], self.n_tangents)
        self.initial_pose = []
        for i in range(max(0, H["InitialPoseCount"])):
            e = r + H["InitialPoseOff"] + 8 * i
            self.initial_pose.append((rd.u16(e), rd.u16(e + 2), rd.f(e + 4)))
        self.fwd = self._curves(H["FCurveFwdOff"], H["FCurveFwdCount"])
        self.inv = self._curves(H["FCurveInvOff"], H["FCurveInvCount"])
        self.helpers = []
        for hidx in range(self.total_bone_count - self.bone_count):
            e = r + H["IKHelperOff"] + 0x40 * hidx
            self.helpers.append(rd.floats(e + 0x10, 3) + rd.floats(e + 0x20, 3) + rd.floats(e + 0x30, 3))
        if (self.fwd or self.inv) and not self.kt:
            raise FormatError("curves but no key times")

    def _curves(self, off, count):
        rd, r, H = self.rd, self.r, self.hdr
        key_base = r + H["FCurveKeyOff"]
        if not hasattr(self, "_key_cache"):
            self._key_cache = {}
        cache = self._key_cache
        out = []
        for i in range(max(0, count)):
            e = r + off + 6 * i
            joint, packed, nkeys, first = rd.u16(e), rd.u8(e + 2), rd.u8(e + 3), rd.u16(e + 4)
            if nkeys == 0:
                raise FormatError(f"curve {i} at 0x{e:x} has no keys")
            if first + nkeys > self.n_keys:
                raise FormatError(f"curve {i}: keys {first}+{nkeys} beyond the key table ({self.n_keys})")
            if key_base < 0 or key_base + 8 * (first + nkeys) > len(rd.d):
                raise FormatError(f"curve {i}: keys {first}+{nkeys} run past the file")
            keys = []
            for k in range(first, first + nkeys):
                key = cache.get(k)
                if key is None:
                    key = cache[k] = Key(*struct.unpack_from("<4H", rd.d, key_base + 8 * k))
                    if key.idx >= len(self.kt):
                        raise FormatError(f"key {k}: key-time index {key.idx} >= {len(self.kt)}")
                    if key.vi >= self.n_values:
                        raise FormatError(f"key {k}: value index {key.vi} >= {self.n_values}")
                keys.append(key)
            out.append(Curve(joint, packed, keys, first))
        return out

    def _table(self, off, count):
        """count floats at off (relative to 0x90), cut at the end of the file (an index past the cut is
        reported when used)."""
        start = self.r + off
        count = min(max(0, count), max(0, (len(self.rd.d) - start) // 4))
        return self.rd.floats(start, count) if count and start >= 0 else []

    def value(self, i):
        if i >= len(self.values):
            raise FormatError(f"value index {i} >= {self.n_values} (or past the file)")
        return self.values[i]

    def tangent(self, i):
        if i >= len(self.tangents):
            raise FormatError(f"tangent index {i} >= {self.n_tangents} (or past the file)")
        return self.tangents[i]

    # The game's routine (note, "Curve evaluation").
    def bracket(self, time):
        kt = self.kt
        n = len(kt)
        if time >= kt[n - 1]:
            return n - 1, n
        if time <= kt[0]:
            return -1, 0
        lo, hi = 0, n - 1  # kt[lo] < time < kt[hi]
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if kt[mid] == time:
                return mid, mid
            if kt[mid] < time:
                lo = mid
            else:
                hi = mid
        return lo, hi

    def eval_curve(self, c, time, lo, hi):
        keys, kt = c.keys, self.kt
        F, L = keys[0], keys[-1]
        fi, li = F.idx, L.idx
        if not (fi < hi):  # pre region: time at or before F
            mode = c.pre
            if mode == 0:
                return self.value(F.vi)
            if mode == 1:
                return self.value(F.vi) - (kt[fi] - time) * self.tangent(F.ini)
            if mode == 3:
                return 0.0
            period = kt[li] - kt[fi]
            if not (period > 0):  # project decision: P = 0 behaves as mode 0
                return self.value(F.vi)
            if time < kt[fi]:
                time += math.ceil((kt[fi] - time) / period) * period
                while time < kt[fi]:
                    time += period
                while time - period >= kt[fi]:
                    time -= period
            lo, hi = self.bracket(time)
            return self.inside(c, time, lo, hi)
        if not (lo < li):  # post region: time at or after L
            mode = c.post
            if mode == 0:
                return self.value(L.vi)
            if mode == 1:
                return self.value(L.vi) + (time - kt[li]) * self.tangent(L.outi)
            if mode == 3:
                return 0.0
            period = kt[li] - kt[fi]
            if not (period > 0):
                return self.value(L.vi)
            if time > kt[li]:
                time -= math.ceil((time - kt[li]) / period) * period
                while time > kt[li]:
                    time -= period
                while time + period <= kt[li]:
                    time += period
            lo, hi = self.bracket(time)
            return self.inside(c, time, lo, hi)
        return self.inside(c, time, lo, hi)

    def inside(self, c, time, lo, hi):
        keys, kt = c.keys, self.kt
        if lo == hi:  # exact hit on key time kt[lo]: a key at that index returns its value
            a, b = 0, len(keys) - 1
            while a <= b:
                m = (a + b) // 2
                if keys[m].idx == lo:
                    return self.value(keys[m].vi)
                if keys[m].idx < lo:
                    a = m + 1
                else:
                    b = m - 1
        # A = the last key whose key-time index is below hi; B = the next key.
        a, b = 0, len(keys) - 1
        while a < b:
            m = (a + b + 1) // 2
            if keys[m].idx < hi:
                a = m
            else:
                b = m - 1
        if a + 1 >= len(keys):  # cannot happen for a well-formed table; hold the value
            return self.value(keys[a].vi)
        A, B = keys[a], keys[a + 1]
        tA, tB = kt[A.idx], kt[B.idx]
        vA = self.value(A.vi)
        if time == tA:  # a key whose time equals the sample time returns its value (after a mode-2 shift
            return vA   # onto the table's first entry the bracket is (-1, 0), not an exact hit)
        if time == tB:
            return self.value(B.vi)
        if A.type == 0:
            return vA
        if A.type == 3:
            return 0.0
        D = tB - tA
        if D == 0:
            return vA
        vB = self.value(B.vi)
        s = (time - tA) / D
        if A.type == 1:
            return vA + (vB - vA) * s
        m0, m1 = self.tangent(A.outi), self.tangent(B.ini)
        s2, s3 = s * s, s * s * s
        h00 = 2 * s3 - 3 * s2 + 1
        h01 = 3 * s2 - 2 * s3
        h10 = s3 - 2 * s2 + s
        h11 = s3 - s2
        return h00 * vA + h01 * vB + D * (h10 * m0 + h11 * m1)

    def curve_at(self, c, time):
        lo, hi = self.bracket(time)
        return self.eval_curve(c, time, lo, hi)

    def used_key_times(self):
        return sorted({self.kt[k.idx] for c in self.fwd + self.inv for k in c.keys})

    # -------- raw
    def _parse_raw(self):
        rd, r = self.rd, self.r
        if self.msize < 0x90 + 0x10 + 0x50:
            raise FormatError("raw motion shorter than its header")
        h = r + 0x10
        self.bone_count = rd.s32(h)
        self.frame_count = rd.s32(h + 0x10)
        self.total_frame_count = rd.s32(h + 0x14)
        self.anim_matrix_off = rd.u32(h + 0x18)
        self.pos_matrix_off = rd.u32(h + 0x1C)
        self.frame_start, self.frame_end, self.fps, self.frame_return = rd.floats(h + 0x40, 4)
        if self.bone_count < 0 or self.total_frame_count < 1:
            raise FormatError(f"raw: BoneCount {self.bone_count}, TotalFrameCount {self.total_frame_count}")
        end = r + self.anim_matrix_off + 64 * self.total_frame_count * self.bone_count
        if end > len(rd.d):
            raise FormatError("raw matrices run past the file")

    def matrix(self, frame, bone):
        return self.rd.floats(self.r + self.anim_matrix_off + 64 * (frame * self.bone_count + bone), 16)

    def raw_frame(self, key_time):
        f = math.floor(key_time * self.fps / 60.0)
        return min(max(f, 0), self.total_frame_count - 1)

    # -------- pose
    def pose_arrays(self, key_time):
        """(vals, srcs, mats) at key_time (1/60 s units): per node 9 channel values (None = bind pose),
        9 source strings, and for raw motions the 16 stored floats (mats is None otherwise)."""
        if self.kind == "raw":
            frame = self.raw_frame(key_time)
            vals, mats = [], []
            for b in range(self.bone_count):
                M = self.matrix(frame, b)
                S, R, T = decompose(M)
                vals.append(S + R + T)
                mats.append(M)
            return vals, [("matrix",) * 9] * self.bone_count, mats
        nb, nt = self.bone_count, self.total_bone_count
        if not hasattr(self, "_base"):
            vals = [[None] * 9 for _ in range(nb)] + [list(rec) for rec in self.helpers]
            srcs = [["bind_pose"] * 9 for _ in range(nb)] + [["helper_record"] * 9 for _ in range(nt - nb)]
            for bone, ch, v in self.initial_pose:  # table order, later wins
                if bone < nb and ch <= 8:
                    vals[bone][ch] = v
                    srcs[bone][ch] = "initial_pose"
            applied = [(c.joint, c) for c in self.fwd if c.joint < nb and c.channel <= 8]
            applied += [(nb + c.joint, c) for c in self.inv if c.joint < nt - nb and c.channel <= 8]
            for j, c in applied:
                srcs[j][c.channel] = "curve"
            self._base = (vals, [tuple(x) for x in srcs], applied)
        base_vals, srcs, applied = self._base
        vals = [list(v) for v in base_vals]
        if applied:
            lo, hi = self.bracket(key_time)
            for j, c in applied:  # forward curves, then inverse curves, each in table order
                vals[j][c.channel] = self.eval_curve(c, key_time, lo, hi)
        return vals, srcs, None

    def node_kind(self, j):
        return "bone" if j < self.bone_count else "ik_helper"

    def pose(self, key_time):
        """List of node dicts (as the tool's JSON should be) at key_time (1/60 s units)."""
        vals, srcs, mats = self.pose_arrays(key_time)
        nodes = []
        for j, (v, s) in enumerate(zip(vals, srcs)):
            node = {"node": j, "kind": self.node_kind(j), "S": v[0:3], "R": v[3:6], "T": v[6:9],
                    "from_S": list(s[0:3]), "from_R": list(s[3:6]), "from_T": list(s[6:9])}
            if mats is not None:
                node["M"] = mats[j]
            nodes.append(node)
        return nodes


def decompose(M):
    """Raw matrix (16 stored floats, columns at 4k..4k+2) -> S, R (Euler XYZ radians, R = Rz Ry Rx), T."""
    T = [M[12], M[13], M[14]]
    cols = [[M[0], M[1], M[2]], [M[4], M[5], M[6]], [M[8], M[9], M[10]]]
    S = [math.sqrt(sum(x * x for x in c)) for c in cols]
    c0, c1, c2 = cols
    det = (c0[0] * (c1[1] * c2[2] - c1[2] * c2[1])
           - c1[0] * (c0[1] * c2[2] - c0[2] * c2[1])
           + c2[0] * (c0[1] * c1[2] - c0[2] * c1[1]))
    if det < 0:
        S[0] = -S[0]
        cols[0] = [-x for x in cols[0]]
    n = [[x / S[k] for x in cols[k]] if S[k] != 0 else list(cols[k]) for k in range(3)]
    c0, c1, c2 = n
    y = math.asin(max(-1.0, min(1.0, -c0[2])))
    if abs(math.cos(y)) < 1e-6:
        x = 0.0
        z = math.atan2(-c1[0], c1[1])
    else:
        x = math.atan2(c1[2], c2[2])
        z = math.atan2(c0[1], c0[0])
    return S, [x, y, z], T


# --------------------------------------------------------------------------------------- corpus

def corpus_files(folder):
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            yield os.path.join(root, name)


def load_motions(folder, errors):
    """[(path, format, slot, Motion)] for every motion under folder; parse failures go to errors."""
    out = []
    files = 0
    for path in corpus_files(folder):
        try:
            data = open(path, "rb").read()
            fmt, found, _ = find_motions(path, data)
        except (FormatError, OSError) as e:
            errors.append(f"{path}: {e}")
            continue
        if fmt is None:
            continue
        files += 1
        for slot, off, size in found:
            try:
                out.append((path, fmt, slot, Motion(data, off, size)))
            except FormatError as e:
                errors.append(f"{path} slot {slot}: {e}")
    return files, out


def where(path, slot, folder):
    return os.path.relpath(path, folder) + (f" slot {slot}" if slot is not None else "")


# ------------------------------------------------------------------------------------- selftest

def selftest(folder):
    if not os.path.isdir(folder):
        print(f"skipped: {folder} not found")
        return 77
    errors = []
    files, motions = load_motions(folder, errors)
    failures = list(errors)

    # (a) the note's test value
    a_done = False
    for path, fmt, slot, m in motions:
        if os.path.basename(path) == "interpolated.motion":
            node0 = m.pose(16.0)[0]
            got = node0["R"][0]
            ok = got is not None and abs(got - 0.428581) <= 1e-6 and node0["from_R"][0] == "curve"
            print(f"(a) interpolated.motion bone 0 rotate.x at key time 16: {got!r} "
                  f"({'ok' if ok else 'WRONG'}, expected 0.428581)")
            if not ok:
                failures.append(f"(a) bone 0 rotate.x at 16 = {got!r}, expected 0.428581")
            a_done = True
    if not a_done:
        failures.append("(a) interpolated.motion not found under the folder")

    # (b) every key of every curve evaluated at its own key time returns its value
    n_interp = n_raw = n_motions = refs = refs_ok = 0
    distinct = set()
    exception_refs = exception_bad = 0
    bad = []
    for path, fmt, slot, m in motions:
        n_motions += 1
        distinct.add((path, m.moff))
        if m.kind == "raw":
            n_raw += 1
            continue
        n_interp += 1
        is_exception = os.path.basename(path) == "test-0000.anb"
        for table, curves in (("forward", m.fwd), ("inverse", m.inv)):
            for ci, c in enumerate(curves):
                for ki, k in enumerate(c.keys):
                    t = m.kt[k.idx]
                    want = m.value(k.vi)
                    got = m.curve_at(c, t)
                    good = got == want or (got != got and want != want)
                    if is_exception:
                        exception_refs += 1
                        exception_bad += not good
                        continue
                    refs += 1
                    refs_ok += good
                    if not good:
                        bad.append(f"{where(path, slot, folder)} {table} curve {ci} (joint {c.joint} "
                                   f"{CHANNEL_NAMES[c.channel] if c.channel <= 8 else c.channel}) key {ki} "
                                   f"at key time {t!r}: {got!r}, key value {want!r}")
    print(f"(b) {files} files, {n_motions} motions ({n_interp} interpolated, {n_raw} raw; "
          f"{len(distinct)} distinct motion data), {refs + exception_refs} key references in all")
    print(f"    outside test-0000.anb: {refs_ok} of {refs} key references return their value"
          + (f"; {len(bad)} do not" if bad else ""))
    print(f"    test-0000.anb (documented exception, two keys on one key time): "
          f"{exception_refs - exception_bad} of {exception_refs} key references return their value")
    for b in bad[:10]:
        print("    " + b)
    failures.extend(bad)
    for e in errors[:10]:
        print("parse error: " + e)
    if failures:
        print(f"selftest FAILED: {len(failures)} problem(s)")
        return 1
    print("selftest passed")
    return 0


# ---------------------------------------------------------------------------------------- check

def spread(seq, count):
    """Up to `count` elements of seq, evenly spread, always the first and the last."""
    n = len(seq)
    if n <= count:
        return list(seq)
    picks = sorted({round(i * (n - 1) / (count - 1)) for i in range(count)})
    return [seq[i] for i in picks]


def key_times_for(m):
    """Key times (1/60 s) to ask for: at most 12."""
    if m.kind == "raw":
        frames = spread(list(range(m.total_frame_count)), 4)
        lfr = []
        for f in frames:
            lfr.append(float(f))
            if f + 1 < m.total_frame_count:
                lfr.append(f + 0.5)
        return [x * 60.0 / m.fps for x in lfr][:12]
    used = m.used_key_times()
    if not used:
        return [0.0, 10.0]
    times = spread(used, 6)
    pairs = spread(list(range(len(used) - 1)), 4)
    times += [(used[i] + used[i + 1]) / 2 for i in pairs]
    times += [used[0] - 10.0, used[-1] + 10.0]
    out = []
    for t in times:
        if t not in out:
            out.append(t)
    return out[:12]


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(b, (int, float)):
        return False
    if a != a or b != b:
        return a != a and b != b
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= max(1e-6, 1e-5 * max(abs(a), abs(b)))


def check(binary, folder):
    if not os.path.isdir(folder):
        print(f"skipped: {folder} not found")
        return 77
    if not os.path.exists(binary):
        print(f"usage: animdex binary {binary} not found", file=sys.stderr)
        return 2
    errors = []
    files, motions = load_motions(folder, errors)
    disagreements = ["parse: " + e for e in errors]
    poses = values = strings = 0
    motions_compared = 0

    def differ(msg):
        disagreements.append(msg)

    for path, fmt, slot, m in motions:
        tag = where(path, slot, folder)
        seconds = [kt / 60.0 for kt in key_times_for(m)]
        cmd = [binary, "pose", path]
        if slot is not None:
            cmd += ["--slot", slot]
        for s in seconds:
            cmd += ["--time", repr(s)]
        cmd += ["--format", "jsonl"]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            differ(f"{tag}: animdex timed out")
            continue
        if run.returncode != 0:
            differ(f"{tag}: animdex exit {run.returncode}: {run.stderr.strip()[:200]}")
            continue
        lines = [ln for ln in run.stdout.splitlines() if ln.strip()]
        if len(lines) != len(seconds):
            differ(f"{tag}: {len(lines)} JSON lines for {len(seconds)} times")
            continue
        motions_compared += 1
        for s, line in zip(seconds, lines):
            key_time = f32(s * 60.0)
            at = f"{tag} key time {key_time!r}"
            try:
                got = json.loads(line)
            except ValueError as e:
                differ(f"{at}: bad JSON: {e}")
                continue
            poses += 1
            want_pose = {"file": path, "format": fmt, "slot": slot, "kind": m.kind}
            for k, v in want_pose.items():
                strings += 1
                if got.get(k) != v:
                    differ(f"{at}: {k} {got.get(k)!r}, expected {v!r}")
            for k, v in (("key_time", key_time), ("time", key_time / 60.0),
                         ("frame", key_time * m.fps / 60.0), ("fps", m.fps)):
                values += 1
                if not close(v, got.get(k)):
                    differ(f"{at}: {k} {got.get(k)!r}, expected {v!r}")
            try:
                vals, srcs, mats = m.pose_arrays(key_time)
            except FormatError as e:
                differ(f"{at}: the reference cannot evaluate: {e}")
                continue
            got_nodes = got.get("nodes")
            if not isinstance(got_nodes, list) or len(got_nodes) != len(vals):
                differ(f"{at}: {len(got_nodes) if isinstance(got_nodes, list) else got_nodes!r} nodes, "
                       f"expected {len(vals)}")
                continue
            if m.kind == "raw" or not hasattr(m, "_expected_static"):
                m._expected_static = [(j, m.node_kind(j), list(sr[0:3]), list(sr[3:6]), list(sr[6:9]))
                                      for j, sr in enumerate(srcs)]
            expected_static = m._expected_static
            strings += 10 * len(vals)  # kind and the 9 from_* strings
            for j, g in enumerate(got_nodes):
                if not isinstance(g, dict):
                    differ(f"{at} node {j}: not an object")
                    continue
                static = expected_static[j]
                if (g.get("node"), g.get("kind"), g.get("from_S"), g.get("from_R"), g.get("from_T")) != static:
                    for name, w in zip(("node", "kind", "from_S", "from_R", "from_T"), static):
                        if g.get(name) != w:
                            differ(f"{at} node {j} {name}: {g.get(name)!r}, expected {w!r}")
                v = vals[j]
                gS, gR, gT = g.get("S"), g.get("R"), g.get("T")
                values += 9
                if type(gS) is list and type(gR) is list and type(gT) is list \
                        and len(gS) == 3 and len(gR) == 3 and len(gT) == 3:
                    flat = gS + gR + gT
                    if flat != v:  # equal when exact, including nulls (float32 table values print exactly)
                        for i, (a, b) in enumerate(zip(v, flat)):
                            if a == b:
                                continue
                            if type(a) is float and type(b) in (float, int):
                                d = abs(a - b)
                                if d <= 1e-6 or d <= 1e-5 * max(abs(a), abs(b)):
                                    continue
                            if not close(a, b):
                                differ(f"{at} node {j} {'SRT'[i // 3]}[{i % 3}]: {b!r}, expected {a!r} "
                                       f"(from {static[2 + i // 3][i % 3]})")
                else:
                    for vk, gv, want in (("S", gS, v[0:3]), ("R", gR, v[3:6]), ("T", gT, v[6:9])):
                        if gv != want:
                            differ(f"{at} node {j} {vk}: {gv!r}, expected {want!r}")
                if mats is not None:
                    want, gv = mats[j], g.get("M")
                    values += 16
                    if type(gv) is not list or len(gv) != 16:
                        differ(f"{at} node {j} M: {gv!r}, expected {want!r}")
                    elif gv != want:
                        for i, (a, b) in enumerate(zip(want, gv)):
                            if a != b and not close(a, b):
                                differ(f"{at} node {j} M[{i}]: {b!r}, expected {a!r}")

    print(f"kh2 check: {files} files, {len(motions)} motions ({motions_compared} answered), {poses} poses, "
          f"{values} values and {strings} strings compared, {len(disagreements)} disagreements")
    for d in disagreements[:10]:
        print("  " + d)
    if disagreements:
        return 1
    if values == 0:
        print("nothing was compared")
        return 1
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "selftest":
        return selftest(argv[2])
    if len(argv) == 4 and argv[1] == "check":
        return check(argv[2], argv[3])
    print(__doc__.split("Usage:")[1].split("Exit 77")[0].rstrip(), file=sys.stderr)
    print("usage: kh2_reference_eval.py selftest CORPUS_FOLDER | check ANIMDEX_BINARY CORPUS_FOLDER",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
