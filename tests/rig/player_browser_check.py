#!/usr/bin/env python3
"""The 3D player pages (`animdex view`, and the players of `report docs` and `plot`) in headless
Chromium (Debian's, as the report pages' check uses).

Each page is opened at an address that chooses the animation and frame (`page.html#anim=NAME&frame=F`)
and must load with no console message and no error on the page; the pose it exposes then (body
data-pose, what `window.animdexPose(F)` returns: every joint's world position) must equal
`animdex pose --world` at that frame within 1e-4 of the skeleton's size (the glTF check's tolerance):
  * the sample's KH2 set and DS door at three frames each;
  * with the real corpus beside the repository: a real DS animation with its model (pokeheartgold,
    found in its NARC by the link rule) and Sora's P_EX100.mset on the real skeleton, three frames
    each; the page sizes are printed (the page holds what fits in 8 MB and lists the rest);
  * screenshots at two frames differ where the skeleton moves, and the page renders with the
    chooser on another animation;
  * hostile names (HTML, script, quotes) in a node's and an animation's name are text: no element
    made of them, no script run;
  * `report docs` writes players beside its curve pages, and each curve page links its animations
    to them; a player from there plays with the scripts beside it.

Usage: player_browser_check.py ANIMDEX WORK_DIR     (exit 77 = skipped: no chromium)
"""
import html
import json
import os
import re
import shutil
import subprocess
import sqlite3
import sys
from urllib.parse import quote, unquote

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reports"))
from browser_check import console_lines, png_pixels, real_corpus, start  # noqa: E402

TOLERANCE = 1e-4
BUDGET = "--virtual-time-budget=20000"  # lets the page decode the .glb before the DOM is dumped


def run(args, code=0):
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode != code:
        raise SystemExit("exit %d, expected %d: %s\n%s%s" % (result.returncode, code, " ".join(args), result.stdout,
                                                             result.stderr))
    return result


def browser_run(browser, work, url, *extra):
    profile = os.path.join(work, "profile")
    return subprocess.run([browser, "--headless", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                           "--enable-logging=stderr",
                           "--log-level=0", f"--user-data-dir={profile}", "--window-size=1000,800", BUDGET, *extra,
                           url], capture_output=True, text=True, timeout=180)


def player_data(page):
    text = open(page, encoding="utf-8").read()
    return json.loads(re.search(r"const ANIMDEX_PLAYER = (.*?);</script>", text, re.S).group(1))


def address(page, animation, frame):
    return "file://%s#anim=%s&frame=%d" % (page, quote(animation, safe=""), frame)


def open_page(browser, work, page, animation, frame):
    """The body's data- attributes and the dumped DOM, failing on console messages or a page error."""
    result = browser_run(browser, work, address(page, animation, frame), "--dump-dom")
    if result.returncode != 0:
        raise SystemExit("%s: chromium failed: %s" % (page, result.stderr[-500:]))
    messages = console_lines(result.stderr)
    if messages:
        raise SystemExit("%s: console messages: %s" % (page, messages))
    body = re.search(r"<body([^>]*)>", result.stdout)
    attributes = {k: html.unescape(v) for k, v in re.findall(r'(data-[a-z-]+)="([^"]*)"', body.group(1) if body else "")}
    if attributes.get("data-error"):
        raise SystemExit("%s: the page says: %s" % (page, attributes["data-error"]))
    if attributes.get("data-ready") != "1":
        raise SystemExit("%s: the player did not become ready: %s" % (page, attributes))
    return attributes, result.stdout


def size_of(points):
    spans = [max(p[i] for p in points) - min(p[i] for p in points) for i in range(3)]
    return max(max(spans), 1.0)


def pose_world(animdex, source, extra, seconds):
    out = run([animdex, "pose", source, "--world", "--format", "json", "--time", repr(seconds)] + extra).stdout
    poses = json.loads(out)
    pose = poses[0] if isinstance(poses, list) else poses
    return [joint["P"] for joint in pose["joints"]]


def check_frames(browser, work, animdex, page, source, extra, animation, frames):
    """The page's pose at each frame against pose --world; returns the worst relative difference."""
    data = player_data(page)
    entry = next(a for a in data["animations"] if a["name"] == animation)
    worst = 0.0
    for frame in frames:
        attributes, _ = open_page(browser, work, page, animation, frame)
        if attributes.get("data-animation") != animation or attributes.get("data-frame") != str(frame):
            raise SystemExit("%s: shows %r frame %r, asked %r frame %d" % (page, attributes.get("data-animation"),
                                                                           attributes.get("data-frame"), animation, frame))
        shown = json.loads(attributes["data-pose"])
        # KH2 names start with the slot; DS animations go by name.
        choice = ["--slot", animation.split(" ")[0]] if source.endswith(".mset") else ["--anim", animation]
        expected = pose_world(animdex, source, extra + choice, entry["first"] + frame / entry["fps"])
        if len(shown) != len(expected):
            raise SystemExit("%s: %d joints on the page, pose --world gives %d" % (page, len(shown), len(expected)))
        scale = size_of(expected)
        error = max(abs(a - b) for p, q in zip(shown, expected) for a, b in zip(p, q)) / scale
        if error > TOLERANCE:
            raise SystemExit("%s '%s' frame %d: the page's joints differ from pose --world by %.3g of the size"
                             % (page, animation, frame, error))
        worst = max(worst, error)
    return worst


def poses_at(browser, work, page, animation, frame):
    """A comparison page's poses at a frame: [before, after], None where a side lacks the animation."""
    attributes, _ = open_page(browser, work, page, animation, frame)
    return json.loads(attributes["data-poses"])


def worst_difference(shown, expected):
    if len(shown) != len(expected):
        raise SystemExit("%d joints on the page, pose --world gives %d" % (len(shown), len(expected)))
    return max(abs(a - b) for p, q in zip(shown, expected) for a, b in zip(p, q)) / size_of(expected)


def patch_one_key(animdex, database, path, file):
    """Changes one stored key value of `file` (a KH2 motion set keeps its key values as float32):
    the first key whose float32 bytes occur once in the file becomes 0.25 larger."""
    import struct
    data = bytearray(open(file, "rb").read())
    rows = json.loads(run([animdex, "sql", "--db", database, "--format", "json", "--max-rows", "5000",
                           "SELECT k.x FROM keyframes k JOIN bone_tracks t ON t.id = k.track_id JOIN animations a "
                           "ON a.id = t.animation_id JOIN files f ON f.id = a.file_id WHERE f.path = '%s' AND k.x "
                           "IS NOT NULL AND k.x <> 0 ORDER BY a.slot, t.track_index, k.key_index LIMIT 5000" % path]).stdout)
    for value in (row["x"] for row in rows):
        stored = struct.pack("<f", value)
        if data.count(stored) == 1:
            at = data.find(stored)
            data[at:at + 4] = struct.pack("<f", value + 0.25)
            open(file, "wb").write(data)
            return value
    raise SystemExit("%s: no key value to change" % file)


def most_changed_frame(animdex, before_root, after_root, path, extra, entry):
    """The frame of the page's animation where pose --world of the two files differs most."""
    times = []
    for frame in range(entry["frames"]):
        times += ["--time", repr(entry["first"] + frame / entry["fps"])]
    sides = [json.loads(run([animdex, "pose", os.path.join(root, path), "--world", "--format", "json"] + extra + times)
                        .stdout) for root in (before_root, after_root)]
    moved = [max(abs(a - b) for p, q in zip(x["joints"], y["joints"]) for a, b in zip(p["P"], q["P"]))
             for x, y in zip(*sides)]
    return max(range(len(moved)), key=lambda frame: moved[frame])


def check_diff(browser, work, animdex, before_root, after_root, changed_path, extra, name):
    """diff --format html between two dumps, one key of `changed_path` changed: the diff links the
    changed animation to a player that draws both sides, each equal to pose --world of its file."""
    databases = [os.path.join(work, name + "-before.db"), os.path.join(work, name + "-after.db")]
    run([animdex, "index", before_root, "--db", databases[0], "--label", "before", "--quiet"])
    value = patch_one_key(animdex, databases[0], changed_path, os.path.join(after_root, changed_path))
    run([animdex, "index", after_root, "--db", databases[1], "--label", "after", "--quiet"])
    out = os.path.join(work, name + "-changes.html")
    result = run([animdex, "diff", databases[0], databases[1], "--format", "html", "--out", out])
    links = re.findall(r'<a class="player" href="([^"]+)"', open(out, encoding="utf-8").read())
    if len(links) != 1:
        raise SystemExit("%s: %d player links, expected 1 (the changed animation)\n%s" % (out, len(links), result.stderr))
    page, _, anchor = html.unescape(links[0]).partition("#anim=")
    page = os.path.join(os.path.dirname(out), unquote(page))
    animation = unquote(anchor)
    entry = next(a for a in player_data(page)["animations"] if a["name"] == animation)
    last = entry["frames"] - 1
    slot = ["--slot", animation.split(" ")[0]]
    frames = [0, most_changed_frame(animdex, before_root, after_root, changed_path, extra + slot, entry), last]
    worst, moved = 0.0, 0.0
    for frame in frames:
        before, after = poses_at(browser, work, page, animation, frame)
        seconds = entry["first"] + frame / entry["fps"]
        for shown, root in [(before, before_root), (after, after_root)]:
            expected = pose_world(animdex, os.path.join(root, changed_path), extra + slot, seconds)
            error = worst_difference(shown, expected)
            if error > TOLERANCE:
                raise SystemExit("%s frame %d: a side differs from pose --world by %.3g of the size" % (page, frame, error))
            worst = max(worst, error)
        moved = max(moved, max(abs(a - b) for p, q in zip(before, after) for a, b in zip(p, q)))
    if moved == 0:
        raise SystemExit("%s: before and after are drawn the same, though a key changed" % page)
    print("%s diff: key %r changed; %s links to %s; '%s' at frames %s: both sides equal pose --world (worst "
          "%.3g of the size), the sides differ by up to %.3g" % (name, value, os.path.basename(out), links[0], animation,
                                                                  frames, worst, moved))


def view(animdex, source, page, *extra):
    result = run([animdex, "view", source, "--out", page] + list(extra))
    return result.stderr.strip().splitlines()[0]  # "wrote PAGE (...)", on stderr as every write is said


def changed_pixels(a, b):
    wa, ha, ca, ra = png_pixels(a)
    wb, hb, cb, rb = png_pixels(b)
    if (wa, ha, ca) != (wb, hb, cb):
        return wa * ha
    return sum(1 for x, y in zip(ra, rb) for i in range(0, len(x), ca) if x[i:i + 3] != y[i:i + 3])


def check_moves(browser, work, page, animation, frames):
    """Screenshots at two frames differ; returns how many pixels changed."""
    shots = []
    for frame in frames:
        shot = os.path.join(work, "shot-%d.png" % frame)
        result = browser_run(browser, work, address(page, animation, frame), "--screenshot=" + shot, "--hide-scrollbars")
        if result.returncode != 0 or not os.path.exists(shot):
            raise SystemExit("%s: no screenshot: %s" % (page, result.stderr[-500:]))
        shots.append(shot)
    changed = changed_pixels(*shots)
    if changed < 50:
        raise SystemExit("%s: frames %s look the same (%d pixels differ)" % (page, frames, changed))
    return changed


def lwmo_text():
    return "LWMO\n1\n9\n2\n0 0 0 0 0 0 1 1 1\n0 0 0 0 0\n1 2 3 0 0 0 1 1 1\n30 0 0 0 0\n"


def check_hostile(browser, work, animdex):
    """A LightWave motion is one node named after its file: a file name made of HTML and quotes."""
    name = "<b id=\"x\">'&<script>document.title='run'</script>.mot"
    source = os.path.join(work, name.replace("/", "_"))
    with open(source, "w") as out:
        out.write(lwmo_text())
    page = os.path.join(work, "hostile.html")
    view(animdex, source, page)
    animation = os.path.basename(source)
    attributes, dom = open_page(browser, work, page, animation, 15)
    if re.search(r"<b id=\"x\"", dom) or "<title>run" in dom or re.search(r"<script>document\.title", dom):
        raise SystemExit("hostile names became HTML: %s" % dom[:2000])
    if attributes.get("data-animation") != animation:
        raise SystemExit("hostile names: the page shows %r" % attributes.get("data-animation"))
    if html.escape("<b id=\"x\">", quote=False) not in dom:
        raise SystemExit("hostile names: the name is not shown as text")
    print("hostile names: shown as text, nothing run (%s)" % json.dumps(animation))


def check_docs(browser, work, animdex):
    """report docs: players beside the curve pages, linked from them; one plays."""
    sample = os.path.join(work, "docs-sample")
    run([animdex, "sample", sample, "--characters", "1", "--kh2", "--nsbca", "--no-problem-files"])
    database = os.path.join(work, "docs.db")
    run([animdex, "index", sample, "--db", database, "--label", "v1", "--quiet"])
    docs = os.path.join(work, "docs")
    run([animdex, "report", "docs", "--db", database, "--out", docs])
    players = os.path.join(docs, "v1", "players")
    pages = sorted(name for name in os.listdir(players) if name.endswith(".html"))
    curves = os.path.join(docs, "v1", "curves")
    links = sum(open(os.path.join(curves, name), encoding="utf-8").read().count('href="../players/')
                for name in os.listdir(curves))
    if len(pages) < 2 or links < 2:
        raise SystemExit("report docs: %d players, %d links to them" % (len(pages), links))
    kh2 = next(name for name in pages if "P_SAMPLE" in name)
    page = os.path.join(players, kh2)
    first = player_data(page)["animations"][0]["name"]
    open_page(browser, work, page, first, 1)
    print("report docs: %d players (%s), %d links from the curve pages; %s plays" % (len(pages), ", ".join(pages),
                                                                                      links, kh2))


def main():
    animdex, work = sys.argv[1], sys.argv[2]
    browser = start(work)
    if not browser:
        return 77
    sample = os.path.join(work, "s")
    run([animdex, "sample", sample, "--characters", "1", "--kh2", "--nsbca", "--no-problem-files"])

    kh2_set = os.path.join(sample, "kh2", "obj", "P_SAMPLE.mset")
    page = os.path.join(work, "sample-kh2.html")
    print("sample KH2: " + view(animdex, kh2_set, page))
    animations = [a["name"] for a in player_data(page)["animations"]]
    first = player_data(page)["animations"][0]
    last = first["frames"] - 1
    worst = check_frames(browser, work, animdex, page, kh2_set, [], animations[0], [0, last // 2, last])
    print("  '%s' at frames 0, %d, %d: worst %.3g of the size" % (animations[0], last // 2, last, worst))
    moved = check_moves(browser, work, page, animations[0], [0, last // 2])
    print("  screenshots at frames 0 and %d: %d pixels differ" % (last // 2, moved))
    other = animations[1]
    attributes, _ = open_page(browser, work, page, other, 0)
    print("  the chooser on '%s' renders (%d animations in the page)" % (attributes["data-animation"], len(animations)))

    door = os.path.join(sample, "nds", "data", "door.nsbca")
    page = os.path.join(work, "sample-ds.html")
    print("sample DS: " + view(animdex, door, page))
    for entry in player_data(page)["animations"]:
        last = entry["frames"] - 1
        worst = check_frames(browser, work, animdex, page, door, [], entry["name"], [0, last // 2, last])
        print("  '%s' at frames 0, %d, %d: worst %.3g of the size" % (entry["name"], last // 2, last, worst))

    gnt = run([animdex, "view", os.path.join(sample, "files", "chr", "sas", "0000.mot"), "--out",
               os.path.join(work, "gnt.html")], code=2)
    print("GNT: exit 2, " + gnt.stderr.strip())
    check_hostile(browser, work, animdex)
    changed = os.path.join(work, "s-changed")
    shutil.rmtree(changed, ignore_errors=True)
    shutil.copytree(sample, changed)
    check_diff(browser, work, animdex, sample, changed, "kh2/obj/P_SAMPLE.mset", [], "sample")
    check_docs(browser, work, animdex)
    check_real(browser, work, animdex)
    return 0


def check_real(browser, work, animdex):
    corpus = real_corpus()
    if not corpus:
        print("real corpus: absent, not checked")
        return
    ds = os.path.join(corpus, "containers", "pret__pokeheartgold", "files", "a", "0", "9", "4", "2")
    page = os.path.join(work, "real-ds.html")
    print("real DS: " + view(animdex, ds, page))
    entry = player_data(page)["animations"][0]
    last = entry["frames"] - 1
    worst = check_frames(browser, work, animdex, page, ds, [], entry["name"], [0, last // 3, last])
    print("  '%s' at frames 0, %d, %d: worst %.3g of the size" % (entry["name"], last // 3, last, worst))
    moved = check_moves(browser, work, page, entry["name"], [0, last // 3])
    print("  screenshots at frames 0 and %d: %d pixels differ" % (last // 3, moved))

    sora = os.path.join(corpus, "kh2-mset", "Zurphing__AirSlideBL", "P_EX100.mset")
    model = os.path.join(corpus, "kh2-mdlx", "JacobV4260__Keyblade-Colors", "obj", "P_EX100.mdlx")
    page = os.path.join(work, "real-sora.html")
    print("real KH2: " + view(animdex, sora, page, "--model", model))
    size = os.path.getsize(page)
    data = player_data(page)
    if size > 8 * 1024 * 1024:
        raise SystemExit("%s: %d bytes, over the 8 MiB budget" % (page, size))
    entry = data["animations"][0]
    last = entry["frames"] - 1
    worst = check_frames(browser, work, animdex, page, sora, ["--model", model], entry["name"], [0, last // 2, last])
    print("  %d bytes, %d animations in the page; '%s' at frames 0, %d, %d: worst %.3g of the size"
          % (size, len(data["animations"]), entry["name"], last // 2, last, worst))
    other = data["animations"][-1]["name"]
    open_page(browser, work, page, other, 0)
    print("  the chooser on '%s' renders" % other)
    check_real_diff(browser, work, animdex, sora, model)
    check_real_docs(browser, work, animdex, corpus)


def check_real_diff(browser, work, animdex, sora, model):
    """Sora's motion set and model copied into two dumps (into the work folder, never the project),
    one key changed in the second."""
    roots = [os.path.join(work, "sora-" + side) for side in ("before", "after")]
    for root in roots:
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(os.path.join(root, "obj"))
        shutil.copy(sora, os.path.join(root, "obj"))
        shutil.copy(model, os.path.join(root, "obj"))
    check_diff(browser, work, animdex, roots[0], roots[1], "obj/P_EX100.mset", [], "real KH2")


def check_real_docs(browser, work, animdex, corpus):
    """report docs on the real corpus: every animation the index links to a skeleton links to a player."""
    database, docs = os.path.join(work, "real.db"), os.path.join(work, "real-docs")
    run([animdex, "index", corpus, "--db", database, "--label", "real", "--quiet"])
    run([animdex, "report", "docs", "--db", database, "--out", docs])
    con = sqlite3.connect(database)
    linked = con.execute("SELECT (SELECT COUNT(*) FROM nitro_links WHERE format = 'nsbca' AND method <> 'none') + "
                         "(SELECT COUNT(*) FROM kh2_links WHERE method <> 'none')").fetchone()[0]
    curves = os.path.join(docs, "real", "curves")
    links = sum(open(os.path.join(curves, name), encoding="utf-8").read().count('class="player"')
                for name in os.listdir(curves))
    players = os.path.join(docs, "real", "players")
    pages = sorted(name for name in os.listdir(players) if name.endswith(".html"))
    if links != linked:
        raise SystemExit("real corpus docs: %d animations linked to a player, the index links %d to a skeleton"
                         % (links, linked))
    largest = max(os.path.getsize(os.path.join(players, name)) for name in pages)
    if largest > 8 * 1024 * 1024:
        raise SystemExit("real corpus docs: a player of %d bytes, over 8 MiB" % largest)
    split = [name for name in pages if "~" in name]
    page = os.path.join(players, split[0] if split else pages[0])
    open_page(browser, work, page, player_data(page)["animations"][0]["name"], 0)
    print("real corpus docs: all %d animations linked to a skeleton link to one of %d players (largest %d bytes; "
          "split: %s); %s plays" % (linked, len(pages), largest, ", ".join(split) or "none", os.path.basename(page)))


if __name__ == "__main__":
    sys.exit(main())
