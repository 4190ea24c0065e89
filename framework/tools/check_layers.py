#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that every #include "substruct/<area>/…" respects the framework's layers.

    check_layers.py BUILD_DIR SOURCE_DIR

A source file of area A (framework/src/A/) may include the headers of the layers its library
links (PUBLIC or PRIVATE) and, through them, of what those export (PUBLIC, transitively); a
public header (framework/include/substruct/A/) only what its library links PUBLIC. A plugin of
this tree that names its layers (substruct_add_plugin(… LIBRARIES substruct::…)) may include
those and what they export. The layer graph itself must have no cycle. Exit status 1 lists every
offending line.
"""
import re
import sys
from pathlib import Path

from layers import find_cycle, public_closure, read_layers, read_plugins

INCLUDE = re.compile(r'^\s*#\s*include\s+"substruct/([a-z_]+)/[^"]+"')


def includes(path):
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        match = INCLUDE.match(line)
        if match:
            yield number, match.group(1), line.strip()


def main():
    build_dir, source_dir = Path(sys.argv[1]), Path(sys.argv[2])
    layers = read_layers(build_dir)
    problems = []
    cycle = find_cycle(layers)
    if cycle:
        problems.append("layer cycle: " + " -> ".join(cycle))
    area_layer = {area: layer.name for layer in layers.values() for area in layer.areas}

    def check(files, allowed, who):
        for path in files:
            for number, area, text in includes(path):
                owner = area_layer.get(area)
                if owner is None:
                    problems.append(f"{path}:{number}: {text}: no layer owns the area '{area}'")
                elif owner not in allowed:
                    problems.append(
                        f"{path}:{number}: {text}: {who} does not link the layer '{owner}' "
                        f"(it may use: {', '.join(sorted(allowed))})")

    framework = source_dir / "framework"
    for layer in layers.values():
        exported = public_closure(layers, [layer.name])
        visible = exported | public_closure(layers, layer.private)
        for area in layer.areas:
            check(sorted((framework / "src" / area).rglob("*.[ch]pp")), visible,
                  f"layer '{layer.name}' (sources)")
            check(sorted((framework / "include" / "substruct" / area).rglob("*.hpp")), exported,
                  f"layer '{layer.name}' (public headers)")
    for plugin in read_plugins(build_dir):
        if not plugin.layers:
            continue  # links the whole framework
        visible = public_closure(layers, plugin.layers)
        check(sorted(plugin.folder.rglob("*.[ch]pp")), visible, f"plugin '{plugin.name}'")

    if problems:
        print("\n".join(problems))
        print(f"{len(problems)} include(s) break the layers "
              "(framework/CMakeLists.txt declares them; framework/docs/architecture.md shows them)")
        return 1
    print(f"layers respected: {len(layers)} framework layers, "
          f"{sum(1 for p in read_plugins(build_dir) if p.layers)} plugins checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
