#!/usr/bin/env python3
"""Independent check of `animdex ls` / `animdex extract` on disc images and archives.

A second reader written from the format note alone (../shared/formats/containers.md), separately from the
C++ code: GameCube GCM (boot.bin + FST), CISO (a view of the disc), GNT4 FPK (GameCube layout) with Eighting
PRS and GNTool's name restoration, NDS ROMs (FAT + FNT, overlays skipped), NARC (named and nameless),
LZ10/LZ11, ISO9660 (primary descriptor, directory tree) and KH2.IDX + KH2.IMG (CRC names, KH2 decompression,
the B_LK120_RAW block-count fix, world tables 000*.idx). Python 3 standard library only.

Usage:
  containers_reference.py ls FILE                          recursive listing as JSON
  containers_reference.py check ANIMDEX_BINARY PATH...     compare with `animdex ls/extract`
                                                           (exit 0 agree, 1 disagree, 77 = a PATH is missing)
  containers_reference.py selftest                         note's vectors + hand-built images of each kind

Listing rows: path (inside the top container, '/'-separated; nested members follow their container with
path = container path + '/' + inner path), format (container kind, 'nsbca' for decoded BCA0, else null),
size (decoded), stored_size, offset (where the stored bytes start in the parent's data; CISO: logical disc
offset; KH2: block*2048 in KH2.IMG), compression (none/prs/lz10/lz11/kh2), plus 'error' for a member that
cannot be read (the scan goes on) and 'raw_name' for FPK names that were restored.
KH2 names come from ../shared/data/kh2-idx-names.txt (env KH2_IDX_NAMES overrides: ctest points it at the
project's copy of the same list, src/containers/kh2_idx/kh2_idx_names.txt).
"""
import binascii
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

CAP = 64 << 20                     # sanity cap for any decoded member / table
SECTOR = 2048
CONTAINERS = ("gcm", "ciso", "fpk", "nds", "narc", "iso9660", "kh2_idx")
NITRO_MAGICS = (b"BCA0", b"BMD0", b"BTX0", b"BTA0", b"BTP0", b"BMA0", b"BVA0", b"NARC")
GC_MAGIC, WII_MAGIC = 0xC2339F3D, 0x5D1C9EA3
WARNINGS = []


class FormatError(Exception):
    """A violated rule: names the container/member and the byte offset where it was found."""

    def __init__(self, where, offset, message):
        super().__init__(f"{where}: offset 0x{offset:X}: {message}")
        self.where, self.offset, self.message = where, offset, message


def warn(where, offset, message):
    text = f"warning: {where}: offset 0x{offset:X}: {message}"
    WARNINGS.append(text)
    print(text, file=sys.stderr)


def u16le(d, o): return struct.unpack_from("<H", d, o)[0]
def u32le(d, o): return struct.unpack_from("<I", d, o)[0]
def u16be(d, o): return struct.unpack_from(">H", d, o)[0]
def u32be(d, o): return struct.unpack_from(">I", d, o)[0]


def decode_name(raw):
    for enc in ("ascii", "shift_jis"):
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            pass
    return raw.decode("latin-1")


# ----------------------------------------------------------------------------------------------------------
# Byte sources: files are read by seek+read, never whole.

class Source:
    name = "?"
    size = 0

    def read(self, off, n):
        if off < 0 or n < 0 or off + n > self.size:
            raise FormatError(self.name, off, f"range 0x{off:X}+0x{n:X} is outside the data (size 0x{self.size:X})")
        return self._read(off, n) if n else b""

    def slice(self, off, n, name):
        if off < 0 or n < 0 or off + n > self.size:
            raise FormatError(self.name, off, f"range 0x{off:X}+0x{n:X} is outside the data (size 0x{self.size:X})")
        return SliceSource(self, off, n, name)

    def chunks(self, step=1 << 20):
        pos = 0
        while pos < self.size:
            n = min(step, self.size - pos)
            yield self.read(pos, n)
            pos += n


class FileSource(Source):
    def __init__(self, path):
        self.path, self.name = path, path
        self.f = open(path, "rb")
        self.size = os.fstat(self.f.fileno()).st_size

    def _read(self, off, n):
        self.f.seek(off)
        data = self.f.read(n)
        if len(data) != n:
            raise FormatError(self.name, off + len(data), "short read")
        return data


class BytesSource(Source):
    def __init__(self, data, name):
        self.data, self.name, self.size = data, name, len(data)

    def _read(self, off, n):
        return bytes(self.data[off:off + n])


class SliceSource(Source):
    def __init__(self, parent, base, size, name):
        self.parent, self.base, self.size, self.name = parent, base, size, name

    def _read(self, off, n):
        return self.parent.read(self.base + off, n)


class CisoSource(Source):
    """Logical disc bytes of a CISO file: 0x8000-byte header, present blocks in map order, absent = zeros."""

    def __init__(self, src):
        self.src, self.name = src, src.name + " (CISO view)"
        if src.size < 0x8000:
            raise FormatError(src.name, src.size, "CISO header needs 0x8000 bytes")
        head = src.read(0, 0x8000)
        if head[:4] != b"CISO":
            raise FormatError(src.name, 0, "no CISO magic")
        bs = u32le(head, 4)
        if not 0x8000 <= bs <= 16 << 20:
            raise FormatError(src.name, 4, f"CISO block size 0x{bs:X} outside 32 KiB..16 MiB")
        self.bs, self.rank = bs, []
        present = 0
        for i, flag in enumerate(head[8:0x8000]):
            if flag not in (0, 1):
                raise FormatError(src.name, 8 + i, f"CISO map byte {flag} is neither 0 nor 1")
            self.rank.append(present if flag else -1)
            present += flag
        if 0x8000 + present * bs > src.size:
            warn(src.name, src.size, f"{present} present blocks need 0x{0x8000 + present * bs:X} bytes; "
                                     "reads past the end will fail")
        self.size = len(self.rank) * bs

    def _read(self, off, n):
        out = bytearray()
        while n:
            block, within = divmod(off, self.bs)
            take = min(n, self.bs - within)
            r = self.rank[block]
            out += self.src.read(0x8000 + r * self.bs + within, take) if r >= 0 else bytes(take)
            off += take
            n -= take
        return bytes(out)


# ----------------------------------------------------------------------------------------------------------
# Decompressors. Each gets the output size up front and never clamps.

def prs_decode(data, size, where="PRS"):
    """Eighting PRS: control bits MSB first, literal = 1, long-copy word big-endian."""
    if size > CAP:
        raise FormatError(where, 0, f"uncompressed size {size} over the cap")
    out = bytearray(size)
    o = p = 0
    flags = nbits = 0
    n_in = len(data)

    def bit():
        nonlocal flags, nbits, p
        if nbits == 0:
            if p >= n_in:
                raise FormatError(where, p, "input ends where a control byte is needed")
            flags, nbits = data[p], 8
            p += 1
        nbits -= 1
        return (flags >> nbits) & 1

    def byte():
        nonlocal p
        if p >= n_in:
            raise FormatError(where, p, "input ends inside a token")
        p += 1
        return data[p - 1]

    while o < size:
        if bit():
            out[o] = byte()
            o += 1
            continue
        at = p
        if bit() == 0:
            n = ((bit() << 1) | bit()) + 2
            b = byte()
            d = 256 - b
        else:
            w = (byte() << 8) | byte()
            if w == 0:
                raise FormatError(where, at, f"premature end: {o} of {size} bytes produced")
            d = 8192 - (w >> 3)
            n = w & 7
            n = byte() + 1 if n == 0 else n + 2
        if d > o:
            raise FormatError(where, at, f"copy distance {d} reaches before the output start (position {o})")
        if o + n > size:
            raise FormatError(where, at, f"copy of {n} at {o} writes past the output size {size}")
        for _ in range(n):
            out[o] = out[o - d]
            o += 1
    rest = data[p:]
    if sum(1 for x in rest if x) > 4:
        warn(where, p, f"{len(rest)} bytes left after the output was complete")
    return bytes(out)


def lz_header(data, where):
    if len(data) < 4:
        raise FormatError(where, 0, "LZ header needs 4 bytes")
    t = data[0]
    if t not in (0x10, 0x11):
        raise FormatError(where, 0, f"LZ type 0x{t:02X} not supported (only 0x10/0x11)")
    size, p = data[1] | data[2] << 8 | data[3] << 16, 4
    if size == 0:
        if len(data) < 8:
            raise FormatError(where, 4, "LZ extended size needs 8 bytes")
        size, p = u32le(data, 4), 8
    return t, size, p


def lz_decode(data, where="LZ"):
    """LZ10/LZ11: flags MSB first, bit 1 = back-reference."""
    t, size, p = lz_header(data, where)
    if size >= CAP:
        raise FormatError(where, 1, f"LZ output size {size} over the cap")
    out = bytearray(size)
    o = 0
    n_in = len(data)
    while o < size:
        if p >= n_in:
            raise FormatError(where, p, "input ends where a flag byte is needed")
        flags = data[p]
        p += 1
        for k in range(7, -1, -1):
            if o >= size:
                break
            if not (flags >> k) & 1:
                if p >= n_in:
                    raise FormatError(where, p, "input ends inside a literal")
                out[o] = data[p]
                o += 1
                p += 1
                continue
            at = p
            if p + 2 > n_in:
                raise FormatError(where, p, "input ends inside a token")
            b0, b1 = data[p], data[p + 1]
            if t == 0x10:
                n, d = (b0 >> 4) + 3, ((b0 & 15) << 8 | b1) + 1
                p += 2
            else:
                kk = b0 >> 4
                if kk >= 2:
                    n, d = kk + 1, ((b0 & 15) << 8 | b1) + 1
                    p += 2
                elif kk == 0:
                    if p + 3 > n_in:
                        raise FormatError(where, p, "input ends inside a token")
                    b2 = data[p + 2]
                    n, d = ((b0 & 15) << 4 | b1 >> 4) + 0x11, ((b1 & 15) << 8 | b2) + 1
                    p += 3
                else:
                    if p + 4 > n_in:
                        raise FormatError(where, p, "input ends inside a token")
                    b2, b3 = data[p + 2], data[p + 3]
                    n, d = ((b0 & 15) << 12 | b1 << 4 | b2 >> 4) + 0x111, ((b2 & 15) << 8 | b3) + 1
                    p += 4
            if d > o:
                raise FormatError(where, at, f"copy distance {d} reaches before the output start (position {o})")
            if o + n > size:
                raise FormatError(where, at, f"copy of {n} at {o} writes past the output size {size}")
            if d >= n:
                out[o:o + n] = out[o - d:o - d + n]
                o += n
            else:
                for _ in range(n):
                    out[o] = out[o - d]
                    o += 1
    if n_in - p >= 4:
        warn(where, p, f"{n_in - p} unread bytes after the LZ stream")
    return bytes(out)


def kh2_decode(data, where="KH2"):
    """KH2 compression, read backwards from the last non-zero byte (the key)."""
    k = len(data) - 1
    while k >= 0 and data[k] == 0:
        k -= 1
    if k < 0:
        return b""
    key = data[k]
    if k < 4:
        raise FormatError(where, k, "no room for the 4-byte size before the key")
    size = u32be(data, k - 4)
    if size > CAP:
        raise FormatError(where, k - 4, f"decompressed size {size} over the cap")
    out = bytearray(size)
    src = k - 5
    p = size - 1

    def take():
        nonlocal src
        if src < 0:
            raise FormatError(where, 0, f"input exhausted with {p + 1} output bytes missing")
        src -= 1
        return data[src + 1]

    while p >= 0:
        x = take()
        if x != key:
            out[p] = x
            p -= 1
            continue
        at = src + 1
        d = take()
        if d == 0:
            out[p] = key
            p -= 1
            continue
        n = take() + 3
        if p + d >= size:
            raise FormatError(where, at, f"copy distance {d} at {p} reaches past the output end {size}")
        if p - n + 1 < 0:
            raise FormatError(where, at, f"copy of {n} at {p} runs below the output start")
        for _ in range(n):
            out[p] = out[p + d]
            p -= 1
    if src >= 0:
        warn(where, src, f"{src + 1} input bytes not consumed")
    return bytes(out)


# ----------------------------------------------------------------------------------------------------------
# KH2 name hashes

REV8 = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def kh2_hash32(name):
    """CRC-32/BZIP2 (non-reflected) via the reflected zlib CRC of bit-reversed bytes."""
    c = binascii.crc32(name.translate(REV8)) & 0xFFFFFFFF
    return int(f"{c:032b}"[::-1], 2)


def kh2_hash16(name):
    """CRC-16/GENIBUS over the bytes in reverse order."""
    return binascii.crc_hqx(name[::-1], 0xFFFF) ^ 0xFFFF


def crc_bitwise(data, width, poly, init, xorout):
    """Plain MSB-first CRC, used by the self-test to cross-check the fast versions."""
    top, mask, c = 1 << (width - 1), (1 << width) - 1, init
    for b in data:
        c ^= b << (width - 8)
        for _ in range(8):
            c = ((c << 1) ^ poly) & mask if c & top else (c << 1) & mask
    return c ^ xorout


_NAMES = None
NAMES_PATH = os.environ.get("KH2_IDX_NAMES") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data", "kh2-idx-names.txt")


def kh2_names():
    global _NAMES
    if _NAMES is None:
        _NAMES = {}
        if os.path.exists(NAMES_PATH):
            with open(NAMES_PATH, "rb") as f:
                for line in f:
                    line = line.rstrip(b"\r\n")
                    if line:
                        _NAMES[(kh2_hash32(line), kh2_hash16(line))] = line.decode("latin-1")
        else:
            warn(NAMES_PATH, 0, "KH2 name list missing: every entry is printed as @HASH32-HASH16")
    return _NAMES


# ----------------------------------------------------------------------------------------------------------
# Members

class Member:
    def __init__(self, path, offset, stored_size, size, compression="none", fmt=None):
        self.path, self.offset, self.stored_size, self.size = path, offset, stored_size, size
        self.compression, self.format = compression, fmt
        self.src = None        # Source of the stored bytes
        self.decoder = None    # bytes -> bytes for compressed members
        self.children = None   # list of Member when this member is a container
        self.error = None
        self.raw_name = None

    def decoded(self):
        if self.error and self.src is None:
            raise FormatError(self.path, self.offset, self.error)
        data = self.src.read(0, self.src.size)
        if self.compression == "none":
            return data
        out = self.decoder(data)
        if len(out) != self.size:
            raise FormatError(self.path, self.offset, f"decoded {len(out)} bytes, expected {self.size}")
        return out

    def sha256(self):
        h = hashlib.sha256()
        if self.compression == "none" and self.src is not None:
            for chunk in self.src.chunks():
                h.update(chunk)
        else:
            h.update(self.decoded())
        return h.hexdigest()


def member_slice(m, parent, where):
    """Attach the stored range; an out-of-range member is kept with an error (the scan goes on)."""
    try:
        m.src = parent.slice(m.offset, m.stored_size, f"{where}/{m.path}")
    except FormatError as e:
        m.error = str(e)
    return m


def classify_raw(m, where):
    """Formats recognisable from a raw member's first bytes (NARC is a container, BCA0 is nsbca)."""
    if m.src is None or m.size < 4:
        return
    head = m.src.read(0, 4)
    if head == b"BCA0":
        m.format = "nsbca"
    elif head == b"NARC":
        nested(m, "narc", lambda: open_narc(m.src, f"{where}/{m.path}"))


def nested(m, kind, opener):
    m.format = kind
    try:
        m.children = opener()
    except FormatError as e:
        m.error = str(e)
        m.children = None


def classify_nitro(m, where):
    """NARC/NDS members: LZ10/LZ11 counts only if it decodes to a known Nitro magic; else raw."""
    if m.src is None:
        return
    if m.size >= 4:
        first = m.src.read(0, 1)[0]
        if first in (0x10, 0x11):
            stored = m.src.read(0, m.src.size)
            try:
                _, size, _ = lz_header(stored, m.path)
                decoded = lz_decode(stored, f"{where}/{m.path}") if size < CAP else None
            except FormatError:
                decoded = None
            if decoded is not None and decoded[:4] in NITRO_MAGICS:
                m.compression = "lz10" if first == 0x10 else "lz11"
                m.size = len(decoded)
                m.decoder = lambda data, w=f"{where}/{m.path}": lz_decode(data, w)
                if decoded[:4] == b"BCA0":
                    m.format = "nsbca"
                elif decoded[:4] == b"NARC":
                    inner = BytesSource(decoded, f"{where}/{m.path} (decoded)")
                    nested(m, "narc", lambda: open_narc(inner, inner.name))
                return
    classify_raw(m, where)


# ----------------------------------------------------------------------------------------------------------
# Nitro: FNT, NARC, NDS

def parse_fnt(fnt, where, base):
    """NitroFS file name table -> [(file id, path)]. base = absolute position of the FNT for messages."""
    size = len(fnt)
    if size < 8:
        raise FormatError(where, base, f"FNT of {size} bytes has no root entry")
    count = u16le(fnt, 6)
    if count < 1:
        raise FormatError(where, base + 6, "FNT directory count is 0")
    if 8 * count > size:
        raise FormatError(where, base + 6, f"{count} directories need {8 * count} bytes, FNT has {size}")
    out, visited, stack = [], set(), [(0xF000, "")]
    while stack:
        did, prefix = stack.pop()
        k = did - 0xF000
        if did in visited:
            raise FormatError(where, base + 8 * k, f"directory 0x{did:04X} reached twice (cycle)")
        visited.add(did)
        p = u32le(fnt, 8 * k)
        fid = u16le(fnt, 8 * k + 4)
        if p >= size:
            raise FormatError(where, base + 8 * k, f"sub-table offset 0x{p:X} outside the FNT (size 0x{size:X})")
        children = []
        while True:
            if p >= size:
                raise FormatError(where, base + p, "sub-table runs past the end of the FNT")
            t = fnt[p]
            if t == 0:
                break
            if t == 0x80:
                raise FormatError(where, base + p, "reserved sub-table type 0x80")
            n = t & 0x7F
            if p + 1 + n > size:
                raise FormatError(where, base + p, f"name of {n} bytes runs past the end of the FNT")
            name = decode_name(fnt[p + 1:p + 1 + n])
            if t < 0x80:
                out.append((fid, prefix + name))
                fid += 1
                p += 1 + n
            else:
                if p + 3 + n > size:
                    raise FormatError(where, base + p, "directory record runs past the end of the FNT")
                child = u16le(fnt, p + 1 + n)
                if not 0xF001 <= child < 0xF000 + count:
                    raise FormatError(where, base + p + 1 + n, f"child directory ID 0x{child:04X} outside "
                                                               f"0xF001..0x{0xF000 + count - 1:04X}")
                children.append((child, prefix + name + "/"))
                p += 3 + n
        stack.extend(reversed(children))
    return out


def open_narc(src, where):
    size = src.size
    if size < 16:
        raise FormatError(where, 0, "NARC header needs 16 bytes")
    h = src.read(0, 16)
    if h[:4] != b"NARC":
        raise FormatError(where, 0, "no NARC magic")
    if h[4:6] != b"\xFE\xFF":
        raise FormatError(where, 4, f"byte-order mark {h[4:6].hex()} is not FE FF")
    if u16le(h, 6) != 0x0100:
        warn(where, 6, f"NARC version 0x{u16le(h, 6):04X} (expected 0x0100)")
    if u32le(h, 8) != size:
        warn(where, 8, f"header file size {u32le(h, 8)} differs from the real size {size}")
    if u16le(h, 12) != 16:
        raise FormatError(where, 12, f"header size {u16le(h, 12)} (expected 16)")
    if u16le(h, 14) != 3:
        raise FormatError(where, 14, f"chunk count {u16le(h, 14)} (expected 3)")
    pos, chunks = 16, {}
    for tag in (b"BTAF", b"BTNF", b"GMIF"):
        if pos + 8 > size:
            raise FormatError(where, pos, f"chunk {tag.decode()} header runs past the end")
        ch = src.read(pos, 8)
        if ch[:4] != tag:
            raise FormatError(where, pos, f"expected chunk {tag.decode()}, found {ch[:4]!r}")
        csize = u32le(ch, 4)
        if csize < 8 or pos + csize > size:
            raise FormatError(where, pos + 4, f"chunk {tag.decode()} size {csize} does not fit the file")
        chunks[tag] = (pos, csize)
        pos += csize
    btaf, btaf_size = chunks[b"BTAF"]
    if btaf_size < 12:
        raise FormatError(where, btaf + 4, "BTAF shorter than 12 bytes")
    head = src.read(btaf + 8, 4)
    count = u16le(head, 0)
    if u16le(head, 2) != 0:
        warn(where, btaf + 10, "BTAF reserved field is not 0")
    if btaf_size != 12 + 8 * count:
        raise FormatError(where, btaf + 4, f"BTAF size {btaf_size} != 12 + 8 x {count}")
    table = src.read(btaf + 12, 8 * count)
    btnf, btnf_size = chunks[b"BTNF"]
    names = parse_fnt(src.read(btnf + 8, btnf_size - 8), where + " BTNF", btnf + 8)
    gmif, gmif_size = chunks[b"GMIF"]
    data, data_len = gmif + 8, gmif_size - 8
    path_of = {i: str(i) for i in range(count)}
    if names:
        path_of = {}
        for fid, path in names:
            if fid >= count:
                raise FormatError(where, btnf + 8, f"FNT names file ID {fid}, BTAF has {count} files")
            path_of[fid] = path
        for i in range(count):
            if i not in path_of:
                warn(where, btnf + 8, f"file {i} has no name in the FNT; listed as '{i}'")
                path_of[i] = str(i)
    members = []
    for i in range(count):
        start, end = u32le(table, 8 * i), u32le(table, 8 * i + 4)
        m = Member(path_of[i], data + start, max(0, end - start), max(0, end - start))
        if not start <= end <= data_len:
            m.error = str(FormatError(where, btaf + 12 + 8 * i, f"member {i} range 0x{start:X}..0x{end:X} "
                                                                 f"outside GMIF data (0x{data_len:X} bytes)"))
        else:
            member_slice(m, src, where)
            classify_nitro(m, where)
        members.append(m)
    return members


NDS_LOGO_CRC = 0xCF56


def looks_like_nds(src):
    if src.size < 0x200:
        return False
    h = src.read(0, 0x200)
    return u32le(h, 0x84) == 0x4000 and u16le(h, 0x15C) == NDS_LOGO_CRC


def open_nds(src, where):
    size = src.size
    if size < 0x160:
        raise FormatError(where, 0, "NDS header needs 0x160 bytes")
    h = src.read(0, 0x160)
    fnt_off, fnt_size, fat_off, fat_size = (u32le(h, o) for o in (0x40, 0x44, 0x48, 0x4C))
    if u32le(h, 0x84) != 0x4000:
        warn(where, 0x84, f"header size 0x{u32le(h, 0x84):X} (expected 0x4000)")
    if fnt_off + fnt_size > size:
        raise FormatError(where, 0x40, f"FNT 0x{fnt_off:X}+0x{fnt_size:X} outside the ROM (0x{size:X})")
    if fat_off + fat_size > size:
        raise FormatError(where, 0x48, f"FAT 0x{fat_off:X}+0x{fat_size:X} outside the ROM (0x{size:X})")
    if fat_size % 8:
        warn(where, 0x4C, f"FAT size {fat_size} is not a multiple of 8")
    fat = src.read(fat_off, fat_size - fat_size % 8)
    nfat = len(fat) // 8
    members = []
    for fid, path in parse_fnt(src.read(fnt_off, fnt_size), where + " FNT", fnt_off):
        if fid >= nfat:
            m = Member(path, 0, 0, 0)
            m.error = str(FormatError(where, fnt_off, f"'{path}' has file ID {fid}, FAT has {nfat} entries"))
            members.append(m)
            continue
        start, end = u32le(fat, 8 * fid), u32le(fat, 8 * fid + 4)
        m = Member(path, start, max(0, end - start), max(0, end - start))
        if not start <= end <= size:
            m.error = str(FormatError(where, fat_off + 8 * fid, f"file {fid} range 0x{start:X}..0x{end:X} "
                                                                 f"outside the ROM (0x{size:X})"))
        else:
            member_slice(m, src, where)
            classify_nitro(m, where)
        members.append(m)
    return members


# ----------------------------------------------------------------------------------------------------------
# GNT4 FPK (GameCube layout)

FPK_PREFIXES = (("hr/", "chr/"), ("te/", "unite/"), ("aki/", "maki/"), ("ki/", "maki/"), ("ame/", "game/"),
                ("me/", "game/"), ("tg/", "stg/"), ("g/", "stg/"), ("ru/", "furu/"), ("uro/", "kuro/"))


def fpk_restore(raw):
    """GNTool's restoration; only names stored with exactly 15 bytes were truncated."""
    name = decode_name(raw)
    if len(raw) != 15:
        return name
    for short, full in FPK_PREFIXES:
        if name.startswith(short):
            return full + name[len(short):]
    if name.endswith("4201.txg"):
        return "vs/" + name
    return name


def open_fpk(src, where):
    size = src.size
    if size < 16:
        raise FormatError(where, 0, f"FPK of {size} bytes is shorter than its 16-byte header")
    h = src.read(0, 16)
    count, total = u32be(h, 4), u32be(h, 12)
    if count >= 1 << 31:
        raise FormatError(where, 4, f"entry count {count} is negative as a signed value")
    if 16 + 32 * count > size:
        raise FormatError(where, 4, f"{count} entries need {16 + 32 * count} bytes, file has {size}")
    if total != size:
        warn(where, 12, f"header total size {total} differs from the real size {size}")
    table_end = 16 + 32 * count
    table = src.read(16, 32 * count)
    members = []
    for i in range(count):
        e = table[32 * i:32 * i + 32]
        at = 16 + 32 * i
        nul = e[:16].find(b"\0")
        if nul < 0:
            warn(where, at, f"entry {i} name has no NUL within 16 bytes")
            nul = 16
        raw = e[:nul]
        if u32be(e, 16) != 0:
            warn(where, at + 16, f"entry {i} field 0x10 is {u32be(e, 16)}, expected 0")
        off, stored, usize = u32be(e, 20), u32be(e, 24), u32be(e, 28)
        path = fpk_restore(raw)
        m = Member(path, off, stored, usize, "none" if stored == usize else "prs")
        if path != decode_name(raw):
            m.raw_name = decode_name(raw)
        problem = None
        for rel, value, what in ((20, off, "offset"), (24, stored, "stored size"), (28, usize, "size")):
            if value >= 1 << 31 and problem is None:
                problem = FormatError(where, at + rel, f"entry {i} {what} 0x{value:X} is negative as signed")
        if problem is None and off < table_end:
            problem = FormatError(where, at + 20, f"entry {i} offset 0x{off:X} inside the entry table "
                                                  f"(ends 0x{table_end:X})")
        if problem is None and off + stored > size:
            problem = FormatError(where, at + 24, f"entry {i} 0x{off:X}+0x{stored:X} past the FPK end 0x{size:X}")
        if problem is None and usize > CAP:
            problem = FormatError(where, at + 28, f"entry {i} size {usize} over the cap")
        if problem:
            m.error = str(problem)
        else:
            member_slice(m, src, where)
            if m.compression == "prs":
                m.decoder = lambda data, n=usize, w=f"{where}/{path}": prs_decode(data, n, w)
            else:
                classify_raw(m, where)
        members.append(m)
    return members


# ----------------------------------------------------------------------------------------------------------
# GameCube disc (GCM) and CISO

def open_gcm(src, where):
    if src.size < 0x440:
        raise FormatError(where, 0, "boot.bin needs 0x440 bytes")
    boot = src.read(0, 0x440)
    if u32be(boot, 0x18) == WII_MAGIC:
        raise FormatError(where, 0x18, "Wii disc (encrypted partitions) is not supported")
    if u32be(boot, 0x1C) != GC_MAGIC:
        raise FormatError(where, 0x1C, "no GameCube magic 0xC2339F3D")
    fst_off, fst_size = u32be(boot, 0x424), u32be(boot, 0x428)
    if not 12 <= fst_size <= CAP:
        raise FormatError(where, 0x428, f"FST size {fst_size} outside 12..{CAP}")
    if fst_off + fst_size > src.size:
        raise FormatError(where, 0x424, f"FST 0x{fst_off:X}+0x{fst_size:X} outside the image (0x{src.size:X})")
    fst = src.read(fst_off, fst_size)
    if fst[0] != 1:
        raise FormatError(where, fst_off, "FST root is not a directory")
    count = u32be(fst, 8)
    if count < 1 or 12 * count > fst_size:
        raise FormatError(where, fst_off + 8, f"{count} FST entries do not fit {fst_size} bytes")
    if fst[-1] != 0:
        raise FormatError(where, fst_off + fst_size - 1, "last FST byte is not 0")
    strings = 12 * count
    stack = [(0, count, "")]          # (index, next, path prefix)
    members = []
    for i in range(1, count):
        while i >= stack[-1][1]:
            stack.pop()
        at = 12 * i
        kind, name_off = fst[at], u32be(fst, at) & 0xFFFFFF
        a, b = u32be(fst, at + 4), u32be(fst, at + 8)
        if strings + name_off >= fst_size:
            raise FormatError(where, fst_off + at + 1, f"entry {i} name offset 0x{name_off:X} outside the FST")
        end = fst.index(b"\0", strings + name_off)
        name = decode_name(fst[strings + name_off:end])
        parent_index, parent_next, prefix = stack[-1]
        if kind == 1:
            if a != parent_index:
                raise FormatError(where, fst_off + at + 4, f"directory {i} parent {a}, enclosing directory "
                                                           f"is {parent_index}")
            if not i < b <= parent_next:
                raise FormatError(where, fst_off + at + 8, f"directory {i} next {b} outside {i + 1}..{parent_next}")
            stack.append((i, b, prefix + name + "/"))
        elif kind == 0:
            m = Member(prefix + name, a, b, b)
            member_slice(m, src, where)
            if m.src is not None:
                if name.lower().endswith(".fpk"):
                    nested(m, "fpk", lambda s=m.src, p=prefix + name: open_fpk(s, f"{where}/{p}"))
                else:
                    classify_raw(m, where)
            members.append(m)
        else:
            raise FormatError(where, fst_off + at, f"entry {i} type {kind} is neither file (0) nor directory (1)")
    return members


def open_ciso(src, where):
    return open_gcm(CisoSource(src), where)


# ----------------------------------------------------------------------------------------------------------
# ISO9660

def both16(d, o, where, base):
    le, be = u16le(d, o), u16be(d, o + 2)
    if le != be:
        warn(where, base + o, f"both-endian u16 disagrees: LE {le}, BE {be}")
    return le


def both32(d, o, where, base):
    le, be = u32le(d, o), u32be(d, o + 4)
    if le != be:
        warn(where, base + o, f"both-endian u32 disagrees: LE {le}, BE {be}")
    return le


def iso_record(d, o, where, base):
    length, namelen = d[o], d[o + 32]
    if length < 33 + namelen:
        raise FormatError(where, base + o, f"record length {length} < 33 + name length {namelen}")
    return dict(extent=both32(d, o + 2, where, base), length=both32(d, o + 10, where, base), flags=d[o + 25],
                name=d[o + 33:o + 33 + namelen])


def open_iso(src, where):
    pvd = None
    for i in range(32):
        at = 0x8000 + SECTOR * i
        if at + SECTOR > src.size:
            raise FormatError(where, at, "volume descriptors run past the end of the image")
        d = src.read(at, SECTOR)
        if d[1:6] != b"CD001":
            raise FormatError(where, at + 1, "volume descriptor without CD001")
        if d[6] != 1:
            warn(where, at + 6, f"volume descriptor version {d[6]}")
        if d[0] == 255:
            break
        if d[0] == 1 and pvd is None:
            pvd = (at, d)
    else:
        raise FormatError(where, 0x8000, "no terminator within 32 volume descriptors")
    if pvd is None:
        raise FormatError(where, 0x8000, "no primary volume descriptor")
    at, d = pvd
    both32(d, 0x50, where, at)
    block = both16(d, 0x80, where, at)
    if block != SECTOR:
        raise FormatError(where, at + 0x80, f"logical block size {block} (only 2048 supported)")
    root = iso_record(d, 0x9C, where, at)
    if not root["flags"] & 2:
        raise FormatError(where, at + 0x9C + 25, "root record is not a directory")
    files, visited, stack = [], set(), [(root["extent"], root["length"], "", 1, at + 0x9C)]
    while stack:
        extent, length, prefix, depth, rec_at = stack.pop()
        if extent in visited:
            raise FormatError(where, rec_at, f"directory extent {extent} visited twice (cycle)")
        visited.add(extent)
        if depth > 8:
            raise FormatError(where, rec_at, f"directory '{prefix}' is nested deeper than 8 levels")
        base = extent * SECTOR
        if base + length > src.size:
            raise FormatError(where, rec_at, f"directory extent 0x{base:X}+0x{length:X} outside the image")
        data = src.read(base, length)
        subdirs = []
        for sector in range(0, length, SECTOR):
            o, end = sector, min(sector + SECTOR, length)
            while o < end:
                n = data[o]
                if n == 0:
                    break
                if o + n > end or o + 33 > end:
                    raise FormatError(where, base + o, "directory record crosses a sector boundary")
                r = iso_record(data, o, where, base)
                if r["name"] not in (b"\0", b"\1"):
                    name = decode_name(r["name"])
                    if not r["flags"] & 2 and ";" in name:
                        name = name[:name.rindex(";")]
                    if r["flags"] & 2:
                        subdirs.append((r["extent"], r["length"], prefix + name + "/", depth + 1, base + o))
                    else:
                        files.append((prefix + name, r, base + o))
                o += n
        stack.extend(reversed(subdirs))
    members, by_dir = [], {}
    for path, r, rec_at in files:
        m = Member(path, r["extent"] * SECTOR, r["length"], r["length"])
        if r["flags"] & 0x80:
            m.error = str(FormatError(where, rec_at, f"'{path}' is a multi-extent file (not supported)"))
        else:
            member_slice(m, src, where)
        members.append(m)
        d, _, base_name = path.rpartition("/")
        by_dir.setdefault(d.lower(), {})[base_name.lower()] = m
    for m in members:
        if m.src is None:
            continue
        d, _, base_name = m.path.rpartition("/")
        stem, dot, ext = base_name.rpartition(".")
        img = by_dir[d.lower()].get((stem + ".img").lower()) if dot and ext.lower() == "idx" else None
        if img is not None and kh2_idx_size_ok(m.src):
            if img.src is None:
                m.format, m.error = "kh2_idx", f"{where}/{img.path}: {img.error}"
            else:
                nested(m, "kh2_idx", lambda s=m.src, i=img.src, p=m.path: open_kh2(s, i, f"{where}/{p}"))
        else:
            classify_raw(m, where)
    return members


# ----------------------------------------------------------------------------------------------------------
# KH2.IDX + KH2.IMG

WORLD_TABLE = re.compile(r"^000[^/]*\.idx$")


def kh2_idx_size_ok(src):
    return src.size >= 4 and src.size == 4 + 16 * u32le(src.read(0, 4), 0)


def kh2_stored_blocks(descriptor, size):
    """Block count of a compressed entry, with OpenKh's fix (bit 12) for big entries like B_LK120_RAW."""
    field = descriptor & 0x3FFF
    if descriptor & 0x4000 and size >= 0x1000000:
        field |= 0x1000
    return field + 1


def open_kh2(idx, img, where, world=False):
    if idx.size < 4:
        raise FormatError(where, 0, "IDX needs a 4-byte count")
    count = u32le(idx.read(0, 4), 0)
    if idx.size != 4 + 16 * count:
        raise FormatError(where, 0, f"IDX size {idx.size} != 4 + 16 x {count}")
    table = idx.read(4, 16 * count)
    names = kh2_names()
    members, previous = [], -1
    for i in range(count):
        at = 4 + 16 * i
        h32, h16, desc, block, size = struct.unpack_from("<IHHII", table, 16 * i)
        if h32 < previous:
            warn(where, at, f"entry {i} breaks the Hash32 order")
        previous = h32
        path = names.get((h32, h16), f"@{h32:08X}-{h16:04X}")
        compressed = bool(desc & 0x4000)
        if compressed and desc & 0x8000:
            warn(where, at + 6, f"entry {i} ({path}) is both streamed and compressed")
        stored = kh2_stored_blocks(desc, size) * SECTOR if compressed else size
        m = Member(path, block * SECTOR, stored, size, "kh2" if compressed else "none")
        if compressed and size > CAP:
            m.error = str(FormatError(where, at + 12, f"entry {i} ({path}) size {size} over the cap"))
            members.append(m)
            continue
        member_slice(m, img, where)
        if m.src is not None:
            if compressed:
                m.decoder = lambda data, w=f"{where}/{path}": kh2_decode(data, w)
            if not world and WORLD_TABLE.match(path):
                def open_world(m=m, path=path):
                    data = m.decoded()
                    inner = BytesSource(data, f"{where}/{path}")
                    if not kh2_idx_size_ok(inner):
                        raise FormatError(inner.name, 0, "world table is not an IDX (size != 4 + 16 x count)")
                    return open_kh2(inner, img, inner.name, world=True)
                nested(m, "kh2_idx", open_world)
            elif not compressed:
                classify_raw(m, where)
        members.append(m)
    return members


def kh2_sibling_img(path):
    folder, base = os.path.split(path)
    stem = os.path.splitext(base)[0]
    entries = os.listdir(folder or ".")
    for exact in (True, False):
        for e in sorted(entries):
            s, ext = os.path.splitext(e)
            if ext.lower() == ".img" and (s == stem if exact else s.lower() == stem.lower()):
                return os.path.join(folder, e)
    return None


# ----------------------------------------------------------------------------------------------------------
# Top level

REJECT = ((b"\x01\xC0\x0B\xB1", "GCZ"), (b"WIA\x01", "WIA"), (b"RVZ\x01", "RVZ"), (b"\xAE\x0F\x38\xA2", "TGC"),
          (b"WBFS", "WBFS"))


def detect(path):
    """Container kind of a file on disk (None when it is not one we read)."""
    src = FileSource(path)
    try:
        head = src.read(0, min(src.size, 0x40))
        for magic, what in REJECT:
            if head.startswith(magic):
                return "reject:" + what
        if src.size >= 0x204 and src.read(0x200, 4) == b"NKIT":
            return "reject:NKit"
        if head[:4] == b"CISO":
            return "ciso"
        if len(head) >= 0x20 and (u32be(head, 0x1C) == GC_MAGIC or u32be(head, 0x18) == WII_MAGIC):
            return "gcm"
        if head[:4] == b"NARC":
            return "narc"
        if src.size >= 0x8006 and src.read(0x8001, 5) == b"CD001":
            return "iso9660"
        ext = os.path.splitext(path)[1].lower()
        if ext == ".fpk":
            return "fpk"
        if ext == ".nds" or looks_like_nds(src):
            return "nds"
        if ext == ".idx" and kh2_idx_size_ok(src) and kh2_sibling_img(path):
            return "kh2_idx"
        return None
    finally:
        src.f.close()


def open_top(path):
    kind = detect(path)
    if kind is None:
        raise FormatError(path, 0, "not a container this reader knows")
    if kind.startswith("reject:"):
        raise FormatError(path, 0, f"{kind[7:]} image: convert to ISO with Dolphin (Convert File)")
    src = FileSource(path)
    if kind == "kh2_idx":
        img = kh2_sibling_img(path)
        if img is None:
            raise FormatError(path, 0, "no sibling .img next to the .idx")
        return kind, open_kh2(src, FileSource(img), path)
    opener = dict(ciso=open_ciso, gcm=open_gcm, narc=open_narc, iso9660=open_iso, fpk=open_fpk, nds=open_nds)
    return kind, opener[kind](src, path)


def flatten(members, prefix=""):
    for m in members:
        full = prefix + m.path
        row = dict(path=full, format=m.format, size=m.size, stored_size=m.stored_size, offset=m.offset,
                   compression=m.compression)
        if m.raw_name is not None:
            row["raw_name"] = m.raw_name
        if m.error:
            row["error"] = m.error
        yield row, m
        if m.children:
            yield from flatten(m.children, full + "/")


def listing(path):
    kind, members = open_top(path)
    return kind, list(flatten(members))


# ----------------------------------------------------------------------------------------------------------
# check: compare with animdex

def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def check(binary, paths):
    for p in paths:
        if not os.path.exists(p):
            print(f"skipped: {p} not found")
            return 77
    targets = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                for name in sorted(names):
                    f = os.path.join(root, name)
                    if os.path.isfile(f) and detect(f) is not None:
                        targets.append(f)
        else:
            targets.append(p)
    problems, containers, members, compared = [], 0, 0, 0

    def bad(text):
        problems.append(text)
        print(text)

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "member.bin")
        for path in targets:
            containers += 1
            try:
                _, mine = listing(path)
                mine_error = None
            except (FormatError, OSError) as e:
                mine, mine_error = [], str(e)
            run = subprocess.run([binary, "ls", path, "--recursive", "--format", "json"],
                                 capture_output=True, text=True)
            if mine_error or run.returncode:
                if mine_error and run.returncode:
                    print(f"note: {path}: both refuse (reference: {mine_error}; animdex: "
                          f"{run.stderr.strip()[:200]})")
                elif mine_error:
                    bad(f"{path}: reference refuses ({mine_error}) but animdex lists it")
                else:
                    bad(f"{path}: animdex ls failed (exit {run.returncode}): {run.stderr.strip()[:300]}")
                continue
            try:
                theirs_list = json.loads(run.stdout)
            except ValueError as e:
                bad(f"{path}: animdex ls output is not JSON: {e}")
                continue
            theirs = {}
            for row in theirs_list:
                if row.get("path") in theirs:
                    bad(f"{path}: animdex lists '{row.get('path')}' twice")
                theirs[row.get("path")] = row
            seen = set()
            for row, m in mine:
                p = row["path"]
                if p in seen:
                    bad(f"{path}: reference lists '{p}' twice")
                seen.add(p)
                members += 1
                other = theirs.get(p)
                if other is None:
                    bad(f"{path}: '{p}' missing from animdex's listing")
                    continue
                for key in ("size", "stored_size", "offset", "compression"):
                    if other.get(key) != row[key]:
                        bad(f"{path}: '{p}' {key}: animdex {other.get(key)!r}, reference {row[key]!r}")
                if row["format"] is not None and other.get("format") != row["format"]:
                    bad(f"{path}: '{p}' format: animdex {other.get('format')!r}, reference {row['format']!r}")
                elif row["format"] is None and other.get("format") in CONTAINERS:
                    bad(f"{path}: '{p}' format: animdex {other.get('format')!r}, reference: not a container")
                if row["format"] in CONTAINERS:
                    continue
                try:
                    want = m.sha256()
                    want_error = None
                except FormatError as e:
                    want, want_error = None, str(e)
                if os.path.exists(out):
                    os.remove(out)
                ext = subprocess.run([binary, "extract", path, p, "--out", out], capture_output=True, text=True)
                if ext.returncode or not os.path.exists(out):
                    if want_error:
                        print(f"note: {path}: '{p}' both refuse (reference: {want_error})")
                    else:
                        bad(f"{path}: '{p}' animdex extract failed (exit {ext.returncode}): {ext.stderr.strip()[:300]}")
                    continue
                if want_error:
                    bad(f"{path}: '{p}' reference cannot decode ({want_error}) but animdex extracted it")
                    continue
                got = file_sha256(out)
                if got != want:
                    bad(f"{path}: '{p}' bytes differ: animdex sha256 {got}, reference {want}")
                compared += os.path.getsize(out)
            for p in sorted(set(theirs) - seen, key=str):
                bad(f"{path}: '{p}' listed by animdex only")
    verdict = "all agree" if not problems else f"{len(problems)} disagreements"
    print(f"{containers} containers, {members} members, {compared} bytes compared, {verdict}")
    return 0 if not problems else 1


# ----------------------------------------------------------------------------------------------------------
# Self-test: writers for tiny images of each kind, plus the note's vectors

def prs_encode(data):
    """GNTool-style greedy PRS compressor (window 8191, max length 256), ends with bits 0,1 + 00 00 00."""
    out, state = bytearray(), {"ctrl": -1, "used": 8}

    def put_bit(b):
        if state["used"] == 8:
            state["ctrl"], state["used"] = len(out), 0
            out.append(0)
        out[state["ctrl"]] |= b << (7 - state["used"])
        state["used"] += 1

    i = 0
    while i < len(data):
        best_n = best_d = 0
        for d in range(1, min(i, 8191) + 1):
            n = 0
            while n < 256 and i + n < len(data) and data[i + n] == data[i + n - d]:
                n += 1
            if n > best_n:
                best_n, best_d = n, d
                if n == 256:
                    break
        if 2 <= best_n <= 5 and best_d <= 256:
            for b in (0, 0, (best_n - 2) >> 1, (best_n - 2) & 1):
                put_bit(b)
            out.append((256 - best_d) & 0xFF)
        elif best_n >= 3:
            put_bit(0)
            put_bit(1)
            low = best_n - 2 if best_n <= 9 else 0
            w = ((8192 - best_d) << 3) | low
            out += bytes([w >> 8, w & 0xFF])
            if not low:
                out.append(best_n - 1)
        else:
            best_n = 1
            put_bit(1)
            out.append(data[i])
        i += best_n
    put_bit(0)
    put_bit(1)
    out += b"\0\0\0"
    return bytes(out)


def lz_encode(data, kind):
    """Greedy LZ10/LZ11 compressor (kind 0x10 or 0x11)."""
    size = len(data)
    out = bytearray([kind]) + (size.to_bytes(3, "little") if size < 1 << 24 else b"\0\0\0" + struct.pack("<I", size))
    max_n = 18 if kind == 0x10 else 65808
    i = 0
    while i < size:
        flag_at = len(out)
        out.append(0)
        for k in range(8):
            if i >= size:
                break
            best_n = best_d = 0
            for d in range(1, min(i, 4096) + 1):
                n = 0
                while n < max_n and i + n < size and data[i + n] == data[i + n - d]:
                    n += 1
                if n > best_n:
                    best_n, best_d = n, d
                    if n == max_n:
                        break
            if best_n >= 3:
                out[flag_at] |= 0x80 >> k
                d = best_d - 1
                if kind == 0x10:
                    out += bytes([(best_n - 3) << 4 | d >> 8, d & 0xFF])
                elif best_n <= 16:
                    out += bytes([(best_n - 1) << 4 | d >> 8, d & 0xFF])
                elif best_n <= 272:
                    n = best_n - 0x11
                    out += bytes([n >> 4, (n & 15) << 4 | d >> 8, d & 0xFF])
                else:
                    n = best_n - 0x111
                    out += bytes([0x10 | n >> 12, (n >> 4) & 0xFF, (n & 15) << 4 | d >> 8, d & 0xFF])
                i += best_n
            else:
                out.append(data[i])
                i += 1
    while len(out) % 4:
        out.append(0)
    return bytes(out)


def kh2_encode(data, pad_to=SECTOR):
    """KH2 compressor: tokens are produced from the end of the output and stored in reverse."""
    counts = [0] * 256
    for b in data:
        counts[b] += 1
    key = min(range(1, 256), key=lambda v: counts[v])
    reads = []          # in the order the decoder reads them
    size, p = len(data), len(data) - 1
    while p >= 0:
        best_n = best_d = 0
        for d in range(1, 256):
            if p + d >= size:
                break
            n = 0
            while n < 258 and p - n >= 0 and data[p - n] == data[p - n + d]:
                n += 1
            if n > best_n:
                best_n, best_d = n, d
                if n == 258:
                    break
        if best_n >= 3:
            reads += [key, best_d, best_n - 3]
            p -= best_n
        else:
            reads += [key, 0] if data[p] == key else [data[p]]
            p -= 1
    body = bytes(reversed(reads)) + struct.pack(">I", size) + bytes([key])
    return body + bytes(-len(body) % pad_to)


def fnt_build(paths, first_id=0):
    """NitroFS FNT for `paths`; returns (fnt bytes, paths in file-ID order)."""
    tree = {"files": [], "dirs": {}, "prefix": ""}
    for p in paths:
        node = tree
        parts = p.split("/")
        for part in parts[:-1]:
            if part not in node["dirs"]:
                node["dirs"][part] = {"files": [], "dirs": {}, "prefix": node["prefix"] + part + "/"}
            node = node["dirs"][part]
        node["files"].append(parts[-1])
    dirs, parents, i = [tree], [0], 0          # breadth-first directory IDs
    while i < len(dirs):
        for child in dirs[i]["dirs"].values():
            child["id"] = len(dirs)
            dirs.append(child)
            parents.append(i)
        i += 1
    fid, order, subs = first_id, [], []
    for node in dirs:
        node["first"] = fid
        fid += len(node["files"])
        order += [node["prefix"] + name for name in node["files"]]
        sub = bytearray()
        for name in node["files"]:
            sub += bytes([len(name)]) + name.encode()
        for name, child in node["dirs"].items():
            sub += bytes([0x80 | len(name)]) + name.encode() + struct.pack("<H", 0xF000 + child["id"])
        subs.append(bytes(sub) + b"\0")
    table, at = bytearray(), 8 * len(dirs)
    for k, node in enumerate(dirs):
        table += struct.pack("<IHH", at, node["first"], len(dirs) if k == 0 else 0xF000 + parents[k])
        at += len(subs[k])
    return bytes(table) + b"".join(subs), order


def narc_build(files, names=None):
    """NARC from a list of member bytes (names: optional paths, same length)."""
    if names:
        fnt, order = fnt_build(names)
        files = [files[names.index(p)] for p in order]
    else:
        fnt = struct.pack("<IHH", 4, 0, 1)
    fnt += b"\xFF" * (-len(fnt) % 4)
    data, table = bytearray(), bytearray()
    for f in files:
        table += struct.pack("<II", len(data), len(data) + len(f))
        data += f + b"\xFF" * (-len(f) % 4)
    btaf = b"BTAF" + struct.pack("<IHH", 12 + len(table), len(files), 0) + table
    btnf = b"BTNF" + struct.pack("<I", 8 + len(fnt)) + fnt
    gmif = b"GMIF" + struct.pack("<I", 8 + len(data)) + data
    body = btaf + btnf + gmif
    return b"NARC" + b"\xFE\xFF" + struct.pack("<HIHH", 0x0100, 16 + len(body), 16, 3) + body


def nds_build(named, overlays=1):
    """NDS ROM: `overlays` nameless files first (IDs 0..), then `named` {path: bytes} through the FNT."""
    paths = list(named)
    fnt, order = fnt_build(paths, first_id=overlays)
    blobs = [b"OVERLAY%d" % i for i in range(overlays)] + [named[p] for p in order]
    rom = bytearray(0x4000)
    rom[0:12] = b"REFTEST\0\0\0\0\0"
    rom[12:16] = b"ATST"
    struct.pack_into("<I", rom, 0x84, 0x4000)
    struct.pack_into("<H", rom, 0x15C, NDS_LOGO_CRC)
    fnt_off = len(rom)
    rom += fnt + b"\xFF" * (-len(fnt) % 0x200)
    fat_off = len(rom)
    rom += bytes(8 * len(blobs))
    rom += b"\xFF" * (-len(rom) % 0x200)
    for i, b in enumerate(blobs):
        start = len(rom)
        rom += b + b"\xFF" * (-len(b) % 0x200)
        struct.pack_into("<II", rom, fat_off + 8 * i, start, start + len(b))
    struct.pack_into("<IIII", rom, 0x40, fnt_off, len(fnt), fat_off, 8 * len(blobs))
    struct.pack_into("<I", rom, 0x80, len(rom))
    return bytes(rom)


def fpk_build(entries):
    """GNT4 FPK (GameCube): entries = [(stored name bytes, data, compress?)]."""
    table, blobs = bytearray(), bytearray()
    start = 16 + 32 * len(entries)
    for name, data, compress in entries:
        stored = prs_encode(data) if compress else data
        table += name.ljust(16, b"\0")[:16] + struct.pack(">IIII", 0, start + len(blobs), len(stored), len(data))
        blobs += stored + bytes(-len(stored) % 16)
    total = start + len(blobs)
    return struct.pack(">IIII", 0, len(entries), 16, total) + bytes(table) + bytes(blobs)


def gcm_build(files):
    """GameCube disc with boot.bin + FST; files = {path: bytes} (directories from the paths)."""
    tree = {}
    for p in files:
        node = tree
        parts = p.split("/")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = files[p]
    entries, strings = [], bytearray()

    def add(name, node, parent):
        name_off = len(strings)
        strings.extend(name.encode() + b"\0")
        if isinstance(node, dict):
            me = len(entries)
            entries.append([1, name_off, parent, 0])
            for child in sorted(node, key=str.lower):
                add(child, node[child], me)
            entries[me][3] = len(entries)
        else:
            entries.append([0, name_off, node, len(node)])

    entries.append([1, 0, 0, 0])
    for child in sorted(tree, key=str.lower):
        add(child, tree[child], 0)
    entries[0][3] = len(entries)
    fst_off = 0x2440
    fst_size = 12 * len(entries) + len(strings)
    disc = bytearray(fst_off + fst_size)
    disc[0:6] = b"GREFTS"
    struct.pack_into(">I", disc, 0x1C, GC_MAGIC)
    disc[0x20:0x2C] = b"REFERENCE GC"
    struct.pack_into(">III", disc, 0x424, fst_off, fst_size, fst_size)
    disc += bytes(-len(disc) % 0x8000)
    for e in entries:
        if e[0] == 0:
            data = e[2]
            e[2] = len(disc)
            disc += data + bytes(-len(data) % 0x8000)
    fst = b"".join(struct.pack(">II", t << 24 | n, a) + struct.pack(">I", b) for t, n, a, b in entries)
    disc[fst_off:fst_off + fst_size] = fst + strings
    return bytes(disc)


def ciso_build(disc, bs=0x8000):
    blocks = [disc[i:i + bs].ljust(bs, b"\0") for i in range(0, len(disc), bs)]
    present = [1 if any(b) else 0 for b in blocks]
    head = b"CISO" + struct.pack("<I", bs) + bytes(present) + bytes(0x7FF8 - len(present))
    return head + b"".join(b for b, p in zip(blocks, present) if p)


def iso_build(files):
    """ISO9660 image: files = {path: bytes}; directories from the paths; names get ';1'."""
    tree = {}
    for p in files:
        node = tree
        parts = p.split("/")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = files[p]
    sectors = {}                      # sector -> bytes
    next_free = [18]

    def alloc(n):
        at = next_free[0]
        next_free[0] += max(1, -(-n // SECTOR))
        return at

    def record(name, extent, length, is_dir):
        n = len(name)
        rec = bytearray(33 + n + (1 - n % 2))
        rec[0] = len(rec)
        rec[2:10] = struct.pack("<I", extent) + struct.pack(">I", extent)
        rec[10:18] = struct.pack("<I", length) + struct.pack(">I", length)
        rec[25] = 2 if is_dir else 0
        rec[28:32] = struct.pack("<H", 1) + struct.pack(">H", 1)
        rec[32] = n
        rec[33:33 + n] = name
        return bytes(rec)

    def write_dir(node, parent_extent, parent_len):
        extent = alloc(SECTOR)
        records = []
        for name in sorted(node):
            child = node[name]
            if isinstance(child, dict):
                cext = write_dir(child, extent, SECTOR)
                records.append(record(name.encode(), cext, SECTOR, True))
            else:
                fext = alloc(len(child))
                sectors[fext] = child
                records.append(record(name.encode() + b";1", fext, len(child), False))
        me = record(b"\0", extent, SECTOR, True)
        up = record(b"\1", parent_extent or extent, parent_len, True)
        sectors[extent] = b"".join([me, up] + records)
        assert len(sectors[extent]) <= SECTOR
        return extent

    root = write_dir(tree, None, SECTOR)
    image = bytearray(SECTOR * next_free[0])
    for at, data in sectors.items():
        image[at * SECTOR:at * SECTOR + len(data)] = data
    pvd = bytearray(SECTOR)
    pvd[0:7] = b"\x01CD001\x01"
    pvd[0x50:0x58] = struct.pack("<I", next_free[0]) + struct.pack(">I", next_free[0])
    pvd[0x80:0x84] = struct.pack("<H", SECTOR) + struct.pack(">H", SECTOR)
    pvd[0x9C:0x9C + 34] = record(b"\0", root, SECTOR, True)
    term = bytearray(SECTOR)
    term[0:7] = b"\xFFCD001\x01"
    image[16 * SECTOR:17 * SECTOR] = pvd
    image[17 * SECTOR:18 * SECTOR] = term
    return bytes(image)


def kh2_build(entries, img=None):
    """KH2.IDX + KH2.IMG: entries = [(name bytes or (h32, h16), data, compress?)]; returns (idx, img)."""
    img = bytearray(img or b"")
    rows = []
    for name, data, compress in entries:
        h32, h16 = (kh2_hash32(name), kh2_hash16(name)) if isinstance(name, bytes) else name
        block = len(img) // SECTOR
        if compress:
            stored = kh2_encode(data)
            desc = 0x4000 | (len(stored) // SECTOR - 1)
        else:
            stored = data + bytes(-len(data) % SECTOR)
            desc = max(1, len(stored) // SECTOR) - 1
        img += stored
        rows.append(struct.pack("<IHHII", h32, h16, desc, block, len(data)))
    rows.sort(key=lambda r: u32le(r, 0))
    return struct.pack("<I", len(rows)) + b"".join(rows), bytes(img)


def fake_bca0(seed, n=200):
    body = bytes((seed * 7 + i * 13 + (i // 16) * 3) & 0xFF for i in range(n - 8))
    return b"BCA0" + struct.pack("<I", n) + body


def expect_error(fn, what):
    try:
        fn()
    except FormatError as e:
        return str(e)
    raise AssertionError(f"{what}: no error raised")


def selftest():
    global _NAMES
    ok = []

    def good(text):
        ok.append(text)

    # PRS vectors from the note, then roundtrips through the greedy encoder.
    assert prs_decode(bytes.fromhex("A800FFFF000000"), 10) == bytes(10)
    assert prs_decode(bytes.fromhex("C94142FE000000"), 6) == b"ABABAB"
    assert prs_encode(bytes(10)) == bytes.fromhex("A800FFFF000000")
    assert prs_encode(b"ABABAB") == bytes.fromhex("C94142FE000000")
    sample = b"chr/nar/0000.mot " * 40 + bytes(range(256)) + b"\0" * 700 + b"xyz" * 5
    assert prs_decode(prs_encode(sample), len(sample)) == sample
    expect_error(lambda: prs_decode(bytes.fromhex("A800FFFF000000"), 11), "PRS premature end")
    expect_error(lambda: prs_decode(bytes.fromhex("2000FF"), 4), "PRS distance before start")
    expect_error(lambda: prs_decode(bytes.fromhex("A800FFFF"), 9), "PRS overrun")
    expect_error(lambda: prs_decode(bytes.fromhex("C041"), 2), "PRS missing input")
    good("PRS: both note vectors, encoder matches GNTool's output, roundtrip, 4 corrupt streams rejected")

    # LZ10/LZ11 (all three LZ11 token sizes).
    for kind in (0x10, 0x11):
        for data in (sample, bytes(5000), fake_bca0(3, 600), b"a"):
            assert lz_decode(lz_encode(data, kind)) == data
    assert lz_decode(lz_encode(b"Q" * 70000, 0x11)) == b"Q" * 70000
    big = lz_encode(b"Q" * 70000, 0x11)
    assert any(b >> 4 == 1 for b in big[5:8]), "expected a 4-byte LZ11 token"
    assert lz_decode(b"\x11\x00\x00\x00\x03\x00\x00\x00\x00abc") == b"abc"    # extended size form
    expect_error(lambda: lz_decode(b"\x10\x04\x00\x00\x80\x00\x00"), "LZ distance before start")
    expect_error(lambda: lz_decode(b"\x10\x04\x00\x00\x00ab"), "LZ missing input")
    expect_error(lambda: lz_decode(b"\x10\x04\x00\x00\x40a\x20\x00"), "LZ overrun")
    expect_error(lambda: lz_decode(b"\x30\x04\x00\x00"), "LZ other type")
    good("LZ10/LZ11: roundtrips incl. 2/3/4-byte LZ11 tokens and the 32-bit size form, 4 corrupt streams rejected")

    # KH2 hashes (note's vectors) and the fast CRCs against a plain bitwise CRC.
    vectors = {b"test": (0x338BCFAC, 0xB82F), b"hello world!": (0xFD8495B7, 0x0907),
               b"00battle.bin": (0x2029C445, 0x176F), b"obj/B_LK120_RAW.mset": (0x10303F6F, 0xF325)}
    for name, (h32, h16) in vectors.items():
        assert (kh2_hash32(name), kh2_hash16(name)) == (h32, h16), name
        assert crc_bitwise(name, 32, 0x04C11DB7, 0xFFFFFFFF, 0xFFFFFFFF) == h32
        assert crc_bitwise(name[::-1], 16, 0x1021, 0xFFFF, 0xFFFF) == h16
    good("KH2 hashes: 4 note vectors (Hash32 + Hash16), fast and bitwise CRCs agree")

    # KH2 decompression.
    for data in (sample, bytes(3000), bytes(range(256)) * 3, b"\x04\x04\x00\x04" * 50):
        enc = kh2_encode(data)
        assert len(enc) % SECTOR == 0 and kh2_decode(enc) == data
    assert kh2_decode(bytes(4096)) == b""
    expect_error(lambda: kh2_decode(b"\x07\x01\x05\x00\x00\x00\x06\x05"), "KH2 distance past end")
    expect_error(lambda: kh2_decode(b"\x00\x00\x00\x09\x05"), "KH2 input exhausted")
    expect_error(lambda: kh2_decode(b"\x01\x02\x05"), "KH2 no size")
    assert kh2_stored_blocks(0x4710, 0x1000000) == 0x1711 and kh2_stored_blocks(0x4710, 0xFFFFFF) == 0x711
    assert kh2_stored_blocks(0x0710, 0x1000000) == 0x711
    good("KH2 decompression: roundtrips (escaped keys, zero padding), empty stream, 3 corrupt streams, B_LK120 fix")

    # NARC: nameless with a raw and an LZ11 BCA0, named with a nested LZ10 NARC.
    with tempfile.TemporaryDirectory() as tmp:
        def put(name, data):
            path = os.path.join(tmp, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
            return path

        a, b = fake_bca0(1), fake_bca0(2, 333)
        inner = narc_build([a, b"BMD0xxxx"])
        nameless = put("nameless.narc", narc_build([a, lz_encode(b, 0x11), b"\x10junk", b"BTX0abcd"]))
        kind, rows = listing(nameless)
        got = {r["path"]: r for r, _ in rows}
        assert kind == "narc" and list(got) == ["0", "1", "2", "3"]
        assert got["0"]["format"] == "nsbca" and got["0"]["compression"] == "none"
        assert got["1"]["compression"] == "lz11" and got["1"]["size"] == 333 and got["1"]["format"] == "nsbca"
        assert got["2"]["compression"] == "none" and got["3"]["format"] is None
        assert [m.sha256() for _, m in rows][1] == hashlib.sha256(b).hexdigest()
        assert got["0"]["offset"] == 16 + 12 + 32 + 16 + 8
        named = put("named.narc", narc_build([a, lz_encode(inner, 0x10), b"hello"],
                                             ["anim/x.nsbca", "deep/er/pack.narc", "readme.txt"]))
        kind, rows = listing(named)
        got = {r["path"]: r for r, _ in rows}
        assert set(got) == {"anim/x.nsbca", "deep/er/pack.narc", "deep/er/pack.narc/0",
                            "deep/er/pack.narc/1", "readme.txt"}, set(got)
        assert got["deep/er/pack.narc"]["format"] == "narc" and got["deep/er/pack.narc"]["compression"] == "lz10"
        assert got["deep/er/pack.narc"]["size"] == len(inner) and got["deep/er/pack.narc/0"]["format"] == "nsbca"
        member = {r["path"]: m for r, m in rows}["deep/er/pack.narc/0"]
        assert member.decoded() == a
        good("NARC: nameless (index names, raw + LZ11 BCA0, non-Nitro LZ-looking member kept raw) and named "
             "(FNT paths, nested LZ10 NARC)")
        good_narc = narc_build([a])
        for mutate, what in ((lambda d: d[:4] + b"\xFF\xFE" + d[6:], "BOM"),
                             (lambda d: d[:16] + b"BTAX" + d[20:], "chunk tag"),
                             (lambda d: d[:20] + struct.pack("<I", 99) + d[24:], "BTAF size"),
                             (lambda d: d[:12] + struct.pack("<H", 20) + d[14:], "header size"),
                             (lambda d: d[:0x32] + struct.pack("<H", 0) + d[0x34:], "FNT directory count"),
                             (lambda d: d[:0x20] + struct.pack("<I", 0xFFFF) + d[0x24:], "member range")):
            bad_path = put("bad.narc", mutate(good_narc))
            try:
                _, rows = listing(bad_path)
                assert rows[0][0].get("error"), what
            except FormatError:
                pass
        loop = struct.pack("<IHH", 16, 0, 2) + struct.pack("<IHH", 16, 0, 0xF000) + b"\x81d\x01\xF0\0\0\0\0"
        expect_error(lambda: parse_fnt(loop, "fnt", 0), "FNT cycle")
        expect_error(lambda: parse_fnt(struct.pack("<IHH", 8, 0, 1) + b"\x05ab", "fnt", 0), "FNT short name")
        expect_error(lambda: parse_fnt(struct.pack("<IHH", 8, 0, 1) + b"\x80\0", "fnt", 0), "FNT 0x80")
        expect_error(lambda: parse_fnt(struct.pack("<IHH", 8, 0, 1) + b"\x81d\x05\xF0\0", "fnt", 0), "FNT child ID")
        good("NARC/FNT: 6 corrupt archives and 4 corrupt FNTs rejected (cycle, short name, 0x80, child ID)")

        # NDS: an overlay (skipped), a nameless NARC, an LZ11-wrapped named NARC, a deep plain file.
        rom = put("t.nds", nds_build({"a/0/1": narc_build([a, lz_encode(b, 0x11)]),
                                      "data/packed.narc": lz_encode(narc_build([b], ["m.bca"]), 0x11),
                                      "deep/dir/tree/file.bin": b"plain bytes",
                                      "loose.nsbca": a}))
        kind, rows = listing(rom)
        got = {r["path"]: r for r, _ in rows}
        assert kind == "nds" and set(got) == {"a/0/1", "a/0/1/0", "a/0/1/1", "data/packed.narc",
                                             "data/packed.narc/m.bca", "deep/dir/tree/file.bin", "loose.nsbca"}
        assert got["data/packed.narc"]["compression"] == "lz11" and got["loose.nsbca"]["format"] == "nsbca"
        assert got["a/0/1/1"]["compression"] == "lz11" and got["a/0/1"]["offset"] % 0x200 == 0
        assert {r["path"]: m for r, m in rows}["deep/dir/tree/file.bin"].decoded() == b"plain bytes"
        assert detect(put("renamed.bin", open(rom, "rb").read())) == "nds"
        broken = bytearray(open(rom, "rb").read())
        struct.pack_into("<I", broken, 0x44, len(broken))
        expect_error(lambda: listing(put("broken.nds", bytes(broken))), "NDS FNT range")
        good("NDS: overlay skipped, FNT paths, nested NARC (plain and LZ11-wrapped), detection by header, "
             "FNT range checked")

        # GCM + FPK + PRS + CISO.
        mot = bytes(range(40)) * 30 + b"\0" * 500
        fpk = fpk_build([(b"hr/nar/0000.mot", mot, True), (b"hr/nar/0001.mot", b"MOT" * 10, False),
                         (b"shop/0000.mot", mot[:300], True), (b"te/012/0000.mot", mot[:77], True),
                         (b"aki/0004201.txg", b"txg", False), (b"s/abcd4201.txg", b"vs", False)])
        disc = gcm_build({"fpack/chr/nar1000.fpk": fpk, "opening.bnr": b"BNR1" + bytes(60),
                          "fpack/game0005.FPK": fpk_build([(b"shop/0000.mot", mot, True)]),
                          "dir/empty.bin": b"", "zeros.bin": bytes(0x10000)})
        gcm = put("disc.iso", disc)
        kind, rows = listing(gcm)
        got = {r["path"]: r for r, _ in rows}
        base = "fpack/chr/nar1000.fpk/"
        assert kind == "gcm" and set(got) == {
            "fpack/chr/nar1000.fpk", base + "chr/nar/0000.mot", base + "chr/nar/0001.mot", base + "shop/0000.mot",
            base + "unite/012/0000.mot", base + "maki/0004201.txg", base + "s/abcd4201.txg", "opening.bnr",
            "fpack/game0005.FPK", "fpack/game0005.FPK/shop/0000.mot", "dir/empty.bin", "zeros.bin"}, set(got)
        mot_row = got[base + "chr/nar/0000.mot"]
        assert mot_row["compression"] == "prs" and mot_row["size"] == len(mot)
        assert got[base + "chr/nar/0001.mot"]["compression"] == "none"
        assert got[base + "chr/nar/0000.mot"]["raw_name"] == "hr/nar/0000.mot"
        assert got[base + "chr/nar/0000.mot"]["offset"] == 16 + 32 * 6
        assert {r["path"]: m for r, m in rows}[base + "chr/nar/0000.mot"].decoded() == mot
        assert fpk_restore(b"ame/0001/00.bin") == "game/0001/00.bin"
        assert fpk_restore(b"tg/0001/000.bin") == "stg/0001/000.bin"
        assert fpk_restore(b"abcdefg4201.txg") == "vs/abcdefg4201.txg" and fpk_restore(b"hr/x.mot") == "hr/x.mot"
        assert fpk_restore(b"uro/00/0000.mot") == "kuro/00/0000.mot"
        assert fpk_restore(b"ru/000/0000.mo") == "ru/000/0000.mo"        # 14 bytes: not truncated
        ciso = put("disc.ciso", ciso_build(disc))
        kind, crow = listing(ciso)
        assert kind == "ciso" and [r for r, _ in crow] == [r for r, _ in rows]
        assert [m.sha256() for _, m in crow] == [m.sha256() for _, m in rows]
        assert os.path.getsize(ciso) <= len(disc) - 0x8000         # the zero blocks are absent
        bad_fpk = bytearray(fpk)
        struct.pack_into(">I", bad_fpk, 16 + 20, 8)
        struct.pack_into(">I", bad_fpk, 16 + 32 + 24, 1 << 31)
        kind, frows = listing(put("bad.fpk", bytes(bad_fpk)))
        assert kind == "fpk" and "inside the entry table" in frows[0][0]["error"] and "negative" in frows[1][0]["error"]
        expect_error(lambda: listing(put("short.fpk", struct.pack(">IIII", 0, 5, 16, 16))), "FPK table")
        wii = bytearray(disc)
        struct.pack_into(">I", wii, 0x18, WII_MAGIC)
        expect_error(lambda: listing(put("wii.iso", bytes(wii))), "Wii")
        badfst = bytearray(disc)
        struct.pack_into(">I", badfst, 0x2440 + 12 + 4, 7)   # first directory's parent
        expect_error(lambda: listing(put("badfst.iso", bytes(badfst))), "FST parent")
        badfst = bytearray(disc)
        struct.pack_into(">I", badfst, 0x428, 0x7FFFFFF0)
        expect_error(lambda: listing(put("bigfst.iso", bytes(badfst))), "FST size")
        trimmed = put("trimmed.iso", disc[:-0x8000])
        kind, trows = listing(trimmed)
        assert sum(1 for r, _ in trows if r.get("error")) == 1
        badciso = bytearray(ciso_build(disc))
        badciso[8] = 2
        expect_error(lambda: listing(put("bad.ciso", bytes(badciso))), "CISO map byte")
        expect_error(lambda: listing(put("x.gcz", b"\x01\xC0\x0B\xB1" + bytes(60))), "GCZ refused")
        good("GCM/FPK/PRS/CISO: FST paths, PRS + raw FPK members, name restoration, CISO view identical to the "
             "disc, corrupt FPK entries kept as errors, Wii/FST/CISO/GCZ rejected, trimmed image")

        # ISO9660 with KH2.IDX + KH2.IMG (compressed entry, unknown hash, world table).
        obj = sample * 3
        world_idx, img = kh2_build([(b"al/00/world.bin", b"WORLD" * 100, False), ((0x12345678, 0xABCD), mot, True)])
        world_entries = [(b"000al.idx", world_idx, True), (b"obj/B_LK120_RAW.mset", obj, True),
                         (b"obj/P_EX100.mset", b"BAR\x01" + bytes(100), False), ((0xDEADBEEF, 0x0001), b"??", False)]
        idx, img = kh2_build(world_entries, img)
        _NAMES = {(kh2_hash32(n), kh2_hash16(n)): n.decode() for n in
                  (b"000al.idx", b"obj/B_LK120_RAW.mset", b"obj/P_EX100.mset", b"al/00/world.bin")}
        iso = put("kh2.iso", iso_build({"SYSTEM.CNF": b"BOOT2 = cdrom0:\\SLPM_662.33;1\r\n",
                                        "KH2.IDX": idx, "KH2.IMG": img, "MOVIE/OP.PSS": b"\0\0\1\xBA" * 8}))
        kind, rows = listing(iso)
        got = {r["path"]: r for r, _ in rows}
        assert kind == "iso9660" and set(got) == {
            "SYSTEM.CNF", "KH2.IDX", "KH2.IMG", "MOVIE/OP.PSS", "KH2.IDX/000al.idx",
            "KH2.IDX/000al.idx/al/00/world.bin",
            "KH2.IDX/000al.idx/@12345678-ABCD", "KH2.IDX/obj/B_LK120_RAW.mset", "KH2.IDX/obj/P_EX100.mset",
            "KH2.IDX/@DEADBEEF-0001"}, set(got)
        assert got["KH2.IDX"]["format"] == "kh2_idx" and got["KH2.IDX/000al.idx"]["format"] == "kh2_idx"
        assert got["KH2.IDX/obj/B_LK120_RAW.mset"]["compression"] == "kh2"
        assert got["KH2.IDX/obj/B_LK120_RAW.mset"]["size"] == len(obj)
        assert got["KH2.IDX/000al.idx/al/00/world.bin"]["offset"] == 0
        by_path = {r["path"]: m for r, m in rows}
        assert by_path["KH2.IDX/obj/B_LK120_RAW.mset"].decoded() == obj
        assert by_path["KH2.IDX/000al.idx/@12345678-ABCD"].decoded() == mot
        idx_path, img_path = put("dvd/KH2.IDX", idx), put("dvd/kh2.IMG", img)
        kind, rows2 = listing(idx_path)
        assert kind == "kh2_idx" and {r["path"] for r, _ in rows2} == {p[8:] for p in got if p.startswith("KH2.IDX/")}
        expect_error(lambda: open_kh2(BytesSource(idx + b"\0", "idx"), BytesSource(img, "img"), "idx"), "IDX size")
        badiso = bytearray(open(iso, "rb").read())
        badiso[16 * SECTOR + 1:16 * SECTOR + 6] = b"CD002"
        expect_error(lambda: open_iso(BytesSource(bytes(badiso), "badiso"), "badiso"), "ISO descriptor")
        badiso = bytearray(open(iso, "rb").read())
        root_ext = u32le(badiso, 16 * SECTOR + 0x9C + 2)
        badiso[root_ext * SECTOR + 34 + 34 + 0] = 20        # first real record too short for its name
        expect_error(lambda: open_iso(BytesSource(bytes(badiso), "badiso"), "badiso"), "ISO record length")
        good("ISO9660 + KH2: ;1 stripped, KH2.IDX found with its sibling KH2.IMG, names and @HASH unknowns, "
             "compressed entry, world table 000al.idx against the same IMG, standalone IDX with a "
             "differently-cased .IMG, bad IDX/descriptor/record rejected")
    _NAMES = None
    for line in ok:
        print("ok  " + line)
    print(f"selftest: {len(ok)} groups passed")
    return 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "ls":
        try:
            _, rows = listing(argv[2])
        except FormatError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        print(json.dumps([r for r, _ in rows], indent=1))
        return 0
    if len(argv) >= 4 and argv[1] == "check":
        return check(argv[2], argv[3:])
    if len(argv) == 2 and argv[1] == "selftest":
        return selftest()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
