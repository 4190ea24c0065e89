#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares the free vibration of tracked vertices between a ground-truth run and other runs.

Reads the CSV files of the `csv` exporter (step,time,kinetic,elastic,gravity,total,v<ID>_x,
v<ID>_y,v<ID>_z,...), one per run, all of the same scene, time step and duration.

usage:
  trajectory_report.py ratios --truth full.csv --run L1=l1.csv --run L2=l2.csv [--vertex ID]
      prints "NAME RATIO" per run: its lowest natural frequency divided by the truth's.
  trajectory_report.py report --truth full.csv --run L1=l1.csv ... --mesh flower.veg
                              --fixed flower.bou --out DIR [--vertex ID] [--title TEXT]
                              [--panel NAME,NAME ...]
      writes DIR/trajectories.png (or .svg when matplotlib is absent) and prints a Markdown
      summary: frequency, ratio to the truth, the largest bend angle and the trajectory RMS
      error of each run.

Lowest natural frequency. The tracked vertex (default: the first one in the CSV, the top of the
bloom) vibrates about its rest position mostly along one horizontal line; s(t) is its
displacement projected on that line (the principal axis of the truth's horizontal
displacement, up = y), with its mean removed. The frequency is estimated from the zero crossings
of s(t), located by linear interpolation between samples: with n crossings at t_1 < … < t_n,
f = (n − 1) / (2 (t_n − t_1)) (consecutive crossings are half a period apart). A second estimate,
the peak of the FFT of s(t) (Hann window, zero-padded 64×, parabolic interpolation of the
peak), is printed beside it as a check; the zero-crossing one is used for the ratios, since
with ~3 periods the FFT's resolution is 1/T.

Bend angle. The angle between the chord from the centroid of the fixed vertices to the tracked
vertex at rest and the same chord at time t; its maximum over the run.

Trajectory error. RMS over the frames of the distance between a run's tracked vertex and the
truth's at the same time, divided by the length of the rest mesh's bounding-box diagonal.

Uses numpy; the plot uses matplotlib when it is installed and falls back to SVG otherwise.
"""

import argparse
import math
import os
import sys

import numpy as np

UP = 1  # y is up in the scenes of this project (gravity along −y)


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        data = np.loadtxt(f, delimiter=",", ndmin=2)
    if data.shape[0] < 3:
        sys.exit(f"{path}: {data.shape[0]} frames; at least 3 are needed")
    columns = {name: data[:, i] for i, name in enumerate(header)}
    vertices = []
    for name in header:
        if name.startswith("v") and name.endswith("_x"):
            vertices.append(int(name[1:-2]))
    return columns, vertices


def positions(columns, vertex, path):
    try:
        return np.stack([columns[f"v{vertex}_{c}"] for c in "xyz"], axis=1)
    except KeyError:
        sys.exit(f"{path}: vertex {vertex} is not tracked (see [scene] tracked_vertices)")


def read_veg_vertices(path):
    """Rest positions from a Vega .veg file (*VERTICES, a count line, then 'i x y z')."""
    with open(path) as f:
        lines = [line.split("#")[0].strip() for line in f]
    lines = [line for line in lines if line]
    start = lines.index("*VERTICES")
    count = int(lines[start + 1].split()[0])
    return np.array([[float(v) for v in lines[start + 2 + k].split()[1:4]] for k in range(count)])


def read_bou(path):
    with open(path) as f:
        text = f.read().replace(",", " ")
    return [int(word) - 1 for word in text.split()]


def principal_axis(displacement):
    """Unit horizontal direction along which the displacement varies most."""
    horizontal = displacement.copy()
    horizontal[:, UP] = 0
    centred = horizontal - horizontal.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    axis = vt[0]
    if axis[np.argmax(np.abs(axis))] < 0:
        axis = -axis
    return axis


def zero_crossing_frequency(t, s):
    s = s - s.mean()
    crossings = []
    for k in range(len(s) - 1):
        if s[k] == 0:
            crossings.append(t[k])
        elif s[k] * s[k + 1] < 0:
            crossings.append(t[k] + (t[k + 1] - t[k]) * s[k] / (s[k] - s[k + 1]))
    if len(crossings) < 3:
        return float("nan"), len(crossings)
    return (len(crossings) - 1) / (2 * (crossings[-1] - crossings[0])), len(crossings)


def fft_frequency(t, s):
    s = (s - s.mean()) * np.hanning(len(s))
    dt = t[1] - t[0]
    n = 64 * len(s)
    spectrum = np.abs(np.fft.rfft(s, n))
    k = int(np.argmax(spectrum[1:])) + 1
    if 0 < k < len(spectrum) - 1:  # parabola through the peak and its neighbours
        a, b, c = spectrum[k - 1], spectrum[k], spectrum[k + 1]
        denominator = a - 2 * b + c
        k = k + (0.5 * (a - c) / denominator if denominator != 0 else 0)
    return k / (n * dt)


def bend_angle(base, rest, x):
    """Largest angle [deg] between the chords base → rest and base → x(t)."""
    r = rest - base
    d = x - base
    cosines = d @ r / (np.linalg.norm(d, axis=1) * np.linalg.norm(r))
    return math.degrees(float(np.max(np.arccos(np.clip(cosines, -1, 1)))))


class Run:
    def __init__(self, name, path, vertex=None):
        self.name, self.path = name, path
        self.columns, self.vertices = read_csv(path)
        if not self.vertices:
            sys.exit(f"{path}: no tracked vertex (set [scene] tracked_vertices)")
        self.vertex = self.vertices[0] if vertex is None else vertex
        self.t = self.columns["time"]
        self.x = positions(self.columns, self.vertex, path)


def parse_runs(items):
    runs = []
    for item in items:
        if "=" not in item:
            sys.exit(f"--run {item}: expected NAME=FILE.csv")
        name, path = item.split("=", 1)
        runs.append((name, path))
    return runs


def analyse(truth, runs):
    """Frequencies and errors of every run (the truth first)."""
    rest = truth.x[0]
    axis = principal_axis(truth.x - rest)
    results = []
    for run in [truth] + runs:
        if run.x.shape != truth.x.shape or np.max(np.abs(run.t - truth.t)) > 1e-9:
            sys.exit(f"{run.path}: its frames differ from {truth.path} (same dt and steps needed)")
        s = (run.x - rest) @ axis
        f0, crossings = zero_crossing_frequency(run.t, s)
        error = np.sqrt(np.mean(np.sum((run.x - truth.x) ** 2, axis=1)))
        results.append({"run": run, "s": s, "f": f0, "crossings": crossings,
                        "f_fft": fft_frequency(run.t, s), "rms": error})
    for r in results:
        r["ratio"] = r["f"] / results[0]["f"]
    return axis, results


def command_ratios(args):
    truth = Run("truth", args.truth, args.vertex)
    runs = [Run(n, p, args.vertex) for n, p in parse_runs(args.run)]
    _, results = analyse(truth, runs)
    for r in results[1:]:
        if not math.isfinite(r["ratio"]):
            sys.exit(f"{r['run'].path}: fewer than 3 zero crossings; run longer")
        print(f"{r['run'].name} {r['ratio']:.6f}")


def horizontal_axes(axis):
    """Two horizontal plot axes: the motion's principal axis and the one across it."""
    across = np.cross(axis, np.eye(3)[UP])
    return axis, across / np.linalg.norm(across)


STYLES = ["-", "--", "--", ":", ":", "-."]
COLOURS = ["black", "tab:green", "tab:red", "tab:olive", "tab:purple", "tab:blue"]


def plot_matplotlib(path, panels, rest, axis, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    along, across = horizontal_axes(axis)
    fig, grid = plt.subplots(len(panels), 2, figsize=(12, 4.2 * len(panels)), squeeze=False,
                             gridspec_kw={"width_ratios": [1, 2]})
    for row, (label, results) in enumerate(panels):
        top, xt = grid[row]
        for k, r in enumerate(results):
            d = r["run"].x - rest
            style = dict(color=COLOURS[k % len(COLOURS)], linestyle=STYLES[k % len(STYLES)],
                         linewidth=1.6 if k == 0 else 1.3)
            name = r["run"].name + ("" if k == 0 else f" (f/f_G = {r['ratio']:.2f})")
            top.plot(d @ along, d @ across, label=name, **style)
            xt.plot(r["run"].t, d[:, 0], label=name, **style)
        top.plot([0], [0], "ko", markersize=4)
        top.set_aspect("equal", adjustable="datalim")
        top.set_xlabel("displacement along the motion [m]")
        top.set_ylabel("across [m]")
        top.set_title(f"{label}: top view of vertex {results[0]['run'].vertex}")
        xt.set_xlabel("time [s]")
        xt.set_ylabel("x displacement [m]")
        xt.set_title(f"{label}: x(t)")
        xt.grid(True, alpha=0.3)
        xt.legend(loc="upper right", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_svg(path, panels, rest, axis, title):
    """The same figure as plot_matplotlib, drawn as SVG with the standard library."""
    along, across = horizontal_axes(axis)
    width, row_height = 1200, 420
    height = 40 + row_height * len(panels)
    colours = ["#000000", "#2ca02c", "#d62728", "#bcbd22", "#9467bd", "#1f77b4"]
    dashes = ["", "6,4", "6,4", "2,3", "2,3", "8,3,2,3"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="15">{title}</text>']

    def box(x0, y0, w, h, xs, ys, xlabel, ylabel, caption, equal):
        xmin, xmax = min(a.min() for a in xs), max(a.max() for a in xs)
        ymin, ymax = min(a.min() for a in ys), max(a.max() for a in ys)
        if equal:
            span = max(xmax - xmin, ymax - ymin) or 1
            xc, yc = (xmin + xmax) / 2, (ymin + ymax) / 2
            sx = sy = min(w, h) / span
            xmin, ymin = xc - w / 2 / sx, yc - h / 2 / sy
        else:
            sx = w / ((xmax - xmin) or 1)
            sy = h / ((ymax - ymin) or 1)
        out.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" '
                   f'stroke="#888"/>')
        out.append(f'<text x="{x0 + w / 2}" y="{y0 - 8}" text-anchor="middle">{caption}</text>')
        out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 30}" text-anchor="middle">'
                   f'{xlabel}</text>')
        out.append(f'<text x="{x0 - 48}" y="{y0 + h / 2}" text-anchor="middle" '
                   f'transform="rotate(-90 {x0 - 48} {y0 + h / 2})">{ylabel}</text>')
        for value, pos in ((xmin, x0), (xmin + w / sx, x0 + w)):
            out.append(f'<text x="{pos}" y="{y0 + h + 14}" text-anchor="middle" '
                       f'font-size="10">{value:.3g}</text>')
        for value, pos in ((ymin, y0 + h), (ymin + h / sy, y0)):
            out.append(f'<text x="{x0 - 4}" y="{pos + 4}" text-anchor="end" '
                       f'font-size="10">{value:.3g}</text>')
        return lambda px, py: (x0 + (px - xmin) * sx, y0 + h - (py - ymin) * sy)

    for row, (label, results) in enumerate(panels):
        y0 = 60 + row * row_height
        tops = [((r["run"].x - rest) @ along, (r["run"].x - rest) @ across) for r in results]
        xts = [(r["run"].t, r["run"].x[:, 0] - rest[0]) for r in results]
        top = box(70, y0, 300, 300, [a for a, _ in tops], [b for _, b in tops],
                  "displacement along the motion [m]", "across [m]",
                  f"{label}: top view of vertex {results[0]['run'].vertex}", True)
        xt = box(470, y0, 700, 300, [a for a, _ in xts], [b for _, b in xts], "time [s]",
                 "x displacement [m]", f"{label}: x(t)", False)
        for k, r in enumerate(results):
            style = (f'fill="none" stroke="{colours[k % 6]}" stroke-width="1.4"'
                     + (f' stroke-dasharray="{dashes[k % 6]}"' if dashes[k % 6] else ""))
            for transform, (a, b) in ((top, tops[k]), (xt, xts[k])):
                points = " ".join("{:.1f},{:.1f}".format(*transform(p, q)) for p, q in zip(a, b))
                out.append(f'<polyline points="{points}" {style}/>')
            name = r["run"].name + ("" if k == 0 else f" (f/f_G = {r['ratio']:.2f})")
            ly = y0 + 14 + 16 * k
            out.append(f'<line x1="1000" y1="{ly - 4}" x2="1030" y2="{ly - 4}" {style}/>')
            out.append(f'<text x="1036" y="{ly}">{name}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def command_report(args):
    truth = Run(args.truth_name, args.truth, args.vertex)
    runs = [Run(n, p, args.vertex) for n, p in parse_runs(args.run)]
    axis, results = analyse(truth, runs)
    rest_mesh = read_veg_vertices(args.mesh)
    size = float(np.linalg.norm(rest_mesh.max(axis=0) - rest_mesh.min(axis=0)))
    fixed = read_bou(args.fixed) if args.fixed else []
    base = rest_mesh[fixed].mean(axis=0) if fixed else rest_mesh[np.argmin(rest_mesh[:, UP])]
    rest = rest_mesh[truth.vertex]

    # Panels: groups of run names; the truth is in every one.
    by_name = {r["run"].name: r for r in results[1:]}
    panels = []
    for spec in args.panel or [",".join(by_name)]:
        label, _, names = spec.rpartition(":")
        chosen = [by_name[n] for n in names.split(",") if n in by_name]
        panels.append((label or "runs", [results[0]] + chosen))
    os.makedirs(args.out, exist_ok=True)
    try:
        import matplotlib  # noqa: F401

        figure = os.path.join(args.out, "trajectories.png")
        plot_matplotlib(figure, panels, rest, axis, args.title)
    except ImportError:
        figure = os.path.join(args.out, "trajectories.svg")
        plot_svg(figure, panels, rest, axis, args.title)
        print("(matplotlib is not installed: the figure is SVG; install python3-matplotlib "
              "for PNG)", file=sys.stderr)

    t = truth.t
    print(f"### {args.title}\n")
    print(f"Tracked vertex {truth.vertex} (rest {rest[0]:.4g}, {rest[1]:.4g}, {rest[2]:.4g} m); "
          f"{len(t)} frames over {t[-1] - t[0]:.4g} s (dt {t[1] - t[0]:.4g} s); mesh size "
          f"(bounding-box diagonal) {size:.4g} m; motion axis ({axis[0]:.3f}, {axis[1]:.3f}, "
          f"{axis[2]:.3f}).\n")
    print("| run | f₀ zero crossings [Hz] | f₀ FFT [Hz] | f₀ / f₀(G) | max bend [°] "
          "| max tip displacement [m] | RMS error / size |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        d = np.max(np.linalg.norm(r["run"].x - rest, axis=1))
        print(f"| {r['run'].name} | {r['f']:.4f} ({r['crossings']} crossings) | "
              f"{r['f_fft']:.4f} | {r['ratio']:.3f} | {bend_angle(base, rest, r['run'].x):.1f} | "
              f"{d:.4g} | {r['rms'] / size:.4f} |")
    print(f"\nFigure: {os.path.abspath(figure)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("ratios", "report"):
        p = sub.add_parser(name)
        p.add_argument("--truth", required=True, help="CSV of the ground truth")
        p.add_argument("--run", action="append", default=[], help="NAME=FILE.csv (repeatable)")
        p.add_argument("--vertex", type=int, help="tracked vertex id (default: the first)")
    report = sub.choices["report"]
    report.add_argument("--truth-name", default="G (full)")
    report.add_argument("--mesh", required=True, help="the scene's .veg (rest shape, size)")
    report.add_argument("--fixed", help="the scene's .bou (base of the bend angle)")
    report.add_argument("--out", required=True, help="folder for the figure")
    report.add_argument("--title", default="Free vibration against the ground truth")
    report.add_argument("--panel", action="append",
                        help="LABEL:NAME,NAME… runs drawn together (repeatable)")
    args = parser.parse_args()
    {"ratios": command_ratios, "report": command_report}[args.command](args)


if __name__ == "__main__":
    main()
