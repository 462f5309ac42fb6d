#!/usr/bin/env python3
"""Independent check of `animdex pose` on LightWave files.

A second implementation of the format note's reference semantics (../shared/formats/lightwave-mot.md,
"Evaluating a v3 envelope" and "Evaluating v1"), written separately from the C++ code, evaluates every
channel of every .mot/.env file under a folder at times before, between, on and after the keys, and
compares with what `animdex pose --format json` prints.

Usage: lw_reference_eval.py ANIMDEX_BINARY FOLDER      (exit 77 = skipped: no folder)
"""
import json
import math
import os
import subprocess
import sys


def load(path):
    text = open(path, "rb").read().decode("ascii")
    tokens = text.split()
    version = int(tokens[1])
    channels = []  # each: dict(keys=[(value, time, shape, p1..p6)], pre, post)
    if version == 1:
        count, nkeys = int(tokens[2]), int(tokens[3])
        numbers = [float(t) for t in tokens[4:]]
        assert len(numbers) == nkeys * (count + 5)
        channels = [dict(keys=[], pre=1, post=1) for _ in range(count)]
        for k in range(nkeys):
            row = numbers[k * (count + 5):(k + 1) * (count + 5)]
            frame, linear, t, c, b = row[count:]
            for i in range(count):
                channels[i]["keys"].append((row[i], frame, 3 if linear == 1 else 0, t, c, b, 0.0, 0.0, 0.0))
    else:
        lines = [l.split() for l in text.splitlines() if l.split()]
        i = 3  # magic, version, NumChannels
        while i < len(lines):
            assert lines[i][0] == "Channel"
            nkeys = int(lines[i + 2][0])
            keys = []
            for line in lines[i + 3:i + 3 + nkeys]:
                nums = [float(x) for x in line[1:]] + [0.0] * (10 - len(line))
                keys.append((nums[0], nums[1], int(nums[2])) + tuple(nums[3:9]))
            behaviors = lines[i + 3 + nkeys]
            channels.append(dict(keys=keys, pre=int(behaviors[1]), post=int(behaviors[2])))
            i += 3 + nkeys + 2
    return version, channels


V, T, SHAPE, P1, P2, P3, P4, P5 = 0, 1, 2, 3, 4, 5, 6, 7


def out_tangent(keys, i, neighbour=True):
    k0, k1 = keys[i], keys[i + 1]
    d = k1[V] - k0[V]
    prev = keys[i - 1] if neighbour and i > 0 else None
    r = (k1[T] - k0[T]) / (k1[T] - prev[T]) if prev else None
    shape = k0[SHAPE]
    if shape == 0:
        a = (1 - k0[P1]) * (1 + k0[P2]) * (1 + k0[P3])
        b = (1 - k0[P1]) * (1 - k0[P2]) * (1 - k0[P3])
        return r * (a * (k0[V] - prev[V]) + b * d) if prev else b * d
    if shape == 3:
        return r * ((k0[V] - prev[V]) + d) if prev else d
    if shape in (1, 2):
        return k0[P5] * r if prev else k0[P5]
    if shape == 5:
        scale = 1e5 if abs(k0[P3]) < 1e-5 else 1 / k0[P3]
        return k0[P4] * (k1[T] - k0[T]) * scale
    return 0.0


def in_tangent(keys, j, neighbour=True):
    k0, k1 = keys[j - 1], keys[j]
    d = k1[V] - k0[V]
    nxt = keys[j + 1] if neighbour and j + 1 < len(keys) else None
    q = (k1[T] - k0[T]) / (nxt[T] - k0[T]) if nxt else None
    shape = k1[SHAPE]
    if shape == 0:
        a = (1 - k1[P1]) * (1 - k1[P2]) * (1 + k1[P3])
        b = (1 - k1[P1]) * (1 + k1[P2]) * (1 - k1[P3])
        return q * (b * (nxt[V] - k1[V]) + a * d) if nxt else a * d
    if shape == 3:
        return q * ((nxt[V] - k1[V]) + d) if nxt else d
    if shape in (1, 2):
        return k1[P4] * q if nxt else k1[P4]
    if shape == 5:
        scale = 1e5 if abs(k1[P1]) < 1e-5 else 1 / k1[P1]
        return k1[P2] * (k1[T] - k0[T]) * scale
    return 0.0


def cubic(a, b, c, d, u):
    return (1 - u) ** 3 * a + 3 * (1 - u) ** 2 * u * b + 3 * (1 - u) * u * u * c + u ** 3 * d


def span_value(keys, i, t):
    k0, k1 = keys[i], keys[i + 1]
    s = (t - k0[T]) / (k1[T] - k0[T])
    shape = k1[SHAPE]
    if shape == 3:
        return k0[V] + s * (k1[V] - k0[V])
    if shape == 4:
        return k0[V]
    if shape == 5:
        if k0[SHAPE] == 5:
            x1, y1 = k0[T] + k0[P3], k0[V] + k0[P4]
        else:
            x1, y1 = k0[T] + (k1[T] - k0[T]) / 3, k0[V] + out_tangent(keys, i) / 3
        x2, y2 = k1[T] + k1[P1], k1[V] + k1[P2]
        lo, hi = 0.0, 1.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if cubic(k0[T], x1, x2, k1[T], mid) < t:
                lo = mid
            else:
                hi = mid
        return cubic(k0[V], y1, y2, k1[V], (lo + hi) / 2)
    h2 = 3 * s * s - 2 * s ** 3
    return (1 - h2) * k0[V] + h2 * k1[V] + (s ** 3 - 2 * s * s + s) * out_tangent(keys, i) + (s ** 3 - s * s) * in_tangent(keys, i + 1)


def evaluate(channel, t):
    keys = channel["keys"]
    if len(keys) == 1:
        return keys[0][V]
    first, last = keys[0], keys[-1]
    length = last[T] - first[T]
    offset = 0.0
    if t < first[T] or t > last[T]:
        behaviour = channel["pre"] if t < first[T] else channel["post"]
        if behaviour == 0:
            return 0.0
        if behaviour == 1:
            return first[V] if t < first[T] else last[V]
        if behaviour == 5:
            if t < first[T]:
                return first[V] + (t - first[T]) * out_tangent(keys, 0, False) / (keys[1][T] - first[T])
            return last[V] + (t - last[T]) * in_tangent(keys, len(keys) - 1, False) / (last[T] - keys[-2][T])
        if length == 0:
            return first[V]
        n = math.floor((t - first[T]) / length)
        t -= n * length
        if behaviour == 3 and n % 2 == 1:
            t = first[T] + last[T] - t
        if behaviour == 4:
            offset = n * (last[V] - first[V])
        t = min(max(t, first[T]), last[T])
    for i, key in enumerate(keys):
        if key[T] == t:
            j = i
            while j + 1 < len(keys) and keys[j + 1][T] == t:
                j += 1
            return keys[j][V] + offset
    i = max(k for k in range(len(keys)) if keys[k][T] < t)
    return span_value(keys, i, t) + offset


def main():
    animdex, folder = sys.argv[1], sys.argv[2]
    if not os.path.isdir(folder):
        print(f"skipped: {folder} not found")
        return 77
    compared, worst = 0, 0.0
    for root, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            if not name.lower().endswith((".mot", ".env")):
                continue
            path = os.path.join(root, name)
            version, channels = load(path)
            times = sorted({k[T] for c in channels for k in c["keys"]})
            first, last = times[0], times[-1]
            span = max(last - first, 1.0)
            samples = [first - 0.7 * span, first - 0.13 * span, last + 0.37 * span, last + 1.61 * span]
            samples += [first + span * f for f in (0.05, 0.31, 0.5, 0.77, 0.93)] + times[:6]
            for t in samples:
                # v1 keys are frames: ask for the frame; v3 keys are seconds: ask for the time.
                flag = ["--frame", repr(t)] if version == 1 else ["--time", repr(t)]
                result = subprocess.run([animdex, "pose", path, *flag, "--format", "json"], capture_output=True,
                                        text=True, check=True)
                got = {row["index"]: row["value"] for row in json.loads(result.stdout)["channels"]}
                for index, channel in enumerate(channels):
                    want = evaluate(channel, t)
                    error = abs(got[index] - want) / max(1.0, abs(want))
                    worst = max(worst, error)
                    # animdex prints numbers at float32 precision (src/core/number_text.h): 9 significant
                    # digits at most, and a value a float32 holds exactly as that float32's shortest text.
                    if error > 1e-7:
                        print(f"MISMATCH {path} channel {index} t={t}: animdex {got[index]!r}, reference {want!r}")
                        return 1
                    compared += 1
    print(f"{compared} channel values agree with the independent evaluator (worst relative difference {worst:.3g})")
    return 0 if compared else 1


if __name__ == "__main__":
    sys.exit(main())
