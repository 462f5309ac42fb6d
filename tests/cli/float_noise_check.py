#!/usr/bin/env python3
"""No float32 noise in any output on the real corpus (issue 16: "numbers as the file stored them").

Indexes ../shared/corpus/real, then runs every named query (each required parameter given a value
the corpus has) in every output format, `info --format json` and `pose` on real files, the reports
and a diff, and looks at every number in what they print: a number with more than 9 significant
digits is float32 noise (a float32 needs at most 9), unless the file stored it as text (LightWave,
whose files are text; their values are checked apart against the text they came from) or it is a
DS fixed-point value, printed exactly since issue 39 (a multiple of 1/4096).
Exit 77 (skipped) when ../shared is absent.

Usage: float_noise_check.py ANIMDEX_BINARY CORPUS_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

NUMBER = re.compile(r"(?<![\w.#/-])-?(?:\d+\.\d+|\d+(?:\.\d+)?[eE][-+]?\d+)(?![\w.])")


def significant_digits(token):
    mantissa = re.split(r"[eE]", token.lstrip("-"))[0].replace(".", "").lstrip("0")
    return len(mantissa.rstrip("0")) if "e" not in token.lower() else len(mantissa)


HASH = re.compile(r"\b[0-9a-f]{16}\b")  # content hashes: 16 hex digits, which can look like 1e5


def fixed_point(token):
    """A DS 1/4096 step, printed exactly (4095/4096 = 0.999755859375): the file's number, not noise."""
    try:
        steps = float(token) * 4096.0
    except ValueError:
        return False
    return steps == round(steps)


def noisy(text):
    return [token for token in NUMBER.findall(HASH.sub("", text))
            if significant_digits(token) > 9 and not fixed_point(token)]


def run(binary, *args):
    result = subprocess.run([binary, *args], capture_output=True, text=True)
    return result.returncode, result.stdout


def main():
    binary, corpus = sys.argv[1], sys.argv[2]
    if not os.path.isdir(corpus):
        print(f"skipped: {corpus} is absent")
        return 77
    problems = []
    outputs = 0
    with tempfile.TemporaryDirectory(prefix="animdex-noise-") as folder:
        db = os.path.join(folder, "real.db")
        subprocess.run([binary, "index", corpus, "--db", db, "--label", "real", "-q"], check=False)
        subprocess.run([binary, "index", os.path.join(corpus, "kh2-mset"), "--db", db, "--label", "kh2", "--allow-overlap", "-q"],
                       check=False)

        def look(what, text, allow_text_values=False):
            nonlocal outputs
            outputs += 1
            bad = noisy(text)
            if bad:
                problems.append(f"{what}: {bad[:5]}")

        values = {"bone": "1", "character": "P_EX100_MAGF", "dump": "real", "from": "kh2", "to": "real",
                  "file": "P_EX100", "animation": "aritama", "numbering": "code"}
        _, listing = run(binary, "queries", "--format", "json")
        for query in json.loads(listing):
            args = ["query", query["name"], "--db", db]
            for parameter in query["parameters"]:
                if parameter["required"]:
                    args += ["-p", parameter["name"], values.get(parameter["name"], "real")]
            for form in ("table", "csv", "tsv", "json", "jsonl", "markdown"):
                code, out = run(binary, *args, "--format", form, "--max-rows", "5000000")
                if code != 0:
                    problems.append(f"{' '.join(args)} --format {form}: exit {code}")
                look(f"query {query['name']} ({form})", out)
        for form in ("csv", "json"):
            look(f"keyframes ({form})", run(binary, "sql", "SELECT k.* FROM keyframes k JOIN bone_tracks t ON "
                 "t.id = k.track_id JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id "
                 "WHERE f.format NOT LIKE 'lw%'", "--db", db, "--format", form, "--max-rows", "5000000")[1])
        for root, _, files in os.walk(corpus):
            for name in sorted(files):
                path = os.path.join(root, name)
                if "lightwave" in path:
                    continue  # text files: their values are the decimals the file wrote
                code, out = run(binary, "info", path, "--format", "json")
                if code in (0, 3) and out.startswith("{"):
                    look(f"info {path}", out)
                if path.lower().endswith(".nsbca"):
                    for form in ("json", "csv"):
                        look(f"pose {path} ({form})", run(binary, "pose", path, "--frame", "1", "--format", form)[1])
        for form in ("markdown", "json", "csv"):
            look(f"report reuse ({form})", run(binary, "report", "reuse", "--db", db, "--dump", "real", "--format", form)[1])
            look(f"diff ({form})", run(binary, "diff", "--db", db, "--from", "kh2", "--to", "real", "--format", form)[1])
    for problem in problems:
        print("NOISE", problem)
    print(f"{outputs} outputs looked at, {len(problems)} with a number of more than 9 significant digits")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
