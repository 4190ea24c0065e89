#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Plots of a `substruct bench` run: for each scene, the trajectory of the first tracked vertex
(displacement along the direction it moves most in the reference run) and the total energy of
every method over time. Usage: plot_bench.py results.json (PNGs go beside it).
Lines that coincide stay told apart: the reference is a thick black line under the others, and
every other method has its own dash pattern and marker, the markers of method k offset along the
curve so that those of coinciding lines do not cover each other.
Exit code 3 when matplotlib is missing."""
import json
import math
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(3)


def principal_direction(columns):
    """Unit direction of the largest motion of a vertex (x, y, z columns), by power iteration."""
    n = len(columns[0])
    mean = [sum(c) / n for c in columns]
    cov = [[sum((columns[a][k] - mean[a]) * (columns[b][k] - mean[b]) for k in range(n))
            for b in range(3)] for a in range(3)]
    v = [1.0, 1.0, 1.0]
    for _ in range(100):
        w = [sum(cov[a][b] * v[b] for b in range(3)) for a in range(3)]
        norm = math.sqrt(sum(x * x for x in w))
        if norm == 0:
            return [1.0, 0.0, 0.0]
        v = [x / norm for x in w]
    return v


DASHES = ["-", "--", "-.", ":"]
MARKERS = ["o", "s", "^", "v", "D", "x", "+", "*", "P"]
MARKS_PER_LINE = 12


def line_style(index, count, points, is_reference):
    """Keyword arguments of ax.plot for the `index`-th of `count` methods' line of `points`
    points: the reference thick, black and underneath; the others a dash pattern and a marker of
    their own, the markers spaced evenly and shifted by index / count of their spacing."""
    if is_reference:
        return {"color": "black", "linestyle": "-", "linewidth": 2.6, "zorder": 1}
    every = max(1, points // MARKS_PER_LINE)
    return {"linestyle": DASHES[index % len(DASHES)], "marker": MARKERS[index % len(MARKERS)],
            "markevery": (index * every // max(count, 1) % every, every), "markersize": 5,
            "markerfacecolor": "none", "linewidth": 1.3, "zorder": 2 + index}


def save(fig, ax, xlabel, ylabel, title, path):
    """Labels, grid and legend, then writes the figure to `path`."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    path = sys.argv[1]
    out_dir = os.path.dirname(os.path.abspath(path))
    with open(path) as f:
        results = json.load(f)
    reference = results.get("reference") or ""
    scenes = []
    for case in results["cases"]:
        if case["scene"] not in scenes:
            scenes.append(case["scene"])
    for scene in scenes:
        cases = [c for c in results["cases"] if c["scene"] == scene and c["tracked_xyz_columns"]]
        if not cases:
            continue
        ref = next((c for c in cases if c["method"] == reference), cases[0])
        direction = principal_direction(ref["tracked_xyz_columns"][:3])
        vertex = ref["tracked_vertices"][0]

        fig, ax = plt.subplots(figsize=(8, 4.5))
        for index, c in enumerate(cases):
            cols = c["tracked_xyz_columns"][:3]
            n = len(cols[0])
            t = [k * c["dt"] for k in range(n)]
            u = [sum(direction[a] * (cols[a][k] - cols[a][0]) for a in range(3)) for k in range(n)]
            ax.plot(t, u, label=c["method"],
                    **line_style(index, len(cases), n, c["method"] == reference))
        save(fig, ax, "time [s]", f"displacement of vertex {vertex} [m]",
             f"{scene}: tracked vertex, along its main direction of motion",
             os.path.join(out_dir, f"trajectories_{scene}.png"))

        fig, ax = plt.subplots(figsize=(8, 4.5))
        for index, c in enumerate(cases):
            energy = [k + e + g for k, e, g in zip(c["kinetic"], c["elastic"], c["gravity"])]
            if not energy:
                continue
            t = [k * c["dt"] for k in range(len(energy))]
            ax.plot(t, [e - energy[0] for e in energy], label=c["method"],
                    **line_style(index, len(cases), len(energy), c["method"] == reference))
        save(fig, ax, "time [s]", "E(t) − E(0) [J]",
             f"{scene}: total energy (kinetic + elastic + gravity)",
             os.path.join(out_dir, f"energy_{scene}.png"))


if __name__ == "__main__":
    main()
