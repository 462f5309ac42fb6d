#!/usr/bin/env python3
"""Independent check of animdex on Nitro models (BMD0) and the other NitroSystem animations.

A second decoder written from the format notes alone (../shared/formats/nitro-models-and-anims.md,
nsbca.md for the header/dictionary/Rot3 rules, containers.md through containers_reference.py for NARC
and LZ10/LZ11), separately from the C++ code. It decodes:
  BMD0  model names; per model: node names (dictionary order = node index), parent of each node from the
        SBC NODEDESC commands (root = parent == itself -> null), bind pose T, R (3x3 DS row-major), S;
        material names (and TEX0 texture/palette names, used only for a consistency note)
  BTA0  texture SRT per material (scale S/T, sin/cos + angle, trans S/T) at every integer frame
  BTP0  texture pattern per material (key in effect, texture/palette index and name)
  BMA0  material colours (diffuse, ambient, specular, emission RGB 0..31, alpha)
  BVA0  node visibility bits
  BCA0  only what the model join needs (names, numNode, tag node bytes; the full decode is
        nsbca_reference_decode.py's job)
with the step 1/2/4 rules (raw integers averaged with floor shifts, then converted) and the validation
rules of the note's section 8 (a member that breaks one is reported, the scan goes on).

Usage:
  nitro_reference_decode.py check ANIMDEX FOLDER [--float32]
      every member of every NARC under FOLDER: census, `animdex pose` for every animation at every frame
      and every model, `animdex index` + the nitro_links join and nsbca bone names.
      Exit 0 all agree, 1 disagreements, 77 FOLDER missing (skipped).
  nitro_reference_decode.py check-files ANIMDEX DIR [--float32]
      the same `animdex pose` comparison for loose files in DIR (e.g. the selftest's files).
  nitro_reference_decode.py selftest [--write DIR]
      synthetic BTA0/BMA0 (steps 2 and 4 with frames stored past LAST_INTERP), BTP0 (palette 255, several
      keys), BVA0 (3 nodes), BMD0 (pivot/full rotation, SBC tree) checked against hand-worked values;
      --write DIR also writes step2.nsbta, step4.nsbma, pal255.nsbtp, three.nsbva, tiny.nsbmd.
  nitro_reference_decode.py decode FILE_OR_NARC/MEMBER [--frame F] [--anim NAME]
      prints this decoder's own JSON (the shape `animdex pose --format json` uses); census for a NARC.

Numbers are compared with 1e-9 absolute tolerance (the values are exact fixed point). Two kinds of
difference are counted apart: a printed number equal to the expected value rounded to float32 (shortest
float32 text: how animdex prints fixed-point values) and one equal to the expected value printed with 9
significant digits (how animdex prints the BTA0 angle, which is not fixed point). Both are disagreements
by default; --float32 accepts them (exit 0 when nothing else differs).
Python 3 standard library only.
"""
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import containers_reference as cref  # noqa: E402  (NARC listing and LZ10/LZ11, written from the notes)

KINDS = {b"BMD0": "nsbmd", b"BCA0": "nsbca", b"BTA0": "nsbta", b"BTP0": "nsbtp", b"BMA0": "nsbma",
         b"BVA0": "nsbva"}
BLOCK = {b"BMD0": b"MDL0", b"BCA0": b"JNT0", b"BTA0": b"SRT0", b"BTP0": b"PAT0", b"BMA0": b"MAT0",
         b"BVA0": b"VIS0"}
ANM_HEAD = {b"BCA0": b"J\0AC", b"BTA0": b"M\0AT", b"BTP0": b"M\0PT", b"BMA0": b"M\0AM", b"BVA0": b"V\0AV"}
NEW_KINDS = ("nsbmd", "nsbta", "nsbtp", "nsbma", "nsbva")
TOL = 1e-9


class DecodeError(Exception):
    def __init__(self, where, offset, message):
        super().__init__(f"{where}: offset 0x{offset:X}: {message}")


def u8(d, o): return d[o]
def u16(d, o): return struct.unpack_from("<H", d, o)[0]
def s16(d, o): return struct.unpack_from("<h", d, o)[0]
def u32(d, o): return struct.unpack_from("<I", d, o)[0]
def s32(d, o): return struct.unpack_from("<i", d, o)[0]


def sx16(v):
    v &= 0xFFFF
    return v - 0x10000 if v & 0x8000 else v


def sx32(v):
    v &= 0xFFFFFFFF
    return v - 0x100000000 if v & 0x80000000 else v


def name16(raw):
    raw = raw.split(b"\0")[0]
    try:
        return raw.decode("ascii")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


class Ctx:
    """Bounds-checked reads within one member; warnings collected per member."""

    def __init__(self, data, where):
        self.d, self.where, self.warnings = data, where, []

    def need(self, off, n, end, what):
        if off < 0 or n < 0 or off + n > end:
            raise DecodeError(self.where, off, f"{what}: 0x{off:X}+0x{n:X} runs past 0x{end:X}")

    def fail(self, off, message):
        raise DecodeError(self.where, off, message)

    def warn(self, off, message):
        self.warnings.append(f"{self.where}: offset 0x{off:X}: {message}")


# ------------------------------------------------------------------------------------------------------
# Header, blocks, dictionaries

def parse_header(c):
    d = c.d
    if len(d) < 16:
        c.fail(0, "file shorter than the 16-byte header")
    magic = d[:4]
    if magic not in KINDS:
        c.fail(0, f"unknown magic {magic!r}")
    if d[4:6] != b"\xFF\xFE":
        c.fail(4, f"byte-order mark {d[4:6].hex()} is not FF FE")
    size = u32(d, 8)
    if size > len(d):
        c.fail(8, f"file size {size} is more than the {len(d)} bytes present")
    if u16(d, 12) != 16:
        c.fail(12, f"header size {u16(d, 12)} (expected 16)")
    nblocks = u16(d, 14)
    if nblocks < 1:
        c.fail(14, "no blocks")
    c.need(16, 4 * nblocks, size, "block offset table")
    blocks = []
    for i in range(nblocks):
        bo = u32(d, 16 + 4 * i)
        c.need(bo, 8, size, f"block {i} header")
        bsize = u32(d, bo + 4)
        c.need(bo, bsize, size, f"block {i} ({d[bo:bo + 4]!r})")
        if bsize < 8:
            c.fail(bo + 4, f"block size {bsize} < 8")
        blocks.append((d[bo:bo + 4], bo, bo + bsize))
    if blocks[0][0] != BLOCK[magic]:
        c.fail(u32(d, 16), f"first block is {blocks[0][0]!r}, expected {BLOCK[magic]!r}")
    if u16(d, 6) != (2 if magic == b"BMD0" else 1):
        c.warn(6, f"version {u16(d, 6)}")
    return magic, blocks


def parse_dict(c, at, end, unit, min_n, what):
    """-> list of (name, absolute offset of the entry's data). Structure per nsbca.md."""
    d = c.d
    c.need(at, 8, end, what + " dictionary header")
    if d[at] != 0:
        c.fail(at, f"{what} dictionary revision {d[at]} (expected 0)")
    n = d[at + 1]
    if n < min_n:
        c.fail(at + 1, f"{what} dictionary has {n} entries (need >= {min_n})")
    size = u16(d, at + 2)
    ofs_entry = u16(d, at + 6)
    if ofs_entry != 8 + 4 * (n + 1):
        c.fail(at + 6, f"{what} dictionary entry offset {ofs_entry} != 8 + 4 x {n + 1}")
    c.need(at, size, end, what + " dictionary")
    c.need(at + ofs_entry, 4, end, what + " dictionary entry header")
    su = u16(d, at + ofs_entry)
    if su != unit:
        c.fail(at + ofs_entry, f"{what} dictionary entry size {su} (expected {unit})")
    ofs_name = u16(d, at + ofs_entry + 2)
    if ofs_name != 4 + unit * n:
        c.fail(at + ofs_entry + 2, f"{what} dictionary name offset {ofs_name} != 4 + {unit} x {n}")
    if size != ofs_entry + 4 + unit * n + 16 * n:
        c.fail(at + 2, f"{what} dictionary size {size} != {ofs_entry} + 4 + {unit} x {n} + 16 x {n}")
    out = []
    for i in range(n):
        nm = at + ofs_entry + ofs_name + 16 * i
        out.append((name16(d[nm:nm + 16]), at + ofs_entry + 4 + unit * i))
    return out


def animation_set(c, blocks, magic):
    """Animation set dictionary of the first block: [(name, absolute start of the animation)]."""
    _, bo, be = blocks[0]
    entries = parse_dict(c, bo + 8, be, 4, 1, "animation set")
    out = []
    for name, e in entries:
        a = bo + u32(c.d, e)
        c.need(a, 8, be, f"animation '{name}'")
        if c.d[a:a + 4] != ANM_HEAD[magic]:
            c.fail(a, f"animation '{name}' header {c.d[a:a + 4]!r}, expected {ANM_HEAD[magic]!r}")
        nf = u16(c.d, a + 4)
        if nf < 1:
            c.fail(a + 4, f"animation '{name}' has numFrame 0")
        out.append((name, a, nf))
    return bo, be, out


# ------------------------------------------------------------------------------------------------------
# Steps (section 3)

def sample_count(step, last, num_frame):
    if step == 1:
        return num_frame
    return last // step + 1 + max(0, num_frame - 1 - last)


def step_sample(get, step, last, f, count, blend):
    """Value at integer frame f from raw samples get(i); blend(a, b, kind) with kind 'half', 'q1', 'q3'."""
    def at(i):
        if not 0 <= i < count:
            raise IndexError(i)
        return get(i)
    if step == 1:
        return at(f)
    k = f >> (1 if step == 2 else 2)
    if step == 2:
        if f % 2 == 0:
            return at(f // 2)
        if f > last:
            return at(last // 2 + 1)
        return blend(at(k), at(k + 1), "half")
    if f % 4 == 0:
        return at(f // 4)
    if f > last:
        return at(last // 4 + f % 4)
    if f % 4 == 2:
        return blend(at(k), at(k + 1), "half")
    if f % 4 == 1:
        return blend(at(k), at(k + 1), "q1")
    return blend(at(k), at(k + 1), "q3")


def blend_int(a, b, kind):
    if kind == "half":
        return (a + b) >> 1
    if kind == "q1":
        return (3 * a + b) >> 2
    return (3 * b + a) >> 2


def blend_tuple(a, b, kind):
    return tuple(blend_int(x, y, kind) for x, y in zip(a, b))


def step_code(c, info, off):
    code = info >> 30
    if code == 3:
        c.fail(off, f"step code 3 in info word 0x{info:08X}")
    return 1 << code


# ------------------------------------------------------------------------------------------------------
# Rotation (Rot3 pivot form of nsbca.md, sign/pivot bits from the node flag)

def pivot_matrix(c, pivot, neg, c_neg, d_neg, a, b, off):
    if pivot > 8:
        c.fail(off, f"pivot index {pivot} > 8")
    m = [0] * 9
    m[pivot] = -4096 if neg else 4096
    r, k = divmod(pivot, 3)
    cells = [i for i in range(9) if i // 3 != r and i % 3 != k]
    for i, v in zip(cells, (a, b, -b if c_neg else b, -a if d_neg else a)):
        m[i] = v
    return m


# ------------------------------------------------------------------------------------------------------
# BMD0

SBC_LEN = {0x00: 1, 0x01: 1, 0x02: 3, 0x03: 2, 0x04: 2, 0x24: 2, 0x44: 2, 0x05: 2, 0x06: 4, 0x26: 5,
           0x46: 5, 0x66: 6, 0x07: 2, 0x08: 2, 0x27: 3, 0x28: 3, 0x47: 3, 0x48: 3, 0x67: 4, 0x68: 4,
           0x0A: 9, 0x0B: 1, 0x2B: 1, 0x0C: 3, 0x0D: 3}  # 0x09 NODEMIX: 3 + 3n


def parse_tex0(c, bo, be):
    d = c.d
    c.need(bo, 0x38, be, "TEX0 header")
    tex = [n for n, _ in parse_dict(c, bo + u16(d, bo + 0x0E), be, 8, 0, "TEX0 texture")]
    pal = [n for n, _ in parse_dict(c, bo + u16(d, bo + 0x34), be, 4, 0, "TEX0 palette")]
    return tex, pal


def parse_bmd0(c, blocks):
    d = c.d
    _, bo, be = blocks[0]
    models = []
    for mname, e in parse_dict(c, bo + 8, be, 4, 1, "model set"):
        m = bo + u32(d, e)
        c.need(m, 0x40, be, f"model '{mname}' header")
        msize = u32(d, m)
        c.need(m, msize, be, f"model '{mname}'")
        mend = m + msize
        ofs_sbc, ofs_mat, ofs_shp, ofs_evp = (u32(d, m + 4 + 4 * i) for i in range(4))
        num_node, num_mat, num_shp = d[m + 0x17], d[m + 0x18], d[m + 0x19]
        nodes_d = parse_dict(c, m + 0x40, mend, 4, 0, f"model '{mname}' node")
        if len(nodes_d) != num_node:
            c.fail(m + 0x17, f"model '{mname}': numNode {num_node} but the node dictionary has {len(nodes_d)}")
        nodes = []
        for i, (nname, ne) in enumerate(nodes_d):
            r = m + 0x40 + u32(d, ne)
            c.need(r, 4, mend, f"node {i} record")
            flag = u16(d, r)
            p = r + 4
            if flag & 1:
                t = [0, 0, 0]
            else:
                c.need(p, 12, mend, f"node {i} translation")
                t = [s32(d, p + 4 * k) for k in range(3)]
                p += 12
            if flag & 2:
                rot = [4096, 0, 0, 0, 4096, 0, 0, 0, 4096]
            elif flag & 8:
                c.need(p, 4, mend, f"node {i} pivot rotation")
                rot = pivot_matrix(c, (flag >> 4) & 15, flag & 0x100, flag & 0x200, flag & 0x400,
                                   s16(d, p), s16(d, p + 2), r)
                p += 4
            else:
                c.need(p, 16, mend, f"node {i} rotation")
                rot = [s16(d, r + 2)] + [s16(d, p + 2 * k) for k in range(8)]
                p += 16
            if flag & 4:
                s = [4096, 4096, 4096]
            else:
                c.need(p, 24, mend, f"node {i} scale")
                s = [s32(d, p + 4 * k) for k in range(3)]
                p += 24
            nodes.append(dict(name=nname, flag=flag, T=t, R=rot, S=s, parent=None))
        # materials
        mb = m + ofs_mat
        c.need(mb, 4, mend, "material block")
        mats_d = parse_dict(c, mb + 4, mend, 4, 0, f"model '{mname}' material")
        materials = [n for n, _ in mats_d]
        if len(materials) != num_mat:
            c.warn(m + 0x18, f"model '{mname}': numMat {num_mat}, material dictionary {len(materials)}")
        for which, ofs in (("texture", u16(d, mb)), ("palette", u16(d, mb + 2))):
            for pname, pe in parse_dict(c, mb + ofs, mend, 4, 0, f"{which}->material"):
                lo, cnt = u16(d, pe), d[pe + 2]
                c.need(mb + lo, cnt, mend, f"{which} '{pname}' material list")
                for k in range(cnt):
                    if d[mb + lo + k] >= len(materials):
                        c.fail(mb + lo + k, f"{which} '{pname}' lists material {d[mb + lo + k]}, "
                                            f"model has {len(materials)}")
        shapes = [n for n, _ in parse_dict(c, m + ofs_shp, mend, 4, 0, f"model '{mname}' shape")]
        # SBC
        p = m + ofs_sbc
        seen = set()
        visible = {}
        while True:
            c.need(p, 1, mend, "SBC command")
            op = d[p]
            if op == 0x09:
                c.need(p, 3, mend, "SBC NODEMIX")
                ln = 3 + 3 * d[p + 2]
            elif op in SBC_LEN:
                ln = SBC_LEN[op]
            else:
                c.fail(p, f"SBC opcode 0x{op:02X} not in the command table")
            c.need(p, ln, mend, f"SBC command 0x{op:02X}")
            if op & 0x1F == 0x06:
                node, parent = d[p + 1], d[p + 2]
                if node >= num_node or parent >= num_node:
                    c.fail(p, f"NODEDESC node {node} parent {parent} with {num_node} nodes")
                if node in seen:
                    c.warn(p, f"second NODEDESC for node {node} (first one kept)")
                else:
                    seen.add(node)
                    nodes[node]["parent"] = None if parent == node else parent
            elif op == 0x02:
                if d[p + 1] >= num_node:
                    c.fail(p, f"NODE {d[p + 1]} with {num_node} nodes")
                visible.setdefault(d[p + 1], d[p + 2] & 1)
            p += ln
            if op == 0x01:
                break
        for i in range(num_node):
            if i not in seen:
                c.warn(m + ofs_sbc, f"node {i} has no NODEDESC (parent null)")
        models.append(dict(name=mname, num_node=num_node, nodes=nodes, materials=materials, shapes=shapes,
                           visible=visible))
    tex = pal = None
    for bm, b0, b1 in blocks[1:]:
        if bm == b"TEX0":
            tex, pal = parse_tex0(c, b0, b1)
    return dict(models=models, textures=tex, palettes=pal)


# ------------------------------------------------------------------------------------------------------
# BTA0 / BMA0 tracks

def bta_track(c, a, be, nf, info, ex, rot, where):
    fx16 = bool(info & (1 << 28))
    if info & (1 << 29):
        if rot:
            return ("const", (sx16(ex), sx16(ex >> 16)))
        return ("const", sx32(ex))
    step = step_code(c, info, a)
    last = info & 0xFFFF
    if rot and fx16:
        c.fail(a, f"{where}: rotation array with the FX16 bit")
    if step == 1 and last != nf:
        c.warn(a, f"{where}: step-1 LAST_INTERP {last} != numFrame {nf}")
    count = sample_count(step, last, nf)
    size = 4 if rot else (2 if fx16 else 4)
    base = a + ex
    c.need(base, count * size, be, f"{where} array ({count} x {size} bytes)")
    d = c.d
    if rot:
        get = lambda i: (s16(d, base + 4 * i), s16(d, base + 4 * i + 2))  # noqa: E731
    elif fx16:
        get = lambda i: s16(d, base + 2 * i)  # noqa: E731
    else:
        get = lambda i: s32(d, base + 4 * i)  # noqa: E731
    return ("anim", get, step, last, count)


def track_raw(c, tr, f, blend, where):
    if tr[0] == "const":
        return tr[1]
    _, get, step, last, count = tr
    try:
        return step_sample(get, step, last, f, count, blend)
    except IndexError as e:
        c.fail(0, f"{where}: frame {f} needs sample {e.args[0]} of {count}")


def parse_bta0(c, blocks):
    d = c.d
    bo, be, anims = animation_set(c, blocks, b"BTA0")
    out = []
    for name, a, nf in anims:
        c.need(a, 8, be, "SRT animation")
        mats = []
        for mname, e in parse_dict(c, a + 8, be, 40, 0, f"'{name}' material"):
            words = [u32(d, e + 4 * k) for k in range(10)]
            tr = []
            for k, ch in enumerate(("scaleS", "scaleT", "rot", "transS", "transT")):
                tr.append(bta_track(c, a, be, nf, words[2 * k], words[2 * k + 1], ch == "rot",
                                    f"'{name}' material '{mname}' {ch}"))
            mats.append((mname, tr))
        out.append(dict(name=name, frames=nf, flag=d[a + 6], tex_mtx_mode=d[a + 7], materials=mats))
    return out


def bta_pose(c, anim, f):
    rows = []
    for mname, tr in anim["materials"]:
        w = f"'{anim['name']}' '{mname}'"
        ss, st, rot, ts, tt = (track_raw(c, t, f, blend_tuple if i == 2 else blend_int, w)
                               for i, t in enumerate(tr))
        sin, cos = rot[0] / 4096.0, rot[1] / 4096.0
        rows.append({"material": mname, "S": [ss / 4096.0, st / 4096.0], "R": [sin, cos],
                     "angle": math.degrees(math.atan2(sin, cos)), "T": [ts / 4096.0, tt / 4096.0]})
    return {"materials": rows}


def rgb(v):
    return (v & 31, (v >> 5) & 31, (v >> 10) & 31)


def parse_bma0(c, blocks):
    d = c.d
    bo, be, anims = animation_set(c, blocks, b"BMA0")
    out = []
    for name, a, nf in anims:
        mats = []
        for mname, e in parse_dict(c, a + 8, be, 20, 0, f"'{name}' material"):
            tr = []
            for k, ch in enumerate(("diffuse", "ambient", "specular", "emission", "alpha")):
                info = u32(d, e + 4 * k)
                where = f"'{name}' material '{mname}' {ch}"
                alpha = ch == "alpha"
                if info & (1 << 29):
                    v = info & 0xFFFF
                    tr.append(("const", v if alpha else rgb(v)))
                    continue
                step = step_code(c, info, e + 4 * k)
                last = (info >> 16) & 0x1FFF
                if step == 1 and last != nf:
                    c.warn(e + 4 * k, f"{where}: step-1 LAST_INTERP {last} != numFrame {nf}")
                count = sample_count(step, last, nf)
                base = a + (info & 0xFFFF)
                c.need(base, count * (1 if alpha else 2), be, f"{where} array ({count} samples)")
                if alpha:
                    get = (lambda b: lambda i: d[b + i])(base)
                else:
                    get = (lambda b: lambda i: rgb(u16(d, b + 2 * i)))(base)
                tr.append(("anim", get, step, last, count))
            mats.append((mname, tr))
        out.append(dict(name=name, frames=nf, flag=u16(d, a + 6), materials=mats))
    return out


def bma_pose(c, anim, f):
    rows = []
    for mname, tr in anim["materials"]:
        w = f"'{anim['name']}' '{mname}'"
        v = [track_raw(c, t, f, blend_int if i == 4 else blend_tuple, w) for i, t in enumerate(tr)]
        rows.append({"material": mname, "diffuse": list(v[0]), "ambient": list(v[1]),
                     "specular": list(v[2]), "emission": list(v[3]), "alpha": v[4]})
    return {"materials": rows}


# ------------------------------------------------------------------------------------------------------
# BTP0

def parse_btp0(c, blocks):
    d = c.d
    bo, be, anims = animation_set(c, blocks, b"BTP0")
    out = []
    for name, a, nf in anims:
        c.need(a, 0xC, be, "pattern animation header")
        num_tex, num_pltt = d[a + 6], d[a + 7]
        ot, op = u16(d, a + 8), u16(d, a + 10)
        c.need(a + ot, 16 * num_tex, be, "texture name array")
        c.need(a + op, 16 * num_pltt, be, "palette name array")
        tex = [name16(d[a + ot + 16 * i:a + ot + 16 * i + 16]) for i in range(num_tex)]
        pal = [name16(d[a + op + 16 * i:a + op + 16 * i + 16]) for i in range(num_pltt)]
        mats = []
        for mname, e in parse_dict(c, a + 0xC, be, 8, 0, f"'{name}' material"):
            num_fv, flag, ko = u16(d, e), u16(d, e + 2), u16(d, e + 6)
            where = f"'{name}' material '{mname}'"
            if num_fv < 1:
                c.fail(e, f"{where}: no keys")
            c.need(a + ko, 4 * num_fv, be, f"{where} keys")
            keys = []
            for k in range(num_fv):
                p = a + ko + 4 * k
                fr, ti, pi = u16(d, p), d[p + 2], d[p + 3]
                if ti >= num_tex:
                    c.fail(p + 2, f"{where} key {k}: texture index {ti} >= {num_tex}")
                if pi != 255 and pi >= num_pltt:
                    c.fail(p + 3, f"{where} key {k}: palette index {pi} >= {num_pltt}")
                if keys and fr <= keys[-1][0]:
                    c.fail(p, f"{where} key {k}: frame {fr} not after {keys[-1][0]}")
                if fr >= nf:
                    c.warn(p, f"{where} key {k}: frame {fr} >= numFrame {nf}")
                keys.append((fr, ti, pi))
            if keys[0][0] > 0:
                c.warn(a + ko, f"{where}: first key at frame {keys[0][0]}")
            mats.append((mname, flag, keys))
        out.append(dict(name=name, frames=nf, textures=tex, palettes=pal, materials=mats))
    return out


def btp_pose(c, anim, f):
    rows = []
    for mname, flag, keys in anim["materials"]:
        k = 0
        for i, key in enumerate(keys):
            if key[0] <= f:
                k = i
        _, ti, pi = keys[k]
        rows.append({"material": mname, "key": k, "texture_index": ti, "palette_index": pi,
                     "texture": anim["textures"][ti], "palette": None if pi == 255 else anim["palettes"][pi]})
    return {"materials": rows}


# ------------------------------------------------------------------------------------------------------
# BVA0, BCA0 (join only)

def parse_bva0(c, blocks):
    d = c.d
    bo, be, anims = animation_set(c, blocks, b"BVA0")
    out = []
    for name, a, nf in anims:
        c.need(a, 0xC, be, "visibility animation header")
        nn = u16(d, a + 6)
        words = (nf * nn + 31) // 32
        c.need(a + 0xC, 4 * words, be, f"'{name}' visibility bits ({words} words)")
        if u16(d, a + 8) != 12 + 4 * words:
            c.warn(a + 8, f"'{name}' size field {u16(d, a + 8)} != {12 + 4 * words}")
        out.append(dict(name=name, frames=nf, num_node=nn, bits=a + 0xC))
    return out


def bva_pose(c, anim, f):
    rows = []
    for n in range(anim["num_node"]):
        p = f * anim["num_node"] + n
        rows.append({"node": n, "visible": (u32(c.d, anim["bits"] + 4 * (p >> 5)) >> (p & 31)) & 1})
    return {"nodes": rows}


def parse_bca0(c, blocks):
    d = c.d
    bo, be, anims = animation_set(c, blocks, b"BCA0")
    out = []
    for name, a, nf in anims:
        c.need(a, 0x14, be, "J.AC header")
        nn = u16(d, a + 6)
        if nn < 1:
            c.fail(a + 6, f"'{name}' has no nodes")
        c.need(a + 0x14, 2 * nn, be, "tag offsets")
        for i in range(nn):
            t = a + u16(d, a + 0x14 + 2 * i)
            c.need(t, 4, be, f"tag {i}")
            if d[t + 3] != i:
                c.warn(t, f"'{name}' tag {i} names node {d[t + 3]}")
        out.append(dict(name=name, frames=nf, num_node=nn))
    return out


PARSERS = {b"BMD0": parse_bmd0, b"BCA0": parse_bca0, b"BTA0": parse_bta0, b"BTP0": parse_btp0,
           b"BMA0": parse_bma0, b"BVA0": parse_bva0}
POSERS = {"nsbta": bta_pose, "nsbtp": btp_pose, "nsbma": bma_pose, "nsbva": bva_pose}


def decode_bytes(data, where):
    """-> (kind, Ctx, parsed); raises DecodeError. kind None when the magic is not one of ours."""
    if data[:4] not in KINDS:
        return None, None, None
    c = Ctx(data, where)
    magic, blocks = parse_header(c)
    c.d = data[:u32(data, 8)]
    return KINDS[magic], c, PARSERS[magic](c, blocks)


def model_pose(model):
    rows = []
    for i, n in enumerate(model["nodes"]):
        rows.append({"node": i, "name": n["name"], "parent": n["parent"], "T": [v / 4096.0 for v in n["T"]],
                     "R": [v / 4096.0 for v in n["R"]], "S": [v / 4096.0 for v in n["S"]]})
    return {"nodes": rows}


def expected_frame(kind, c, anim, f):
    obj = {"format": kind, "animation": anim["name"], "frame": f, "frame_count": anim["frames"]}
    obj.update(POSERS[kind](c, anim, f))
    return obj


# ------------------------------------------------------------------------------------------------------
# Members of NARCs

class Item:
    """One decoded member (or loose file)."""

    def __init__(self, narc, member, path, rel):
        self.narc, self.member, self.path, self.rel = narc, member, path, rel
        self.kind = self.ctx = self.parsed = self.error = None


def load_narc(path, rel):
    src = cref.FileSource(path)
    try:
        members = cref.open_narc(src, path)
        items = []
        for m in members:
            it = Item(rel, m.path, path + "/" + m.path, rel + "/" + m.path)
            data = b""
            try:
                data = m.decoded()
                it.compression = m.compression
                it.kind, it.ctx, it.parsed = decode_bytes(data, it.path)
                if it.kind is None:
                    it.error = f"not a Nitro model/animation (magic {data[:4]!r})"
            except (DecodeError, cref.FormatError, struct.error) as e:
                it.error = str(e)
                it.kind = KINDS.get(data[:4])
            items.append(it)
        return items
    finally:
        src.f.close()


def find_narcs(folder):
    out = []
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(root, n)
            try:
                with open(p, "rb") as fh:
                    if fh.read(4) == b"NARC":
                        out.append(p)
            except OSError:
                pass
    return out


def load_folder(folder):
    items = []
    for p in find_narcs(folder):
        items.extend(load_narc(p, os.path.relpath(p, folder).replace(os.sep, "/")))
    return items


def census(items):
    counts = {}
    for it in items:
        key = (it.kind or "unknown", "error" if it.error else "ok")
        counts[key] = counts.get(key, 0) + 1
    return counts


def expected_links(items):
    """Rows of nitro_links, and {(file, animation): (method, model item, model dict)}."""
    by_narc = {}
    for it in items:
        by_narc.setdefault(it.narc, []).append(it)
    rows, links = [], {}
    for narc, its in by_narc.items():
        models = [(it, m) for it in its if it.kind == "nsbmd" and not it.error for m in it.parsed["models"]]
        for it in its:
            if it.error or it.kind not in ("nsbca", "nsbva", "nsbta", "nsbtp", "nsbma"):
                continue
            for anim in it.parsed:
                nn = anim.get("num_node") if it.kind in ("nsbca", "nsbva") else None
                cands = [(mi, m) for mi, m in models if m["name"] == anim["name"]
                         and (nn is None or nn <= m["num_node"])]
                method, pick = "none", None
                if cands:
                    method, pick = "name", cands[0]
                elif nn is not None:
                    eq = [(mi, m) for mi, m in models if m["num_node"] == nn]
                    if len(eq) == 1:
                        method, pick = "node_count", eq[0]
                exact = None
                if pick and nn is not None:
                    exact = 1 if nn == pick[1]["num_node"] else 0
                rows.append({"file": it.rel, "format": it.kind, "animation": anim["name"],
                             "model_file": pick[0].rel if pick else None, "model": pick[1]["name"] if pick else None,
                             "method": method, "exact": exact})
                links[(it.rel, anim["name"])] = (method, pick, anim)
    return rows, links


# ------------------------------------------------------------------------------------------------------
# Comparison

class Compare:
    def __init__(self, float32=False):
        self.problems, self.values, self.frames, self.float32 = [], 0, 0, float32
        self.f32_only, self.f32_examples, self.f32_worst = 0, [], 0.0   # equal once the reference is rounded to float32
        self.g9_only, self.g9_examples = 0, []     # equal once the reference is printed with 9 digits

    def bad(self, text):
        self.problems.append(text)

    def num_ok(self, want, got, where):
        if abs(want - got) <= TOL:
            return True
        f32 = struct.unpack("<f", struct.pack("<f", want))[0]
        if abs(f32 - got) <= TOL or float(repr_f32(want)) == got:
            self.f32_only += 1
            self.f32_worst = max(self.f32_worst, abs(want - got))
            if len(self.f32_examples) < 3:
                self.f32_examples.append(f"{where}: tool {json.dumps(got)}, reference {json.dumps(want)}")
            return True
        if float(f"{want:.9g}") == got:
            self.g9_only += 1
            if len(self.g9_examples) < 3:
                self.g9_examples.append(f"{where}: tool {json.dumps(got)}, reference {json.dumps(want)}")
            return True
        return False

    def same(self, want, got, where):
        if isinstance(want, dict):
            if not isinstance(got, dict):
                self.bad(f"{where}: expected an object, got {short(got)}")
                return
            for k, v in want.items():
                if k not in got:
                    self.bad(f"{where}: key '{k}' missing")
                else:
                    self.same(v, got[k], f"{where} {k}")
            return
        if isinstance(want, list):
            if not isinstance(got, list) or len(got) != len(want):
                self.bad(f"{where}: expected {len(want)} items {short(want)}, got {short(got)}")
                return
            for i, (a, b) in enumerate(zip(want, got)):
                self.same(a, b, f"{where}[{i}]")
            return
        self.values += 1
        if want is None or isinstance(want, str) or isinstance(got, (str, type(None))) or isinstance(got, bool):
            if want != got or type(got) is bool:
                self.bad(f"{where}: tool {json.dumps(got)}, reference {json.dumps(want)}")
            return
        if not isinstance(got, (int, float)) or not self.num_ok(want, got, where):
            self.bad(f"{where}: tool {json.dumps(got)}, reference {json.dumps(want)}")


def repr_f32(x):
    f = struct.unpack("<f", struct.pack("<f", x))[0]
    for digits in range(1, 10):
        s = f"{f:.{digits}g}"
        if struct.unpack("<f", struct.pack("<f", float(s)))[0] == f:
            return s
    return repr(f)


def short(v):
    s = json.dumps(v)
    return s if len(s) < 120 else s[:117] + "..."


def run_tool(binary, args):
    r = subprocess.run([binary] + args, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def pose_member(binary, cmp, it, label):
    """animdex pose for every animation at every frame (or every model) of one decoded item."""
    if it.kind == "nsbca":
        return
    if it.kind == "nsbmd":
        for m in it.parsed["models"]:
            rc, out, err = run_tool(binary, ["pose", it.path, "--anim", m["name"], "--frame", "0",
                                             "--format", "json"])
            where = f"{label} model '{m['name']}'"
            if rc != 0:
                cmp.bad(f"{where}: animdex pose exit {rc}: {err.strip()[:300]}")
                continue
            try:
                got = json.loads(out)
            except ValueError as e:
                cmp.bad(f"{where}: output is not JSON: {e}")
                continue
            if isinstance(got, list) and len(got) == 1:
                got = got[0]
            want = {"format": "nsbmd"}
            if isinstance(got, dict):
                # the model's name: `model` (what the tool prints) or `animation`
                name_key = "model" if "model" in got else "animation"
                want[name_key] = m["name"]
                if "node_count" in got:
                    want["node_count"] = m["num_node"]
            want.update(model_pose(m))
            cmp.frames += 1
            cmp.same(want, got, where)
        return
    for anim in it.parsed:
        n = anim["frames"]
        args = ["pose", it.path, "--anim", anim["name"]]
        for f in range(n):
            args += ["--frame", str(f)]
        rc, out, err = run_tool(binary, args + ["--format", "jsonl"])
        where = f"{label} anim '{anim['name']}'"
        if rc != 0:
            cmp.bad(f"{where}: animdex pose exit {rc}: {err.strip()[:300]}")
            continue
        lines = [ln for ln in out.splitlines() if ln.strip()]
        if len(lines) != n:
            cmp.bad(f"{where}: {len(lines)} JSON lines for {n} frames")
        for f, ln in enumerate(lines[:n]):
            try:
                got = json.loads(ln)
            except ValueError as e:
                cmp.bad(f"{where} frame {f}: not JSON: {e}")
                continue
            try:
                want = expected_frame(it.kind, it.ctx, anim, f)
            except DecodeError as e:
                cmp.bad(f"{where} frame {f}: reference cannot evaluate: {e}")
                continue
            cmp.frames += 1
            cmp.same(want, got, f"{where} frame {f}")


def tool_formats(binary):
    rc, out, _ = run_tool(binary, ["formats"])
    return {ln.split()[0] for ln in out.splitlines() if ln.strip()} if rc == 0 else set()


def summary(cmp, items_by_kind):
    print("members per kind: " + ", ".join(f"{k} {v}" for k, v in sorted(items_by_kind.items())))
    print(f"frames compared: {cmp.frames}; values compared: {cmp.values}")
    if cmp.f32_only:
        print(f"numbers off by more than {TOL:g} but equal to the reference rounded to float32 (printed with "
              f"float32 precision): {cmp.f32_only}, largest difference {cmp.f32_worst:g} "
              + ("(accepted: --float32)" if cmp.float32 else "(disagreements; --float32 accepts them)"))
        for e in cmp.f32_examples:
            print("  e.g. " + e)
    if cmp.g9_only:
        print(f"numbers off by more than {TOL:g} but equal to the reference printed with 9 significant digits: "
              f"{cmp.g9_only} " + ("(accepted: --float32)" if cmp.float32 else "(disagreements; --float32 accepts them)"))
        for e in cmp.g9_examples:
            print("  e.g. " + e)
    print(f"other disagreements: {len(cmp.problems)}")
    for p in cmp.problems[:20]:
        print("  " + p)
    if len(cmp.problems) > 20:
        print(f"  ... and {len(cmp.problems) - 20} more")
    return 0 if not cmp.problems and (cmp.float32 or not (cmp.f32_only or cmp.g9_only)) else 1


def sql(binary, db, query):
    rc, out, err = run_tool(binary, ["sql", "--db", db, "--format", "json", query])
    if rc != 0:
        raise RuntimeError(f"animdex sql exit {rc}: {err.strip()[:300]}")
    return json.loads(out)


def check(binary, folder, float32):
    if not os.path.isdir(folder):
        print(f"skipped: {folder} not found")
        return 77
    items = load_folder(folder)
    cmp = Compare(float32)
    kinds = {}
    for it in items:
        if it.error:
            cmp.bad(f"{it.rel}: reference rejects it: {it.error}")
        else:
            kinds[it.kind] = kinds.get(it.kind, 0) + 1
    known = tool_formats(binary)
    missing = [k for k in NEW_KINDS if k not in known]
    for k in missing:
        cmp.bad(f"animdex formats does not list '{k}': its members were not compared")
    # pose
    for it in items:
        if not it.error and it.kind not in missing:
            pose_member(binary, cmp, it, it.rel)
    # index
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "nitro.db")
        rc, out, err = run_tool(binary, ["index", folder, "--db", db, "--label", "real"])
        if rc not in (0, 3):
            cmp.bad(f"animdex index exit {rc}: {err.strip()[:300]}")
            return summary(cmp, kinds)
        try:
            got = sql(binary, db, "SELECT format, status, COUNT(*) AS n FROM files WHERE parent_id IS NOT NULL "
                                  "GROUP BY 1, 2")
            theirs = {(r["format"], r["status"]): r["n"] for r in got}
            mine = {(k, "ok"): v for k, v in kinds.items()}
            for key in sorted(set(theirs) | set(mine), key=str):
                if theirs.get(key, 0) != mine.get(key, 0):
                    cmp.bad(f"census {key[0]}/{key[1]}: tool {theirs.get(key, 0)}, reference {mine.get(key, 0)}")
                cmp.values += 1
            want_rows, links = expected_links(items)
            unresolved = resolved = 0
            for (file, _), (method, pick, anim) in links.items():
                if pick is not None and "textures" in anim:
                    tex0 = pick[0].parsed
                    ok = (tex0["textures"] is not None and all(t in tex0["textures"] for t in anim["textures"])
                          and all(p in tex0["palettes"] for p in anim["palettes"]))
                    resolved += ok
                    unresolved += not ok
            print(f"BTP0 linked by name whose texture/palette names all resolve in the model file's TEX0: "
                  f"{resolved} of {resolved + unresolved} (reference only, not a comparison)")
            if "nsbmd" not in missing:
                try:
                    got = sql(binary, db, "SELECT file, format, animation, model_file, model, method, exact "
                                          "FROM nitro_links")
                except RuntimeError as e:
                    cmp.bad(f"nitro_links: {e}")
                    got = None
                n_links = len(got) if got is not None else "-"
                if got is not None:
                    key = lambda r: (r["file"], r["animation"])  # noqa: E731
                    gmap = {}
                    for r in got:
                        if key(r) in gmap:
                            cmp.bad(f"nitro_links: two rows for {key(r)}")
                        gmap[key(r)] = r
                    wmap = {key(r): r for r in want_rows if r["format"] not in missing}
                    for k in sorted(set(gmap) - set(wmap)):
                        cmp.bad(f"nitro_links: unexpected row {short(gmap[k])}")
                    for k in sorted(wmap):
                        if k not in gmap:
                            cmp.bad(f"nitro_links: missing row {short(wmap[k])}")
                        else:
                            cmp.same(wmap[k], gmap[k], f"nitro_links {k[0]} '{k[1]}'")
                got = sql(binary, db, "SELECT f.path AS file, a.name AS animation, t.bone_id AS node, t.bone_name "
                                      "FROM bone_tracks t JOIN animations a ON a.id = t.animation_id "
                                      "JOIN files f ON f.id = a.file_id WHERE f.format = 'nsbca'")
                names_checked = 0
                for r in got:
                    link = links.get((r["file"], r["animation"]))
                    where = f"bone_name {r['file']} '{r['animation']}' node {r['node']}"
                    if link is None:
                        cmp.bad(f"{where}: reference has no such nsbca animation")
                        continue
                    method, pick, anim = link
                    want = None
                    if pick is not None and r["node"] is not None and 0 <= r["node"] < pick[1]["num_node"]:
                        want = pick[1]["nodes"][r["node"]]["name"]
                    if r["node"] is None or not 0 <= r["node"] < anim["num_node"]:
                        cmp.bad(f"{where}: node index outside the animation's {anim['num_node']} nodes")
                    cmp.same(want, r["bone_name"], where)
                    names_checked += 1
                print(f"nitro_links rows: reference {len(want_rows)}, tool {n_links}; "
                      f"nsbca bone_track rows checked: {names_checked}")
        except (RuntimeError, ValueError, KeyError) as e:
            cmp.bad(f"index queries: {e}")
    return summary(cmp, kinds)


def check_files(binary, folder, float32):
    if not os.path.isdir(folder):
        print(f"skipped: {folder} not found")
        return 77
    cmp = Compare(float32)
    kinds = {}
    known = tool_formats(binary)
    for n in sorted(os.listdir(folder)):
        p = os.path.join(folder, n)
        if not os.path.isfile(p):
            continue
        data = open(p, "rb").read()
        it = Item(None, n, p, n)
        try:
            it.kind, it.ctx, it.parsed = decode_bytes(data, p)
        except (DecodeError, struct.error) as e:
            cmp.bad(f"{n}: reference rejects it: {e}")
            continue
        if it.kind is None:
            continue
        kinds[it.kind] = kinds.get(it.kind, 0) + 1
        if it.kind not in known and it.kind != "nsbca":
            cmp.bad(f"{n}: animdex formats does not list '{it.kind}'")
            continue
        pose_member(binary, cmp, it, n)
    return summary(cmp, kinds)


# ------------------------------------------------------------------------------------------------------
# decode (own JSON)

def open_target(target):
    """Loose file, or NARCPATH/MEMBER -> Item (decoded)."""
    if os.path.isfile(target):
        data = open(target, "rb").read()
        if data[:4] == b"NARC":
            return load_narc(target, target)
        it = Item(None, os.path.basename(target), target, target)
        it.kind, it.ctx, it.parsed = decode_bytes(data, target)
        return [it]
    parent, member = os.path.split(target)
    for it in load_narc(parent, parent):
        if it.member == member:
            return [it]
    raise SystemExit(f"{target}: no such file or NARC member")


def decode_main(args):
    target, frame, anim_name = args[0], 0, None
    i = 1
    while i < len(args):
        if args[i] == "--frame":
            frame = int(args[i + 1]); i += 2
        elif args[i] == "--anim":
            anim_name = args[i + 1]; i += 2
        else:
            raise SystemExit(f"unknown option {args[i]}")
    items = open_target(target)
    if len(items) > 1:
        for it in items:
            print(json.dumps({"member": it.member, "format": it.kind, "error": it.error,
                              "animations": [a["name"] for a in it.parsed] if it.parsed and it.kind != "nsbmd"
                              else [m["name"] for m in it.parsed["models"]] if it.parsed else None}))
        c = census(items)
        print(json.dumps({f"{k}/{s}": n for (k, s), n in sorted(c.items())}))
        return 0
    it = items[0]
    if it.error:
        print(f"error: {it.error}", file=sys.stderr)
        return 1
    for w in it.ctx.warnings:
        print("warning: " + w, file=sys.stderr)
    out = []
    if it.kind == "nsbmd":
        for m in it.parsed["models"]:
            if anim_name in (None, m["name"]):
                o = {"file": target, "format": "nsbmd", "animation": m["name"], "materials": m["materials"],
                     "shapes": m["shapes"]}
                o.update(model_pose(m))
                out.append(o)
    elif it.kind == "nsbca":
        out = [{"file": target, "format": "nsbca", "animation": a["name"], "frame_count": a["frames"],
                "num_node": a["num_node"]} for a in it.parsed]
    else:
        for a in it.parsed:
            if anim_name in (None, a["name"]):
                o = {"file": target}
                o.update(expected_frame(it.kind, it.ctx, a, frame))
                out.append(o)
    print(json.dumps(out[0] if len(out) == 1 else out, indent=1))
    return 0


# ------------------------------------------------------------------------------------------------------
# Builders for synthetic files (selftest)

def patricia(names):
    """Tree nodes (refBit, left, right, entry) for a resource dictionary, as the lookup walks it:
    bits are tested from 127 down, bit b of a name = bit (b & 31) of its u32 word b >> 5."""
    keys = [int.from_bytes(n.ljust(16, b"\0")[:16], "little") for n in names]
    nodes = [[127, 0, 0, 0]]
    key_of = [0]

    def child(x, k):
        return nodes[x][2] if (k >> nodes[x][0]) & 1 else nodes[x][1]

    for e, k in enumerate(keys):
        p, x = 0, nodes[0][1]
        while nodes[p][0] > nodes[x][0]:
            p, x = x, child(x, k)
        diff = key_of[x] ^ k
        b = diff.bit_length() - 1
        p, x = 0, nodes[0][1]
        while nodes[p][0] > nodes[x][0] and nodes[x][0] > b:
            p, x = x, child(x, k)
        new = len(nodes)
        nodes.append([b, x, new, e] if (k >> b) & 1 else [b, new, x, e])
        key_of.append(k)
        if p == 0:
            nodes[0][1] = new
        elif (k >> nodes[p][0]) & 1:
            nodes[p][2] = new
        else:
            nodes[p][1] = new
    return nodes


def build_dict(names, datas, unit):
    n = len(names)
    ofs_entry = 8 + 4 * (n + 1)
    size = ofs_entry + 4 + unit * n + 16 * n
    out = bytearray(struct.pack("<BBHHH", 0, n, size, 8, ofs_entry))
    for node in patricia([nm.encode() for nm in names]):
        out += struct.pack("<BBBB", *node)
    out += struct.pack("<HH", unit, 4 + unit * n)
    for dt in datas:
        assert len(dt) == unit
        out += dt
    for nm in names:
        out += nm.encode().ljust(16, b"\0")
    return bytes(out)


def build_file(magic, blocks, version=1):
    hsize = 16 + 4 * len(blocks)
    offs, pos = [], hsize
    for b in blocks:
        offs.append(pos)
        pos += len(b)
    out = bytearray(magic + struct.pack("<HHIHH", 0xFEFF, version, pos, 16, len(blocks)))
    for o in offs:
        out += struct.pack("<I", o)
    for b in blocks:
        out += b
    return bytes(out)


def build_anim_file(magic, block_magic, anims):
    """anims: [(name, builder(offset of the animation from the block start) -> bytes)]"""
    names = [a[0] for a in anims]
    dict_size = len(build_dict(names, [b"\0" * 4] * len(names), 4))
    pos = 8 + dict_size
    pos += -pos % 4
    bodies, offs = [], []
    for _, builder in anims:
        offs.append(pos)
        body = builder(pos)
        body += b"\0" * (-len(body) % 4)
        bodies.append(body)
        pos += len(body)
    d = build_dict(names, [struct.pack("<I", o) for o in offs], 4)
    block = bytearray(block_magic + b"\0\0\0\0" + d)
    block += b"\0" * (offs[0] - len(block))
    for b in bodies:
        block += b
    struct.pack_into("<I", block, 4, len(block))
    return build_file(magic, [bytes(block)])


class Area:
    """Value area after a header: append arrays and get their offsets from the animation start."""

    def __init__(self, start):
        self.start, self.data = start, bytearray()

    def put(self, raw, align=1):
        while (self.start + len(self.data)) % align:
            self.data += b"\xEE"
        off = self.start + len(self.data)
        self.data += raw
        return off


def srt_info(step, last, fx16=False, const=False):
    return ({1: 0, 2: 1, 4: 2}[step] << 30) | (fx16 << 28) | (const << 29) | last


def build_step2_nsbta():
    nf = 10

    def body(_block_off):
        names = ["m_step2", "m_step4"]
        head_len = 8 + len(build_dict(names, [b"\0" * 40] * 2, 40))
        area = Area(head_len + 4)
        ts2 = area.put(struct.pack("<6h", 0, 4096, -3, -4, 777, -5), 2)
        tt2 = area.put(struct.pack("<6i", 100000, -100001, 5, 6, -1, 123456789), 4)
        r2 = area.put(struct.pack("<12h", 0, 4096, 4096, 0, -1, -4096, 2896, 2896, -4096, 1, 7, -7), 4)
        ts4 = area.put(struct.pack("<4h", 0, 7, -10, 100), 2)
        r4 = area.put(struct.pack("<8h", 0, 4096, 4096, 0, -3, -4096, 11, 12), 4)
        m2 = struct.pack("<10I", srt_info(1, 0, const=True), 8192, srt_info(1, 0, const=True), (-2048) & 0xFFFFFFFF,
                         srt_info(2, 8), r2, srt_info(2, 8, fx16=True), ts2, srt_info(2, 8), tt2)
        m4 = struct.pack("<10I", srt_info(1, 0, const=True), 4096, srt_info(1, 0, const=True), 4096,
                         srt_info(4, 8), r4, srt_info(4, 8, fx16=True), ts4, srt_info(1, 0, const=True), 2048)
        d = build_dict(names, [m2, m4], 40)
        out = bytearray(b"M\0AT" + struct.pack("<HBB", nf, 0, 0) + d)
        out += struct.pack("<I", 0x1000)  # a "constant pool" word like the converter writes (unreferenced)
        assert len(out) == area.start
        return bytes(out + area.data)
    return build_anim_file(b"BTA0", b"SRT0", [("step2", body)])


def mat_info(step, last, value=0, const=False):
    return ({1: 0, 2: 1, 4: 2}[step] << 30) | (const << 29) | (last << 16) | value


def c555(r, g, b):
    return r | g << 5 | b << 10


def build_step4_nsbma():
    nf = 12

    def body(_block_off):
        names = ["mat_a", "mat_b"]
        head_len = 8 + len(build_dict(names, [b"\0" * 20] * 2, 20))
        area = Area(head_len)
        dif = area.put(struct.pack("<6H", *(c555(*t) for t in ((0, 31, 10), (31, 0, 3), (1, 2, 3), (4, 5, 6),
                                                                   (7, 8, 9), (31, 31, 31)))), 2)
        spe = area.put(struct.pack("<7H", *(c555(*t) for t in ((0, 0, 0), (31, 31, 31), (2, 3, 4), (3, 4, 5),
                                                                   (0, 0, 0), (10, 0, 0), (0, 0, 31)))), 2)
        area.put(b"\x00")
        alp = area.put(bytes([31, 0, 16, 5, 6, 7]))
        assert alp % 2 == 1
        ma = struct.pack("<5I", mat_info(4, 8, dif), mat_info(1, 0, c555(5, 10, 20), True), mat_info(2, 10, spe),
                         mat_info(1, 0, 0x7FFF, True), mat_info(4, 8, alp))
        mb = struct.pack("<5I", mat_info(1, 0, 0x1F, True), mat_info(1, 0, 0x3E0, True),
                         mat_info(1, 0, 0x7C00, True), mat_info(1, 0, 0, True), mat_info(1, 0, 20, True))
        d = build_dict(names, [ma, mb], 20)
        out = bytearray(b"M\0AM" + struct.pack("<HH", nf, 0) + d)
        assert len(out) == area.start
        return bytes(out + area.data)
    return build_anim_file(b"BMA0", b"MAT0", [("step4", body)])


def build_pal255_nsbtp():
    nf = 20

    def body(_block_off):
        names = ["m0", "m1", "m2"]
        head_len = 0xC + len(build_dict(names, [b"\0" * 8] * 3, 8))
        area = Area(head_len)
        texn = area.put(b"".join(n.ljust(16, b"\0") for n in (b"texA", b"texB", b"texC")), 4)
        paln = area.put(b"".join(n.ljust(16, b"\0") for n in (b"palA", b"palB")), 4)
        k0 = area.put(struct.pack("<HBBHBBHBBHBB", 0, 0, 0, 5, 2, 255, 6, 1, 1, 15, 0, 255), 4)
        k1 = area.put(struct.pack("<HBB", 0, 1, 255), 4)
        k2 = area.put(struct.pack("<HBBHBB", 3, 2, 1, 10, 1, 0), 4)
        ents = [struct.pack("<HHhH", 4, 0, 4 * 4096 // nf, k0), struct.pack("<HHhH", 1, 0, 4096 // nf, k1),
                struct.pack("<HHhH", 2, 0, 2 * 4096 // nf, k2)]
        d = build_dict(names, ents, 8)
        out = bytearray(b"M\0PT" + struct.pack("<HBBHH", nf, 3, 2, texn, paln) + d)
        assert len(out) == area.start
        return bytes(out + area.data)
    return build_anim_file(b"BTP0", b"PAT0", [("pal255", body)])


# BVA0 three.nsbva: 3 nodes, 13 frames. node 0 always visible, node 1 on even frames, node 2 from frame 7.
# Bit p = 3f + n. Word 0 (p 0..31, frames 0..10 and frame 10's node 0 at p 30, node 1 at p 31):
#   frame f contributes bit 3f (node 0) always, bit 3f+1 when f even, bit 3f+2 when f >= 7.
#   f0: 0,1  f1: 3  f2: 6,7  f3: 9  f4: 12,13  f5: 15  f6: 18,19  f7: 21,23  f8: 24,25,26  f9: 27,29
#   f10: 30,31 -> word 0 = 0xEFAC_B2CB (bits 0,1,3,6,7,9,12,13,15,18,19,21,23,24,25,26,27,29,30,31)
# Word 1 (p 32..38): f10 node 2 (p32), f11: 33,35 (node 1 off), f12: 36,37,38 -> bits 0,1,3,4,5,6 = 0x7B
BVA_WORDS = (0xEFACB2CB, 0x7B)


def build_three_nsbva():
    def body(_):
        return b"V\0AV" + struct.pack("<HHHH", 13, 3, 12 + 8, 0) + struct.pack("<2I", *BVA_WORDS)
    return build_anim_file(b"BVA0", b"VIS0", [("three", body)])


def build_tiny_nsbmd():
    """One model 'tiny', 3 nodes: root (all identity), piv (T + pivot R), full (full R + S); SBC tree
    0 <- root, 1 <- 0, 2 <- 1; one material, one shape."""
    recs = [struct.pack("<Hh", 0x7 | 31 << 11, 0),
            struct.pack("<Hh3i2h", 0x4 | 0x8 | 4 << 4 | 0x100 | 0x400 | 31 << 11, 0, 4096, -8192, 123, 2896, -2896),
            struct.pack("<Hh8h6i", 0x1 | 31 << 11, 0, 4096, 0, -4096, 0, 0, 0, 0, 4096,
                        8192, 4096, -4096, 2048, 4096, -4096)]
    node_names = ["root", "piv", "full"]
    nd_len = len(build_dict(node_names, [b"\0" * 4] * 3, 4))
    offs, pos = [], nd_len
    for r in recs:
        offs.append(pos)
        pos += len(r)
    node_dict = build_dict(node_names, [struct.pack("<I", o) for o in offs], 4) + b"".join(recs)
    model = bytearray(0x40) + node_dict
    model += b"\0" * (-len(model) % 4)
    ofs_sbc = len(model)
    model += bytes([0x06, 0, 0, 0, 0x02, 0, 1, 0x0B, 0x04, 0, 0x05, 0, 0x2B, 0x06, 1, 0, 0, 0x26, 2, 1, 0, 3,
                    0x03, 3, 0x01])
    model += b"\0" * (-len(model) % 4)
    ofs_mat = len(model)
    tex_dict = build_dict(["tex0"], [b"\0\0\0\0"], 4)
    pal_dict = build_dict([], [], 4)
    mat_dict_len = len(build_dict(["mat0"], [b"\0" * 4], 4))
    t_ofs = 4 + mat_dict_len
    p_ofs = t_ofs + len(tex_dict)
    list_ofs = p_ofs + len(pal_dict)
    matdata_ofs = list_ofs + 4
    tex_dict = build_dict(["tex0"], [struct.pack("<HBB", list_ofs, 1, 0)], 4)
    mat_dict = build_dict(["mat0"], [struct.pack("<I", matdata_ofs)], 4)
    matblock = struct.pack("<HH", t_ofs, p_ofs) + mat_dict + tex_dict + pal_dict + bytes([0, 0, 0, 0])
    matblock += struct.pack("<HH", 0, 44) + b"\0" * 40
    model += matblock
    ofs_shp = len(model)
    shp_dict_len = len(build_dict(["shp0"], [b"\0" * 4], 4))
    model += build_dict(["shp0"], [struct.pack("<I", shp_dict_len)], 4) + b"\0" * 16
    model += b"\0" * (-len(model) % 4)
    struct.pack_into("<5I8B", model, 0, len(model), ofs_sbc, ofs_mat, ofs_shp, len(model), 0, 0, 0, 3, 1, 1, 3, 0)
    struct.pack_into("<ii", model, 0x1C, 4096, 4096)
    mdl_dict_len = len(build_dict(["tiny"], [b"\0" * 4], 4))
    mdl = bytearray(b"MDL0\0\0\0\0") + build_dict(["tiny"], [struct.pack("<I", 8 + mdl_dict_len)], 4) + model
    struct.pack_into("<I", mdl, 4, len(mdl))
    return build_file(b"BMD0", [bytes(mdl)], version=2)


SYNTHETIC = {"step2.nsbta": build_step2_nsbta, "step4.nsbma": build_step4_nsbma,
             "pal255.nsbtp": build_pal255_nsbtp, "three.nsbva": build_three_nsbva, "tiny.nsbmd": build_tiny_nsbmd}


def selftest(args):
    fails = []

    def expect(cond, text):
        if not cond:
            fails.append(text)

    def close(a, b):
        if isinstance(a, (list, tuple)):
            return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
        return abs(a - b) <= 1e-12

    files = {n: b() for n, b in SYNTHETIC.items()}

    # BTA0: numFrame 10, step 2 and step 4 with LAST_INTERP 8; frame 9 is stored past it.
    kind, c, anims = decode_bytes(files["step2.nsbta"], "step2.nsbta")
    expect(kind == "nsbta" and not c.warnings, f"step2.nsbta: {kind} {c.warnings}")
    ts2 = [0, 2048, 4096, 2046, -3, -4, -4, 386, 777, -5]
    tt2 = [100000, -1, -100001, -49998, 5, 5, 6, 2, -1, 123456789]
    rot2 = [(0, 4096), (2048, 2048), (4096, 0), (2047, -2048), (-1, -4096), (1447, -600), (2896, 2896),
            (-600, 1448), (-4096, 1), (7, -7)]
    ts4 = [0, 1, 3, 5, 7, 2, -2, -6, -10, 100]
    sin4 = [0, 1024, 2048, 3072, 4096, 3071, 2046, 1021, -3, 11]
    cos4 = [4096, 3072, 2048, 1024, 0, -1024, -2048, -3072, -4096, 12]
    for f in range(10):
        got = bta_pose(c, anims[0], f)["materials"]
        m2, m4 = got
        want2 = {"material": "m_step2", "S": [2.0, -0.5], "R": [rot2[f][0] / 4096, rot2[f][1] / 4096],
                 "angle": math.degrees(math.atan2(rot2[f][0], rot2[f][1])), "T": [ts2[f] / 4096, tt2[f] / 4096]}
        want4 = {"material": "m_step4", "S": [1.0, 1.0], "R": [sin4[f] / 4096, cos4[f] / 4096],
                 "angle": math.degrees(math.atan2(sin4[f], cos4[f])), "T": [ts4[f] / 4096, 0.5]}
        for w, g in ((want2, m2), (want4, m4)):
            for k in w:
                ok = w[k] == g[k] if isinstance(w[k], str) else close(w[k], g[k])
                expect(ok, f"BTA0 frame {f} {w['material']} {k}: {g[k]} != {w[k]}")
    expect(abs(bta_pose(c, anims[0], 1)["materials"][0]["angle"] - 45.0) < 1e-12, "BTA0 angle 45")

    # BMA0: numFrame 12; diffuse step 4 L 8 (frames 9, 10, 11 stored), specular step 2 L 10 (frame 11
    # stored), alpha step 4 (odd offset, u8).
    kind, c, anims = decode_bytes(files["step4.nsbma"], "step4.nsbma")
    expect(kind == "nsbma" and not c.warnings, f"step4.nsbma: {kind} {c.warnings}")
    dif = [(0, 31, 10), (7, 23, 8), (15, 15, 6), (23, 7, 4), (31, 0, 3), (23, 0, 3), (16, 1, 3), (8, 1, 3),
           (1, 2, 3), (4, 5, 6), (7, 8, 9), (31, 31, 31)]
    spe = [(0, 0, 0), (15, 15, 15), (31, 31, 31), (16, 17, 17), (2, 3, 4), (2, 3, 4), (3, 4, 5), (1, 2, 2),
           (0, 0, 0), (5, 0, 0), (10, 0, 0), (0, 0, 31)]
    alp = [31, 23, 15, 7, 0, 4, 8, 12, 16, 5, 6, 7]
    for f in range(12):
        a, b = bma_pose(c, anims[0], f)["materials"]
        want_a = {"material": "mat_a", "diffuse": list(dif[f]), "ambient": [5, 10, 20], "specular": list(spe[f]),
                  "emission": [31, 31, 31], "alpha": alp[f]}
        want_b = {"material": "mat_b", "diffuse": [31, 0, 0], "ambient": [0, 31, 0], "specular": [0, 0, 31],
                  "emission": [0, 0, 0], "alpha": 20}
        expect(a == want_a, f"BMA0 frame {f} mat_a: {a} != {want_a}")
        expect(b == want_b, f"BMA0 frame {f} mat_b: {b} != {want_b}")

    # BTP0: numFrame 20. m0 keys 0 (A, palA), 5 (C, 255), 6 (B, palB), 15 (A, 255); m1 one key (B, 255);
    # m2 first key at 3 (C, palB) then 10 (B, palA): frames 0..2 use key 0 (warned).
    kind, c, anims = decode_bytes(files["pal255.nsbtp"], "pal255.nsbtp")
    expect(kind == "nsbtp" and len(c.warnings) == 1 and "first key" in c.warnings[0], f"pal255: {c.warnings}")
    for f in range(20):
        m0, m1, m2 = btp_pose(c, anims[0], f)["materials"]
        k0 = 0 if f < 5 else 1 if f < 6 else 2 if f < 15 else 3
        w0 = [("texA", "palA", 0, 0), ("texC", None, 2, 255), ("texB", "palB", 1, 1), ("texA", None, 0, 255)][k0]
        expect((m0["key"], m0["texture"], m0["palette"], m0["texture_index"], m0["palette_index"]) == (k0,) + w0,
               f"BTP0 frame {f} m0: {m0}")
        expect((m1["key"], m1["texture"], m1["palette"], m1["palette_index"]) == (0, "texB", None, 255),
               f"BTP0 frame {f} m1: {m1}")
        k2 = 0 if f < 10 else 1
        w2 = [("texC", "palB"), ("texB", "palA")][k2]
        expect((m2["key"], m2["texture"], m2["palette"]) == (k2,) + w2, f"BTP0 frame {f} m2: {m2}")

    # BVA0
    kind, c, anims = decode_bytes(files["three.nsbva"], "three.nsbva")
    expect(kind == "nsbva" and not c.warnings, f"three.nsbva: {c.warnings}")
    for f in range(13):
        got = [r["visible"] for r in bva_pose(c, anims[0], f)["nodes"]]
        want = [1, 1 if f % 2 == 0 else 0, 1 if f >= 7 else 0]
        expect(got == want, f"BVA0 frame {f}: {got} != {want}")

    # BMD0
    kind, c, parsed = decode_bytes(files["tiny.nsbmd"], "tiny.nsbmd")
    expect(kind == "nsbmd" and not c.warnings, f"tiny.nsbmd: {c.warnings}")
    m = parsed["models"][0]
    nodes = model_pose(m)["nodes"]
    expect([n["name"] for n in nodes] == ["root", "piv", "full"], "BMD0 names")
    expect([n["parent"] for n in nodes] == [None, 0, 1], f"BMD0 parents {[n['parent'] for n in nodes]}")
    expect(nodes[0]["T"] == [0, 0, 0] and nodes[0]["R"] == [1, 0, 0, 0, 1, 0, 0, 0, 1] and nodes[0]["S"] == [1, 1, 1],
           f"BMD0 root {nodes[0]}")
    a = 2896 / 4096
    expect(close(nodes[1]["T"], [1.0, -2.0, 123 / 4096]) and nodes[1]["S"] == [1, 1, 1], f"BMD0 piv T/S {nodes[1]}")
    # pivot 4 = (1,1), -1; A at (0,0), B at (0,2), C = +B at (2,0), D = -A at (2,2)
    expect(close(nodes[1]["R"], [a, 0, -a, 0, -1, 0, -a, 0, -a]), f"BMD0 piv R {nodes[1]['R']}")
    expect(close(nodes[2]["R"], [0, 1, 0, -1, 0, 0, 0, 0, 1]) and nodes[2]["T"] == [0, 0, 0]
           and close(nodes[2]["S"], [2, 1, -1]), f"BMD0 full {nodes[2]}")
    expect(m["materials"] == ["mat0"] and m["shapes"] == ["shp0"], "BMD0 material/shape names")

    # validation: step code 3, BTA0 rot array with FX16, BTP0 bad index, unordered keys, bad SBC opcode
    bad = bytearray(files["step2.nsbta"])
    i = bad.find(struct.pack("<I", srt_info(2, 8, fx16=True)))
    struct.pack_into("<I", bad, i, srt_info(2, 8, fx16=True) | 3 << 30)
    expect_error(lambda: decode_bytes(bytes(bad), "bad"), "step code 3", fails)
    bad = bytearray(files["step2.nsbta"])
    i = bad.find(struct.pack("<I", srt_info(2, 8)))
    struct.pack_into("<I", bad, i, srt_info(2, 8, fx16=True))
    expect_error(lambda: decode_bytes(bytes(bad), "bad"), "FX16 bit", fails)
    bad = bytearray(files["pal255.nsbtp"])
    i = bad.find(struct.pack("<HBB", 6, 1, 1))
    bad[i + 3] = 2
    expect_error(lambda: decode_bytes(bytes(bad), "bad"), "palette index 2", fails)
    bad[i + 3] = 1
    struct.pack_into("<H", bad, i, 5)
    expect_error(lambda: decode_bytes(bytes(bad), "bad"), "not after", fails)
    bad = bytearray(files["tiny.nsbmd"])
    i = bad.find(bytes([0x26, 2, 1, 0, 3]))
    bad[i] = 0x86
    expect_error(lambda: decode_bytes(bytes(bad), "bad"), "SBC opcode 0x86", fails)
    bad[i] = 0x26
    bad[i + 2] = 3
    expect_error(lambda: decode_bytes(bytes(bad), "bad"), "NODEDESC node 2 parent 3", fails)
    bad = bytearray(files["three.nsbva"])
    struct.pack_into("<I", bad, 8, len(bad) + 4)
    expect_error(lambda: decode_bytes(bytes(bad), "bad"), "more than", fails)
    # the Patricia tree: every name reachable by the lookup walk
    names = [b"world_root", b"group1", b"pPlane3", b"pPlane4", b"locator1", b"pPlane3_1", b"a", b"b"]
    nodes_t = patricia(names)
    for e, nm in enumerate(names):
        k = int.from_bytes(nm.ljust(16, b"\0"), "little")
        p, x = 0, nodes_t[0][1]
        while nodes_t[p][0] > nodes_t[x][0]:
            p, x = x, nodes_t[x][2] if (k >> nodes_t[x][0]) & 1 else nodes_t[x][1]
        expect(nodes_t[x][3] == e, f"patricia lookup of {nm} gives entry {nodes_t[x][3]}")

    if args[:1] == ["--write"]:
        os.makedirs(args[1], exist_ok=True)
        for n, data in files.items():
            with open(os.path.join(args[1], n), "wb") as fh:
                fh.write(data)
        print(f"wrote {', '.join(files)} to {args[1]}")
    for f in fails:
        print("FAIL: " + f)
    print(f"selftest: {'ok' if not fails else str(len(fails)) + ' failures'}")
    return 0 if not fails else 1


def expect_error(fn, what, fails):
    try:
        fn()
    except DecodeError as e:
        if what not in str(e):
            fails.append(f"expected an error about '{what}', got: {e}")
        return
    fails.append(f"expected an error about '{what}', none raised")


def main(argv):
    float32 = "--float32" in argv
    argv = [a for a in argv if a != "--float32"]
    if len(argv) == 4 and argv[1] == "check":
        return check(argv[2], argv[3], float32)
    if len(argv) == 4 and argv[1] == "check-files":
        return check_files(argv[2], argv[3], float32)
    if len(argv) >= 2 and argv[1] == "selftest":
        return selftest(argv[2:])
    if len(argv) >= 3 and argv[1] == "decode":
        return decode_main(argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
