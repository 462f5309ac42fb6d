#!/usr/bin/env python3
"""The report pages in a real browser (Debian's headless Chromium).

Writes two versions of the sample dump, indexes them, and renders the three HTML outputs
(`report docs`, `report reuse --format html`, `diff --format html`). Each page must:
  * load without any console message (Chromium logs them to stderr as CONSOLE lines);
  * report, through its inline check script, that every chart drew its marks with a size
    (body data-charts-ok == data-charts >= 1) and has its colour legend (data-legends);
  * not scroll sideways in a 1400 px wide window (data-overflow-x == 0);
  * show the charts in a screenshot: the PNG is decoded and must hold the bar and heatmap colours.
The console detector checks itself first on a page that throws. When the real corpus is beside the
repository (../shared/corpus/real, or $ANIMDEX_SHARED_DIR/corpus/real), its `report docs` page must
also stay under 1 MB and not scroll sideways.

Usage: browser_check.py ANIMDEX_BINARY WORK_DIR     (exit 77 = skipped: no chromium)
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_browser(browser, work, url, *extra):
    profile = os.path.join(work, "profile")
    result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                             "--log-level=0", f"--user-data-dir={profile}", *extra, url],
                            capture_output=True, text=True, timeout=120)
    return result


WINDOW = "--window-size=1400,1000"  # the width the pages are laid out for


def real_corpus():
    shared = os.environ.get("ANIMDEX_SHARED_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                  "..", "..", "..", "shared")
    corpus = os.path.join(shared, "corpus", "real")
    return corpus if os.path.isdir(corpus) else None


def page_verdict(browser, work, name, path):
    """Loads a page at 1400 px; returns its check script's verdict, failing on console messages."""
    dom = run_browser(browser, work, "file://" + path, "--dump-dom", WINDOW)
    if dom.returncode != 0:
        raise SystemExit(f"{name}: chromium failed: {dom.stderr[-500:]}")
    messages = console_lines(dom.stderr)
    if messages:
        raise SystemExit(f"{name}: console messages: {messages}")
    body = re.search(r"<body([^>]*)>", dom.stdout)
    attributes = dict(re.findall(r'(data-[a-z-]+)="([^"]*)"', body.group(1) if body else ""))
    if int(attributes.get("data-viewport", "0")) < 1300:
        raise SystemExit(f"{name}: the window is not 1400 px wide: {attributes}")
    if attributes.get("data-overflow-x") != "0":
        raise SystemExit(f"{name}: the page scrolls sideways by {attributes.get('data-overflow-x')} px at 1400 px")
    return attributes


def console_lines(stderr):
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def png_pixels(path):
    """Decodes an 8-bit RGB/RGBA PNG into (width, height, channels, rows of bytes)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), f"unexpected PNG type {depth}/{colour}"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            upper_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - upper_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else upper_left)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def colour_count(path, rgb, tolerance=12):
    width, height, channels, rows = png_pixels(path)
    count = 0
    for row in rows:
        for x in range(0, width * channels, channels):
            if all(abs(row[x + c] - rgb[c]) <= tolerance for c in range(3)):
                count += 1
    return count


def main():
    binary, work = sys.argv[1], sys.argv[2]
    browser = chromium()
    if not browser:
        print("skipped: no chromium on this machine (scripts/deps.txt installs it)")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    def animdex(*args):
        subprocess.run([binary, *args], check=True, capture_output=True, text=True)

    # The console detector must see a page that throws.
    bad = os.path.join(work, "bad.html")
    open(bad, "w").write("<!DOCTYPE html><html><body><script>undefined_call();</script></body></html>")
    if not console_lines(run_browser(browser, work, "file://" + bad, "--dump-dom").stderr):
        raise SystemExit("the console detector did not see an uncaught error")

    database = os.path.join(work, "r.db")
    for label, characters in (("v1", "4"), ("v2", "5")):
        animdex("sample", os.path.join(work, label), "--characters", characters, "--kh2", "--nsbca",
                "--no-problem-files")
        animdex("index", os.path.join(work, label), "--db", database, "--label", label, "--quiet")
    animdex("report", "docs", "--db", database, "--out", os.path.join(work, "docs"))
    animdex("report", "reuse", "--db", database, "--format", "html", "--out", os.path.join(work, "reuse.html"))
    animdex("diff", "--db", database, "--from", "v1", "--to", "v2", "--format", "html",
            "--out", os.path.join(work, "diff.html"))

    pages = {"docs": (os.path.join(work, "docs", "animdex-docs.html"), 4),  # per dump: heatmap + reuse chart
             "reuse": (os.path.join(work, "reuse.html"), 1),
             "diff": (os.path.join(work, "diff.html"), 1)}
    for name, (path, charts) in pages.items():
        url = "file://" + path
        attributes = page_verdict(browser, work, name, path)
        if attributes.get("data-charts") != str(charts) or attributes.get("data-charts-ok") != str(charts):
            raise SystemExit(f"{name}: charts {attributes}, expected {charts} drawn")
        if attributes.get("data-legends") != str(charts):  # every chart explains its colours
            raise SystemExit(f"{name}: legends {attributes}, expected {charts}")
        shot = os.path.join(work, f"{name}.png")
        result = run_browser(browser, work, url, f"--screenshot={shot}", "--window-size=1280,1400",
                             "--hide-scrollbars")
        if result.returncode != 0 or not os.path.exists(shot):
            raise SystemExit(f"{name}: no screenshot: {result.stderr[-500:]}")
        bars = colour_count(shot, (0x2f, 0x6f, 0xb3))
        if bars < 500:
            raise SystemExit(f"{name}: the screenshot shows {bars} bar pixels; the chart did not render")
        print(f"{name}: {charts} charts drawn, no console message, {bars} bar pixels in {shot}")
    heat = colour_count(os.path.join(work, "docs.png"), (0x0b, 0x3d, 0x91), tolerance=24)
    if heat < 100:
        raise SystemExit(f"docs: the screenshot shows {heat} dark heatmap pixels; the heatmap did not render")
    print(f"docs: {heat} dark heatmap pixels")
    check_real_corpus(browser, work, binary, animdex)
    return 0


def check_real_corpus(browser, work, binary, animdex):
    corpus = real_corpus()
    if not corpus:
        print("real corpus: absent, not checked")
        return
    database, docs = os.path.join(work, "real.db"), os.path.join(work, "real-docs")
    # Exit 3 (some files could not be parsed) still indexes the rest: the page is what is checked.
    index = subprocess.run([binary, "index", corpus, "--db", database, "--label", "real", "--quiet"],
                           capture_output=True, text=True)
    if index.returncode not in (0, 3):
        raise SystemExit(f"real corpus: index failed ({index.returncode}): {index.stderr[-500:]}")
    animdex("report", "docs", "--db", database, "--out", docs)
    page = os.path.join(docs, "animdex-docs.html")
    size = os.path.getsize(page)
    if size >= 1_000_000:
        raise SystemExit(f"real corpus: the docs page is {size} bytes, over 1 MB")
    attributes = page_verdict(browser, work, "real corpus docs", page)
    print(f"real corpus: docs page {size} bytes, no sideways scroll at 1400 px, {attributes.get('data-legends')} legends")


if __name__ == "__main__":
    sys.exit(main())
