#!/usr/bin/env python3
"""Runs the README's example commands against the binary, so the README cannot drift from it.

1. The "A session" block (```console after `<!-- readme-check: session -->`): every `$ COMMAND`
   runs in bash in a fresh folder, with the binary first on PATH, and its output (stdout, then
   stderr, as a terminal shows a short run) must be the lines that follow it. A line `...` stands
   for any number of lines; run times (`0.07 s`) are compared as `#.## s`, and the folder's path
   is written `$TMP`.
2. The "Examples" block (```sh after `<!-- readme-check: examples -->`): every line runs, in order,
   in a second fresh folder, and must exit 0 (a trailing `# exit N` comment says otherwise).
3. The lists the registries own: the formats table and the containers table (after
   `<!-- readme-check: formats` / `containers`) name in their first column exactly the ids
   `animdex formats` lists of that kind, in its order; the paragraph after
   `<!-- readme-check: compressions` names every codec. A format added in its folder fails here
   until the README says what it is.

Usage: readme_check.py ANIMDEX_BINARY README.md
"""
import os
import re
import subprocess
import sys
import tempfile

TIME = re.compile(r"\b\d+\.\d\d s\b")


def block_after(text, marker):
    at = text.find(marker)
    if at < 0:
        raise SystemExit(f"README has no {marker}")
    start = text.index("```", at)
    start = text.index("\n", start) + 1
    end = text.index("```", start)
    return text[start:end].splitlines()


def normal(line):
    return TIME.sub("#.## s", line.rstrip())


def matches(expected, actual):
    """expected may hold `...` lines that stand for any number of actual lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and normal(expected[0]) == normal(actual[0]) and matches(expected[1:], actual[1:])


def run(command, folder, env):
    result = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True)
    output = (result.stdout + result.stderr).replace(os.path.realpath(folder), "$TMP").replace(folder, "$TMP")
    return result.returncode, output.splitlines()


def check_session(lines, env):
    steps = []
    for line in lines:
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="animdex-readme-") as folder:
        for command, expected in steps:
            _, actual = run(command, folder, env)
            if not matches(expected, actual):
                failures += 1
                print(f"MISMATCH for `{command}`\n--- README\n" + "\n".join(expected) + "\n--- animdex\n" +
                      "\n".join(actual) + "\n")
    print(f"session: {len(steps)} commands, {len(steps) - failures} print what the README shows")
    return failures


def check_examples(lines, env):
    failures = 0
    commands = [line for line in lines if line.strip() and not line.startswith("#")]
    with tempfile.TemporaryDirectory(prefix="animdex-readme-") as folder:
        for command in commands:
            wanted = int(re.search(r"# exit (\d+)", command).group(1)) if "# exit " in command else 0
            code, actual = run(command, folder, env)
            if code != wanted:
                failures += 1
                print(f"EXIT {code} (wanted {wanted}) for `{command}`:\n" + "\n".join(actual[-5:]) + "\n")
    print(f"examples: {len(commands)} commands, {len(commands) - failures} exit as the README says")
    return failures


def first_column_ids(text, marker):
    at = text.index(marker)
    lines = text[at:].splitlines()[1:]
    ids = []
    for line in lines[2:]:  # header and rule
        if not line.startswith("|"):
            break
        ids.append(line.split("`")[1])
    return ids


def check_registry_lists(text, binary):
    listed = subprocess.run([binary, "formats", "--format", "tsv", "--no-header"], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    kinds = [line.split("\t") for line in listed]
    failures = 0
    for kind, marker in [("animation", "<!-- readme-check: formats"), ("container", "<!-- readme-check: containers")]:
        want = [row[0] for row in kinds if row[1] == kind]
        have = first_column_ids(text, marker)
        if have != want:
            print(f"README's {kind} table lists {have}\n  animdex formats lists {want}")
            failures += 1
    at = text.index("<!-- readme-check: compressions")
    paragraph = text[at:text.index("\n\n", at)]
    for row in kinds:
        if row[1] == "compression" and f"`{row[0]}`" not in paragraph:
            print(f"README's compression paragraph does not name the codec `{row[0]}`")
            failures += 1
    return failures


def main():
    binary, readme = os.path.abspath(sys.argv[1]), sys.argv[2]
    text = open(readme, encoding="utf-8").read()
    env = dict(os.environ, PATH=os.path.dirname(binary) + os.pathsep + os.environ.get("PATH", ""), COLUMNS="200")
    env.pop("ANIMDEX_DB", None)
    env.pop("ANIMDEX_QUERIES", None)
    failures = check_session(block_after(text, "<!-- readme-check: session -->"), env)
    failures += check_examples(block_after(text, "<!-- readme-check: examples -->"), env)
    failures += check_registry_lists(text, binary)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
