#!/usr/bin/env python3
"""`animdex export --gltf` on the real corpus, checked by two readers that are not animdex:

1. every DS animation the index links to a model (exported with no --model: the link rule finds
   the model in its NARC) and every KH2 motion the index links to a model in corpus/real/kh2-mdlx
   (exported with that --model) is written, and the Khronos glTF-Validator reports 0 errors and
   0 warnings on each file (infos are listed);
2. the independent sampler (tests/independent/gltf_reference_sampler.py, written from the glTF
   spec alone) samples every animation at every frame and composes world matrices; each joint's
   position must equal `animdex pose --world` at that frame within 1e-4 of the skeleton's height,
   and at rest the skeleton must equal the model's bind pose in world space (`animdex pose MODEL
   --world`) within the same tolerance;
3. the 229-bone modded P_EX100.mdlx is linked to none of Sora's 228-bone motions.

Usage: gltf_corpus_check.py ANIMDEX VALIDATOR_DIR CORPUS WORKDIR   (exit 77: no corpus)
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLER = os.path.join(HERE, "..", "independent", "gltf_reference_sampler.py")
VALIDATE = os.path.join(HERE, "validate_gltf.js")
RELATIVE_TOLERANCE = 1e-4


def run(args):
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit("failed (%d): %s\n%s%s" % (result.returncode, " ".join(args), result.stdout, result.stderr))
    return result.stdout


def cases(animdex, corpus, work):
    db = os.path.join(work, "real.db")
    run([animdex, "index", corpus, "--db", db])
    con = sqlite3.connect(db)
    ds = [(row[0], None) for row in con.execute(
        "SELECT DISTINCT file FROM nitro_links WHERE format = 'nsbca' AND method <> 'none' ORDER BY file")]
    kh2 = list(con.execute(
        "SELECT DISTINCT file, model_file FROM kh2_links WHERE method <> 'none' "
        "AND model_file LIKE 'kh2-mdlx/%' ORDER BY 1, 2"))
    modded = con.execute(
        "SELECT COUNT(*) FROM kh2_links WHERE model_file LIKE '%SillyBillyMod1/obj/P_EX100.mdlx'").fetchone()[0]
    counts = {"ds": con.execute("SELECT COUNT(*) FROM nitro_links WHERE format = 'nsbca' AND method <> 'none'").fetchone()[0],
              "kh2": con.execute("SELECT COUNT(*) FROM kh2_links WHERE method <> 'none' AND model_file LIKE 'kh2-mdlx/%'").fetchone()[0]}
    return ds, kh2, modded, counts


def export(animdex, corpus, work, index, file, model):
    out = os.path.join(work, "export-%03d.glb" % index)
    args = [animdex, "export", os.path.join(corpus, file), "--gltf", out]
    if model:
        args += ["--model", os.path.join(corpus, model)]
    run(args)
    return out


def pose_world(animdex, corpus, file, model, animation):
    args = [animdex, "pose", os.path.join(corpus, file), "--world", "--format", "jsonl"]
    if model:  # KH2: the animation's name starts with its slot
        args += ["--model", os.path.join(corpus, model), "--slot", animation.split(" ")[0]]
    else:
        args += ["--anim", animation]
    return [json.loads(line) for line in run(args).splitlines()]


def height(positions):
    ys = [p[1] for p in positions]
    xs = [p[0] for p in positions]
    zs = [p[2] for p in positions]
    return max(max(ys) - min(ys), max(xs) - min(xs), max(zs) - min(zs), 1.0)


def invertible(rows):
    m = [rows[0:3], rows[4:7], rows[8:11]]
    det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
           + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
    return abs(det) > 1e-12


def worst(a, b):
    return max(abs(x - y) for p, q in zip(a, b) for x, y in zip(p, q))


def compare_file(animdex, corpus, file, model, glb, sampled):
    """Returns (animations, frames, joints compared, worst error relative to height)."""
    rest = sampled["rest"]
    scale = height(rest)
    if model:  # the bind pose round trip
        bind = json.loads(run([animdex, "pose", os.path.join(corpus, model), "--world", "--format", "json"]))
        # A joint under a node of bind scale 0 (a hidden DS part) rests at scale 1 in the export.
        shown = [j for j in bind["joints"] if j["parent"] is None or invertible(bind["joints"][j["parent"]]["M"])]
        error = worst([rest[j["node"]] for j in shown], [j["P"] for j in shown]) / scale
        if error > RELATIVE_TOLERANCE:
            raise SystemExit("%s: rest pose differs from %s's bind pose by %.3g of its height" % (glb, model, error))
    frames = compared = 0
    relative = 0.0
    with ThreadPoolExecutor(max_workers=2) as pool:
        poses = list(pool.map(lambda s: pose_world(animdex, corpus, file, model, s["animation"]), sampled["sampled"]))
    for s, ours in zip(sampled["sampled"], poses):
        if len(ours) != len(s["frames"]):
            raise SystemExit("%s '%s': %d frames in the file, pose --world gives %d" % (glb, s["animation"], len(s["frames"]), len(ours)))
        for theirs, mine in zip(s["frames"], ours):
            # The export starts each animation at 0 s; pose --world gives the motion's own time.
            if abs(theirs["time"] - (mine["time"] - ours[0]["time"])) > 1e-5:
                raise SystemExit("%s '%s': time %r against %r" % (glb, s["animation"], theirs["time"], mine["time"]))
            error = worst(theirs["positions"], [j["P"] for j in mine["joints"]]) / scale
            if error > RELATIVE_TOLERANCE:
                raise SystemExit("%s '%s' t=%g: positions differ by %.3g of the height" % (glb, s["animation"], mine["time"], error))
            relative = max(relative, error)
            frames += 1
            compared += len(theirs["positions"])
    return len(sampled["sampled"]), frames, compared, relative


def main():
    animdex, validator, corpus, work = sys.argv[1:5]
    if not os.path.isdir(corpus):
        print("skipped: %s is absent" % corpus)
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    ds, kh2, modded, counts = cases(animdex, corpus, work)
    if modded:
        raise SystemExit("the 229-bone P_EX100.mdlx is linked to %d motions" % modded)
    jobs = ds + kh2
    files = [export(animdex, corpus, work, i, file, model) for i, (file, model) in enumerate(jobs)]
    report = run(["node", VALIDATE, validator] + files)
    infos = set()
    for line in report.splitlines():
        item = json.loads(line)
        infos.update(m for m in item["messages"])
    totals = [0, 0, 0, 0.0]
    for (file, model), glb in zip(jobs, files):
        sampled = json.loads(run([sys.executable, SAMPLER, glb, "--all"]))
        if sampled["inverse_bind_max_error"] is not None and sampled["inverse_bind_max_error"] > 1e-3:
            raise SystemExit("%s: inverse bind matrices off by %g" % (glb, sampled["inverse_bind_max_error"]))
        result = compare_file(animdex, corpus, file, model, glb, sampled)
        for k in range(3):
            totals[k] += result[k]
        totals[3] = max(totals[3], result[3])
    print("links in the index: %d DS animations, %d KH2 motions with a model in kh2-mdlx; the 229-bone model: %d"
          % (counts["ds"], counts["kh2"], modded))
    print("exported %d files (%d DS, %d KH2), validator: 0 errors, 0 warnings; infos: %s"
          % (len(files), len(ds), len(kh2), ", ".join(sorted(infos)) or "none"))
    print("sampler vs pose --world: %d animations, %d frames, %d joint positions; worst %.3g of the height (tolerance %g)"
          % (totals[0], totals[1], totals[2], totals[3], RELATIVE_TOLERANCE))
    if totals[0] != counts["ds"] + counts["kh2"]:
        raise SystemExit("exported %d animations, the index links %d" % (totals[0], counts["ds"] + counts["kh2"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
