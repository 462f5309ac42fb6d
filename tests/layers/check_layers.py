#!/usr/bin/env python3
"""The layers the build links, checked on #include lines (a header-only arrow the linker cannot see).

Each folder of src/ is a layer with its own library (CMakeLists.txt, animdex_layer); a file may
include its own layer and the layers ALLOWED lists for it, nothing above. Inside formats/ and
containers/ each sub-folder is one module: it may include its own folder and the shared files at
the layer's root, never a sibling module (one family shares code through its own folder or the
root). bench/ and fuzz/ sit above the libraries they measure: bench may not include the CLI, fuzz
only the pure layers. Prints every wrong arrow with file and line; exit 1 when there is one.
Usage: check_layers.py SOURCE_DIR
"""
import os
import re
import sys

# Layer -> the layers below it that it may include (the same arrows as the libraries' DEPENDS).
ALLOWED = {
    "core": set(),
    "model": {"core"},
    "formats": {"core", "model"},
    "containers": {"core"},
    "detect": {"core", "model", "formats", "containers"},
    "reference": {"core"},
    "output": {"core", "model"},
    "db": {"core", "model", "formats", "containers", "detect", "reference"},
    "indexer": {"core", "model", "formats", "containers", "detect", "reference", "db", "output"},
    "reports": {"core", "model", "formats", "containers", "detect", "reference", "db", "output"},
    "sample": {"core", "model", "formats", "containers", "output"},
    "rig": {"core", "model", "formats"},
    "cli": {"core", "model", "formats", "containers", "detect", "reference", "db", "output", "indexer",
            "reports", "sample", "rig"},
}
PURE = {"core", "model", "formats", "containers", "detect"}
OUTSIDE = {  # folders outside src/: what they may include
    "bench": set(ALLOWED) - {"cli"},
    "fuzz": PURE | {"db"},  # db/key_blob only (checked below)
}
MODULAR = {"formats", "containers"}  # layers made of one folder per module
# Module -> siblings it builds on, each with the reason; the graph must stay acyclic.
FAMILY = {
    "containers/ciso": {"gcm": "a CISO is a GameCube disc stored sparsely: its view is listed as a GCM"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def acyclic(graph):
    state = {}

    def visit(node):
        if state.get(node) == 1:
            return False
        if state.get(node) == 2:
            return True
        state[node] = 1
        ok = all(visit(n) for n in graph[node])
        state[node] = 2
        return ok

    return all(visit(n) for n in graph)


def check_file(path, rel, problems):
    parts = rel.split("/")
    in_src = parts[0] == "src"
    layer = parts[1] if in_src else parts[0]
    if parts[-1].startswith("fuzz_"):
        layer, in_src = "fuzz", False  # a module's fuzz target is built by fuzz/, with its rules
    module = parts[2] if in_src and layer in MODULAR and len(parts) > 3 else None
    allowed = ALLOWED[layer] if in_src else OUTSIDE[layer]
    with open(path, encoding="utf-8", errors="replace") as text:
        for number, line in enumerate(text, 1):
            found = INCLUDE.match(line)
            if not found or "/" not in found.group(1):
                continue
            target = found.group(1).split("/")
            to_layer = target[0]
            if to_layer not in ALLOWED:
                continue  # a header of the folder itself (bench_corpus.h) or generated
            where = f"{rel}:{number}: {found.group(1)}"
            if to_layer != layer and to_layer not in allowed:
                problems.append(f"{where}: {layer} may not include {to_layer}")
            elif (in_src and to_layer == layer and module and len(target) > 2 and target[1] != module
                  and target[1] not in FAMILY.get(f"{layer}/{module}", {})):
                problems.append(f"{where}: module {layer}/{module} may not include its sibling {target[1]}")
            elif layer == "fuzz" and to_layer == "db" and target[1] != "key_blob.h":
                problems.append(f"{where}: fuzzers link only the pure layers and db/key_blob")


def main():
    root = sys.argv[1]
    modules = {m: set(f"{m.split('/')[0]}/{s}" for s in siblings) for m, siblings in FAMILY.items()}
    for siblings in list(modules.values()):
        for sibling in siblings:
            modules.setdefault(sibling, set())
    if not acyclic(ALLOWED) or not acyclic(modules):
        print("the layer table has a cycle")
        return 1
    if set(os.listdir(os.path.join(root, "src"))) - set(ALLOWED):
        print("folders of src/ without a layer entry:", sorted(set(os.listdir(os.path.join(root, "src"))) - set(ALLOWED)))
        return 1
    problems = []
    files = 0
    for top in ["src", "bench", "fuzz"]:
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith((".cpp", ".h")):
                    path = os.path.join(folder, name)
                    check_file(path, os.path.relpath(path, root), problems)
                    files += 1
    for problem in problems:
        print(problem)
    print(f"{files} files, {len(problems)} wrong arrows")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
