#!/usr/bin/env python3
"""Checks src/hf's layers against the table of src/hf/README.md.

    check_hf_layers.py ROOT

The table's rows name the layers' folders from the lowest to the highest. A file in a layer may
include its own layer's headers and those of the layers above it in the table (lower rows are
higher layers); the app's own files at src/hf's top may include any. Every file of src/hf sits at
its top or in a folder the table names, one folder down at most.

Exit status: 0 when every include keeps to the layers, 1 when one does not (each is listed), 2 on
bad usage.
"""
import os
import re
import sys

ROW = re.compile(r"^\|\s*`([a-z_]+)/`\s*\|")
INCLUDE = re.compile(r'^\s*#\s*include\s*"hf/([^"]+)"', re.MULTILINE)


def layers_of(readme):
    with open(readme, encoding="utf-8") as f:
        return [m.group(1) for m in (ROW.match(line) for line in f) if m]


def problems(root):
    hf = os.path.join(root, "src", "hf")
    layers = layers_of(os.path.join(hf, "README.md"))
    if not layers:
        yield "src/hf/README.md: no table of layers (rows like | `basis/` | ...)"
        return
    rank = {layer: i for i, layer in enumerate(layers)}
    for folder, dirs, files in os.walk(hf):
        relative = os.path.relpath(folder, hf)
        depth = 0 if relative == "." else relative.count(os.sep) + 1
        if depth > 1:
            yield f"src/hf/{relative}: more than one folder down"
            continue
        if depth == 1 and relative not in rank:
            yield f"src/hf/{relative}/: a folder the README's table does not name"
            continue
        for name in files:
            if not name.endswith((".cpp", ".hpp")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for target in INCLUDE.findall(text):
                if "/" not in target:
                    continue  # the app's own top-level headers, which no layer includes
                to = target.split("/")[0]
                if to not in rank:
                    yield f"src/hf/{os.path.relpath(path, hf)}: includes hf/{target}, in no layer"
                elif depth == 1 and rank[to] > rank[relative]:
                    yield (f"src/hf/{os.path.relpath(path, hf)}: includes hf/{target}, a layer "
                           f"above its own ({to}/ over {relative}/)")
            if depth == 1:
                for target in INCLUDE.findall(text):
                    if "/" not in target:
                        yield f"src/hf/{os.path.relpath(path, hf)}: includes the app's hf/{target}"


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    found = list(problems(os.path.abspath(argv[1])))
    for message in found:
        print(message)
    if found:
        return 1
    print("src/hf keeps to its layers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
