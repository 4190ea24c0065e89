# SPDX-License-Identifier: GPL-3.0-or-later
"""The framework's layers as CMake declared them (<build>/architecture/layers.txt and
plugins.txt, written by framework/cmake/SubstructLibrary.cmake and plugins/sdk/SubstructPlugin.cmake).

Shared by check_layers.py (the test architecture.layers) and architecture_graph.py (the page
framework/docs/architecture.md).
"""
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Layer:
    name: str
    areas: list
    public: list
    private: list


@dataclass
class PluginLayers:
    name: str
    folder: Path
    layers: list = field(default_factory=list)


def _items(text):
    return [item for item in text.split(",") if item]


def read_layers(build_dir):
    layers = {}
    for line in (Path(build_dir) / "architecture" / "layers.txt").read_text().splitlines():
        if not line.strip():
            continue
        name, areas, public, private = line.split("|")[:4]
        layers[name] = Layer(name, _items(areas), _items(public), _items(private))
    return layers


def read_plugins(build_dir):
    path = Path(build_dir) / "architecture" / "plugins.txt"
    plugins = []
    if not path.exists():
        return plugins
    for line in path.read_text().splitlines():
        if line.strip():
            name, folder, layers = line.split("|")[:3]
            plugins.append(PluginLayers(name, Path(folder), _items(layers)))
    return plugins


def public_closure(layers, roots):
    """The layers whose headers are visible through `roots` (their PUBLIC edges, transitively)."""
    seen = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        stack.extend(layers[name].public)
    return seen


def find_cycle(layers):
    """A list of layer names forming a cycle, or None."""
    state = {}
    path = []

    def visit(name):
        state[name] = "open"
        path.append(name)
        for dep in layers[name].public + layers[name].private:
            if state.get(dep) == "open":
                return path[path.index(dep):] + [dep]
            if dep not in state:
                cycle = visit(dep)
                if cycle:
                    return cycle
        path.pop()
        state[name] = "done"
        return None

    for name in layers:
        if name not in state:
            cycle = visit(name)
            if cycle:
                return cycle
    return None


def levels(layers):
    """Each layer's height: 0 for a layer that links no other, else 1 + the highest it links."""
    memo = {}

    def level(name):
        if name not in memo:
            deps = layers[name].public + layers[name].private
            memo[name] = 1 + max((level(d) for d in deps), default=-1)
        return memo[name]

    return {name: level(name) for name in layers}
