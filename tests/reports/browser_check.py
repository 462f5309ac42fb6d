#!/usr/bin/env python3
"""The report pages in a real browser (Debian's headless Chromium).

Writes two versions of the sample dump, indexes them, and renders the HTML outputs (`report docs`
with its curve pages and their index, `report reuse --format html`, `diff --format html`, and
`plot` of a GNT, a KH2 and an NSBCA file). Each page must:
  * load without any console message (Chromium logs them to stderr as CONSOLE lines);
  * report, through its inline check script, that every chart drew its marks with a size -- a
    curve chart every line it declares -- (body data-charts-ok == data-charts >= 1) and has its
    colour legend (data-legends);
  * not scroll sideways in a 1400 px wide window (data-overflow-x == 0);
  * show the charts in a screenshot: the PNG is decoded and must hold the bar and heatmap colours,
    the curves' first colour, and a diff's "before" and "after" colours.
The console detector checks itself first on a page that throws. When the real corpus is beside the
repository (../shared/corpus/real, or $ANIMDEX_SHARED_DIR/corpus/real), its `report docs` pages
(the tables, the curves' index and every curve page) and the `plot` pages of its KH2 files (one
per slot where the whole file's would pass 1 MB) must also stay under 1 MB and not scroll sideways.

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


def start(work):
    """Chromium, with `work` emptied for the run; None (and a message) when there is none: exit 77."""
    browser = chromium()
    if not browser:
        print("skipped: no chromium on this machine (scripts/deps.txt installs it)")
        return None
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return browser


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


BAR = (0x2f, 0x6f, 0xb3)
CURVE = (0x4e, 0x79, 0xa7)          # the curves' first colour, a diff's "before"
AFTER = (0xe1, 0x57, 0x59)          # a diff's "after"
MEGABYTE = 1_000_000


def chart_count(path):
    return open(path, encoding="utf-8").read().count('<svg class="chart')


def lwmo(lift):
    """A LightWave motion (LWMO v1, 9 channels, 3 keys); `lift` is y at frame 15."""
    keys = [(0, [0, 0, 0, 0, 0, 0, 1, 1, 1]), (15, [1, lift, 0.5, 10, 0, 0, 1, 1, 1]), (30, [2, 0, 1, 0, 0, 0, 1, 1, 1])]
    text = f"LWMO\n1\n9\n{len(keys)}\n"
    for frame, values in keys:
        text += " ".join(str(v) for v in values) + f"\n{frame} 0 0 0 0\n"
    return text


def check_page(browser, work, name, path, colours):
    """The page's verdict (every chart drawn, each with its legend) and, in a screenshot, at least
    `minimum` pixels of each (rgb, minimum) of `colours`."""
    charts = chart_count(path)
    attributes = page_verdict(browser, work, name, path)
    if charts < 1 or attributes.get("data-charts") != str(charts) or attributes.get("data-charts-ok") != str(charts):
        raise SystemExit(f"{name}: charts {attributes}, expected {charts} drawn")
    if attributes.get("data-legends") != str(charts):  # every chart explains its colours
        raise SystemExit(f"{name}: legends {attributes}, expected {charts}")
    shot = os.path.join(work, f"{name}.png")
    result = run_browser(browser, work, "file://" + path, f"--screenshot={shot}", "--window-size=1280,1400",
                         "--hide-scrollbars")
    if result.returncode != 0 or not os.path.exists(shot):
        raise SystemExit(f"{name}: no screenshot: {result.stderr[-500:]}")
    counts = []
    for rgb, minimum in colours:
        count = colour_count(shot, rgb)
        if count < minimum:
            raise SystemExit(f"{name}: the screenshot shows {count} pixels of #{bytes(rgb).hex()}; the chart did not render")
        counts.append(f"{count} #{bytes(rgb).hex()}")
    print(f"{name}: {charts} chart{'s' if charts != 1 else ''} drawn, {attributes.get('data-keys')} key marks, no console "
          f"message; pixels: "
          f"{', '.join(counts)} in {shot}")
    return attributes


def main():
    binary, work = sys.argv[1], sys.argv[2]
    browser = start(work)
    if not browser:
        return 77

    def animdex(*args):
        subprocess.run([binary, *args], check=True, capture_output=True, text=True)

    # The console detector must see a page that throws.
    bad = os.path.join(work, "bad.html")
    open(bad, "w").write("<!DOCTYPE html><html><body><script>undefined_call();</script></body></html>")
    if not console_lines(run_browser(browser, work, "file://" + bad, "--dump-dom").stderr):
        raise SystemExit("the console detector did not see an uncaught error")

    database = os.path.join(work, "r.db")
    # v1 and v2 are two versions of the sample; v3 is v1 with one LightWave key moved, so its diff is
    # one changed track, drawn before and after near the top of the page.
    for label, characters in (("v1", "4"), ("v2", "5"), ("v3", "4")):
        folder = os.path.join(work, label)
        animdex("sample", folder, "--characters", characters, "--kh2", "--nsbca", "--no-problem-files")
        os.makedirs(os.path.join(folder, "files", "lw"))
        with open(os.path.join(folder, "files", "lw", "crane.mot"), "w") as out:
            out.write(lwmo(3.5 if label == "v3" else 2))
        animdex("index", folder, "--db", database, "--label", label, "--quiet")
    docs = os.path.join(work, "docs")
    animdex("report", "docs", "--db", database, "--out", docs)
    animdex("report", "reuse", "--db", database, "--format", "html", "--out", os.path.join(work, "reuse.html"))
    for to in ("v2", "v3"):
        animdex("diff", "--db", database, "--from", "v1", "--to", to, "--format", "html",
                "--out", os.path.join(work, f"diff-{to}.html"))
    plots = {"plot-gnt": "files/chr/sas/0000.mot", "plot-kh2": "kh2/obj/P_SAMPLE.mset", "plot-nsbca": "nds/data/door.nsbca"}
    for name, member in plots.items():
        animdex("plot", os.path.join(work, "v1", member), "--out", os.path.join(work, f"{name}.html"))

    bars, heat = [(BAR, 500)], [(BAR, 500), ((0x0b, 0x3d, 0x91), 100)]
    pages = {"docs": (os.path.join(docs, "animdex-docs.html"), heat),  # heatmap + reuse chart
             "reuse": (os.path.join(work, "reuse.html"), bars),
             "diff": (os.path.join(work, "diff-v2.html"), bars),
             "diff-track": (os.path.join(work, "diff-v3.html"), bars + [(CURVE, 100), (AFTER, 100)]),
             "docs-curves": (os.path.join(docs, "v1", "curves", "sas.html"), [(CURVE, 150)])}
    pages.update({name: (os.path.join(work, f"{name}.html"), [(CURVE, 100)]) for name in plots})
    for name, (path, colours) in pages.items():
        check_page(browser, work, name, path, colours)
    if attributes_of_index(browser, work, docs).get("data-charts") != "0":
        raise SystemExit("docs: the curves' index draws no chart")
    check_real_corpus(browser, work, binary, animdex)
    return 0


def attributes_of_index(browser, work, docs):
    """The curves' index links every animation: no console message, no sideways scroll."""
    index = os.path.join(docs, "index.html")
    links = open(index, encoding="utf-8").read().count('/curves/')
    attributes = page_verdict(browser, work, "docs index", index)
    print(f"docs index: {links} links to curve pages, no console message, no sideways scroll")
    return attributes


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
    if size >= MEGABYTE:
        raise SystemExit(f"real corpus: the docs page is {size} bytes, over 1 MB")
    attributes = page_verdict(browser, work, "real corpus docs", page)
    print(f"real corpus: docs page {size} bytes, no sideways scroll at 1400 px, {attributes.get('data-legends')} legends")
    # The 3D players (players/) hold a .glb each and have their own budget (tests/rig/player_browser_check.py).
    pages = [os.path.join(root, name) for root, _, names in os.walk(docs) for name in names
             if name.endswith(".html") and os.path.basename(root) != "players"]
    over = [(os.path.getsize(path), path) for path in pages if os.path.getsize(path) >= MEGABYTE]
    if over:
        raise SystemExit(f"real corpus: docs pages over 1 MB: {over}")
    curve_pages = sorted((os.path.getsize(path), path) for path in pages if os.sep + "curves" + os.sep in path)
    if not curve_pages:
        raise SystemExit("real corpus: report docs wrote no curve page")
    largest, path = curve_pages[-1]
    check_page(browser, work, "real corpus docs curves", path, [(CURVE, 100)])
    attributes_of_index(browser, work, docs)
    print(f"real corpus: {len(curve_pages)} curve pages, the largest {largest} bytes; index.html "
          f"{os.path.getsize(os.path.join(docs, 'index.html'))} bytes")
    check_real_plots(browser, work, binary, corpus)


def plot(binary, source, out, *extra):
    return subprocess.run([binary, "plot", source, "--out", out, *extra], capture_output=True, text=True)


def listed_slots(message):
    """The slots `plot` lists when a file's page would pass 1 MB: "It holds: slot 0: A000; slot 4: ..."."""
    listing = message.split("It holds: ", 1)[1].strip()
    return [re.match(r"slot (\S+?)(?::|$)", item).group(1) for item in listing.split("; ")]


def check_real_plots(browser, work, binary, corpus):
    """`plot` every KH2 file of the corpus, one slot at a time where it asks for --slot: every page
    under 1 MB; the largest renders."""
    folder = os.path.join(corpus, "kh2-mset")
    if not os.path.isdir(folder):
        print("real corpus: no kh2-mset folder, KH2 plots not checked")
        return
    out, sizes = os.path.join(work, "real-plot.html"), []
    files = sorted(os.path.join(root, name) for root, _, names in os.walk(folder) for name in names)
    for source in files:
        result = plot(binary, source, out)
        if result.returncode == 0:
            sizes.append((os.path.getsize(out), source, None))
        elif result.returncode == 2 and "--slot" in result.stderr:
            for slot in listed_slots(result.stderr):
                one = plot(binary, source, out, "--slot", slot)
                if one.returncode != 0:
                    raise SystemExit(f"real corpus: plot {source} --slot {slot}: exit {one.returncode} {one.stderr[-300:]}")
                sizes.append((os.path.getsize(out), source, slot))
        elif result.returncode != 3:  # 3: a broken file, which `index` records as an error too
            raise SystemExit(f"real corpus: plot {source}: exit {result.returncode} {result.stderr[-300:]}")
    over = [entry for entry in sizes if entry[0] >= MEGABYTE]
    if over:
        raise SystemExit(f"real corpus: plot pages over 1 MB: {over}")
    size, source, slot = max(sizes)
    largest = plot(binary, source, out, *(["--slot", slot] if slot else []))
    if largest.returncode != 0:
        raise SystemExit(f"real corpus: plot {source}: {largest.stderr[-300:]}")
    check_page(browser, work, "real corpus plot", out, [(CURVE, 100)])
    print(f"real corpus: {len(sizes)} KH2 plot pages from {len(files)} files, all under 1 MB; the largest {size} bytes "
          f"({os.path.relpath(source, corpus)}{' --slot ' + slot if slot else ''})")


if __name__ == "__main__":
    sys.exit(main())
