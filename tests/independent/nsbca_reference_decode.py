#!/usr/bin/env python3
"""Independent check of `animdex pose` on NSBCA files.

A second decoder written from the format note alone (../shared/formats/nsbca.md: header, JNT0
dictionary, J.AC, node tags, track info, Rot3/Rot5 and the runtime indexing for integer frames),
separately from the C++ code. For every NSBCA file under a folder it evaluates every node of every
animation at several frames and compares T, R (3x3, DS row-major) and S with what
`animdex pose FILE --anim NAME --frame F --format json` prints. It also checks that every decoded
rotation is orthonormal with determinant +1 to the note's tolerance (1e-3 on real data).

Usage: nsbca_reference_decode.py ANIMDEX_BINARY FOLDER      (exit 77 = skipped: no folder)
"""
import json
import os
import struct
import subprocess
import sys


def u16(d, o): return struct.unpack_from("<H", d, o)[0]
def s16(d, o): return struct.unpack_from("<h", d, o)[0]
def u32(d, o): return struct.unpack_from("<I", d, o)[0]
def s32(d, o): return struct.unpack_from("<i", d, o)[0]


def rot3(d, at):
    info, a, b = u16(d, at), s16(d, at + 2) / 4096.0, s16(d, at + 4) / 4096.0
    p = info & 15
    one = -1.0 if info & 16 else 1.0
    c = -b if info & 32 else b
    dd = -a if info & 64 else a
    m = [[0.0] * 3 for _ in range(3)]
    m[p // 3][p % 3] = one
    cells = [(r, k) for r in range(3) for k in range(3) if r != p // 3 and k != p % 3]
    for (r, k), v in zip(cells, [a, b, c, dd]):
        m[r][k] = v
    return m


def rot5(d, at):
    w = [u16(d, at + 2 * i) for i in range(5)]
    def top13(x):  # arithmetic >> 3 of the value as s16
        x = x - 65536 if x >= 32768 else x
        return x >> 3
    e = ((w[4] & 7) << 12) | ((w[0] & 7) << 9) | ((w[1] & 7) << 6) | ((w[2] & 7) << 3) | (w[3] & 7)
    e &= 0x1FFF
    if e & 0x1000:
        e -= 0x2000
    r0 = [top13(w[0]) / 4096.0, top13(w[1]) / 4096.0, top13(w[2]) / 4096.0]
    r1 = [top13(w[3]) / 4096.0, top13(w[4]) / 4096.0, e / 4096.0]
    r2 = [r0[1] * r1[2] - r0[2] * r1[1], r0[2] * r1[0] - r0[0] * r1[2], r0[0] * r1[1] - r0[1] * r1[0]]
    return [r0, r1, r2]


def samples(num_frame, step):
    return -(-num_frame // step) + (num_frame - 1) % step


def index_blend(step, last, f):
    """(i, j, weight of j) read at integer frame f, following the note's runtime indexing."""
    if step == 1:
        return f, f, 0.0
    k = f // step
    if f % step == 0:
        return k, k, 0.0
    if f > last:
        i = last // step + (1 if step == 2 else f % step)
        return i, i, 0.0
    return k, k + 1, (f % step) / step


def parse(path):
    d = open(path, "rb").read()
    assert d[:4] == b"BCA0"
    jnt = u32(d, 0x10)
    assert d[jnt:jnt + 4] == b"JNT0"
    dic = jnt + 8
    n = d[dic + 1]
    ofs_entry = u16(d, dic + 6)
    names_at = dic + ofs_entry + u16(d, dic + ofs_entry + 2)
    block_end = jnt + u32(d, jnt + 4)
    starts = [jnt + u32(d, dic + ofs_entry + 4 + 4 * i) for i in range(n)]
    animations = []
    for e, j in enumerate(starts):
        name = d[names_at + 16 * e:names_at + 16 * e + 16].split(b"\0")[0].decode("ascii")
        num_frame, num_node = u16(d, j + 4), u16(d, j + 6)
        ofs3, ofs5 = u32(d, j + 12), u32(d, j + 16)
        later = sorted(s for s in starts if s > j)
        extent = (later[0] if later else block_end) - j
        nodes = []
        array_offsets = []
        for node in range(num_node):
            p = j + u16(d, j + 0x14 + 2 * node)
            tag = u32(d, p)
            p += 4
            rec = {"tag": tag, "T": None, "R": None, "S": None}
            if tag & 1:
                rec.update(T=("identity",), R=("identity",), S=("identity",))
                nodes.append(rec)
                continue
            # translation
            if tag & 2:
                rec["T"] = ("identity",)
            elif tag & 4:
                rec["T"] = ("base",)
            else:
                axes = []
                for ax in range(3):
                    if tag & (8 << ax):
                        axes.append(("const", s32(d, p) / 4096.0)); p += 4
                    else:
                        info, off = u32(d, p), u32(d, p + 4); p += 8
                        axes.append(("anim", info, off)); array_offsets.append(off)
                rec["T"] = ("axes", axes)
            if tag & 0x40:
                rec["R"] = ("identity",)
            elif tag & 0x80:
                rec["R"] = ("base",)
            elif tag & 0x100:
                rec["R"] = ("const", u32(d, p) & 0xFFFF); p += 4
            else:
                info, off = u32(d, p), u32(d, p + 4); p += 8
                rec["R"] = ("anim", info, off); array_offsets.append(off)
            if tag & 0x200:
                rec["S"] = ("identity",)
            elif tag & 0x400:
                rec["S"] = ("base",)
            else:
                axes = []
                for ax in range(3):
                    if tag & (0x800 << ax):
                        axes.append(("const", s32(d, p) / 4096.0)); p += 8
                    else:
                        info, off = u32(d, p), u32(d, p + 4); p += 8
                        axes.append(("anim", info, off)); array_offsets.append(off)
                rec["S"] = ("axes", axes)
            nodes.append(rec)
        rot5_end = min([o for o in array_offsets if o >= ofs5] + [extent])
        animations.append(dict(data=d, j=j, name=name, frames=num_frame, nodes=nodes, ofs3=ofs3, ofs5=ofs5,
                               n3=(ofs5 - ofs3) // 6, n5=max(0, (rot5_end - ofs5) // 10)))
    return animations


def rotation(anim, ridx):
    d, j = anim["data"], anim["j"]
    if ridx & 0x8000:
        return rot3(d, j + anim["ofs3"] + 6 * (ridx & 0x7FFF))
    return rot5(d, j + anim["ofs5"] + 10 * ridx)


def axis_value(anim, axis, f, scale):
    d, j = anim["data"], anim["j"]
    if axis[0] == "const":
        return axis[1]
    info, off = axis[1], axis[2]
    step = 1 << (info >> 30)
    fx16 = (info >> 29) & 1
    last = (info >> 16) & 0x1FFF
    i, k, w = index_blend(step, last, f)
    def at(n):
        if scale:
            return (s16(d, j + off + 4 * n) if fx16 else s32(d, j + off + 8 * n)) / 4096.0
        return (s16(d, j + off + 2 * n) if fx16 else s32(d, j + off + 4 * n)) / 4096.0
    return at(i) * (1 - w) + at(k) * w


def node_pose(anim, rec, f):
    out = {}
    for key, scale in (("T", False), ("S", True)):
        ch = rec[key]
        if ch[0] == "base":
            out[key] = None
        elif ch[0] == "identity":
            out[key] = [1.0, 1.0, 1.0] if scale else [0.0, 0.0, 0.0]
        else:
            out[key] = [axis_value(anim, a, f, scale) for a in ch[1]]
    r = rec["R"]
    if r[0] == "base":
        out["R"] = None
    elif r[0] == "identity":
        out["R"] = [1.0, 0, 0, 0, 1.0, 0, 0, 0, 1.0]
    elif r[0] == "const":
        out["R"] = sum(rotation(anim, r[1]), [])
    else:
        d, j = anim["data"], anim["j"]
        info, off = r[1], r[2]
        step = 1 << (info >> 30)
        i, k, w = index_blend(step, (info >> 16) & 0x1FFF, f)
        a = rotation(anim, u16(d, j + off + 2 * i))
        if w == 0:
            out["R"] = sum(a, [])
        else:
            b = rotation(anim, u16(d, j + off + 2 * k))
            rows = []
            for row in range(2):
                v = [a[row][c] * (1 - w) + b[row][c] * w for c in range(3)]
                n = sum(x * x for x in v) ** 0.5
                rows.append([x / n for x in v])
            r0, r1 = rows
            rows.append([r0[1] * r1[2] - r0[2] * r1[1], r0[2] * r1[0] - r0[0] * r1[2], r0[0] * r1[1] - r0[1] * r1[0]])
            out["R"] = sum(rows, [])
    return out


def check_orthonormal(m, where):
    rows = [m[0:3], m[3:6], m[6:9]]
    for a in range(3):
        for b in range(3):
            dot = sum(rows[a][c] * rows[b][c] for c in range(3))
            if abs(dot - (1.0 if a == b else 0.0)) > 2e-3:
                raise SystemExit(f"{where}: rows {a},{b} dot {dot}: not orthonormal")
    det = (rows[0][0] * (rows[1][1] * rows[2][2] - rows[1][2] * rows[2][1])
           - rows[0][1] * (rows[1][0] * rows[2][2] - rows[1][2] * rows[2][0])
           + rows[0][2] * (rows[1][0] * rows[2][1] - rows[1][1] * rows[2][0]))
    if abs(det - 1.0) > 2e-3:
        raise SystemExit(f"{where}: determinant {det}")


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    if not os.path.isdir(folder):
        print(f"skipped: {folder} not found")
        return 77
    compared = rotations = files = 0
    worst = 0.0
    for root, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            if not name.lower().endswith(".nsbca"):
                continue
            path = os.path.join(root, name)
            files += 1
            for anim in parse(path):
                n = anim["frames"]
                for f in sorted({0, 1, n // 3, n // 2, n - 2, n - 1} & set(range(n))):
                    got = json.loads(subprocess.run(
                        [binary, "pose", path, "--anim", anim["name"], "--frame", str(f), "--format", "json"],
                        check=True, capture_output=True, text=True).stdout)
                    assert len(got["nodes"]) == len(anim["nodes"]), path
                    for rec, node in zip(anim["nodes"], got["nodes"]):
                        want = node_pose(anim, rec, f)
                        for key in ("T", "R", "S"):
                            if want[key] is None or node[key] is None:
                                if want[key] is not node[key] and want[key] != node[key]:
                                    raise SystemExit(f"{path} frame {f} node {node['node']} {key}: "
                                                     f"{node[key]} vs {want[key]}")
                                continue
                            for a, b in zip(want[key], node[key]):
                                worst = max(worst, abs(a - b) / max(1.0, abs(a)))
                                compared += 1
                            if key == "R":
                                check_orthonormal(want[key], f"{path} frame {f} node {node['node']}")
                                rotations += 1
    # animdex prints numbers at float32 precision (src/core/number_text.h): relative 6e-8 at most.
    if worst > 1e-7:
        raise SystemExit(f"largest relative difference {worst} exceeds 1e-7")
    print(f"{files} files: {compared} values compared, {rotations} rotations orthonormal, largest relative difference {worst:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
