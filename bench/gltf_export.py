#!/usr/bin/env python3
"""`export --gltf` of every motion of the real P_EX100.mset (Sora, 228 bones) in one file: wall time
and peak RSS, each the median of RUNS fresh processes, with two baselines measured in the same run
on the same file (`info`: parse and list; `export --bake` at the motions' 30 per second: the same
curves sampled and written as CSV), and the file's size against the raw float floor: joints x 10
channels (T xyz, R xyzw, S xyz) x frames x 4 bytes, the frames read from the written file.

Usage: gltf_export.py ANIMDEX [CORPUS] [RUNS]   (CORPUS: ../shared/corpus/real)
"""
import json
import os
import statistics
import struct
import sys
import tempfile
import time

MSET = "kh2-mset/Zurphing__AirSlideBL/P_EX100.mset"
MODEL = "kh2-mdlx/KH-ReFined__KH2-MAIN/obj/P_EX100.mdlx"


def measure(args):
    """Wall seconds and peak RSS (MiB) of one fresh process."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execv(args[0], args)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("failed: " + " ".join(args))
    return wall, usage.ru_maxrss / 1024


def frames_in(glb):
    with open(glb, "rb") as f:
        data = f.read()
    length, = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + length])
    total = 0
    for animation in doc["animations"]:
        total += max(doc["accessors"][s["input"]]["count"] for s in animation["samplers"])
    return len(doc["nodes"]), len(doc["animations"]), total


def main():
    animdex = os.path.abspath(sys.argv[1])
    corpus = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus", "real")
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    mset, model = os.path.join(corpus, MSET), os.path.join(corpus, MODEL)
    with tempfile.TemporaryDirectory() as work:
        glb = os.path.join(work, "sora.glb")
        jobs = {"info (parse and list)": [animdex, "info", mset],
                "export --bake 30 (CSV)": [animdex, "export", mset, "--bake", "30", "--out", os.path.join(work, "sora.csv")],
                "export --gltf": [animdex, "export", mset, "--model", model, "--gltf", glb]}
        results = {name: [measure(args) for _ in range(runs)] for name, args in jobs.items()}
        joints, animations, frames = frames_in(glb)
        size = os.path.getsize(glb)
    floor = joints * 10 * frames * 4
    print("P_EX100.mset: %d animations, %d joints, %d frames in all; median of %d runs" % (animations, joints, frames, runs))
    gltf_wall = statistics.median(w for w, _ in results["export --gltf"])
    for name, values in results.items():
        wall = statistics.median(w for w, _ in values)
        rss = statistics.median(r for _, r in values)
        print("  %-24s %7.3f s  peak RSS %6.1f MiB  (gltf / this: %.2fx)" % (name, wall, rss, gltf_wall / wall))
    print("  file %d bytes; raw float floor %d bytes (%d x 10 x %d x 4); file / floor %.3f"
          % (size, floor, joints, frames, size / floor))


if __name__ == "__main__":
    main()
