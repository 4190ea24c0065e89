#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Least-squares exponents of a scaling study (benchmarks/scaling_study.sh): time ∝ d^a over the
'domains' series and time ∝ r^b over the 'modes' series; prints a Markdown summary and draws
scaling.png beside the CSV when matplotlib is there. Usage: scaling_fit.py scaling.csv"""
import csv
import math
import os
import sys


def fit(xs, ys):
    """Slope and intercept of log y against log x."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    n = len(lx)
    mx, my = sum(lx) / n, sum(ly) / n
    sxx = sum((x - mx) ** 2 for x in lx)
    slope = sum((x - mx) * (y - my) for x, y in zip(lx, ly)) / sxx
    return slope, my - slope * mx


def main():
    path = sys.argv[1]
    rows = list(csv.DictReader(open(path)))
    series = {}
    for r in rows:
        series.setdefault(r["series"], []).append(
            (float(r["value"]), float(r["step_ms_median"]), int(r["domains"]), int(r["dofs"])))
    print("| series | value | domains | DOFs | step [ms] median | µs per domain |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, points in series.items():
        for value, ms, d, dofs in points:
            print(f"| {name} | {value:g} | {d} | {dofs} | {ms:.4g} | {1e3 * ms / d:.3g} |")
    fits = {}
    for name, label in (("domains", "d"), ("modes", "r")):
        points = series.get(name, [])
        if len(points) >= 2:
            a, c = fit([p[0] for p in points], [p[1] for p in points])
            fits[name] = (a, c)
            print(f"\ntime ∝ {label}^{a:.3f} (least squares over {len(points)} points, "
                  f"{label} = {points[0][0]:g} … {points[-1][0]:g})")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("\n(scaling.png not drawn: python3-matplotlib is missing)")
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, (name, label) in zip(axes, (("domains", "domains d"), ("modes", "modes r per domain"))):
        points = series.get(name, [])
        if not points:
            ax.set_visible(False)
            continue
        xs = [p[0] for p in points]
        ax.loglog(xs, [p[1] for p in points], "o-", label="measured (median)")
        if name in fits:
            a, c = fits[name]
            ax.loglog(xs, [math.exp(c) * x ** a for x in xs], "--", label=f"fit: ∝ x^{a:.2f}")
        ax.set_xlabel(label)
        ax.set_ylabel("time per step [ms]")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(os.path.dirname(os.path.abspath(path)), "scaling.png"), dpi=110)


if __name__ == "__main__":
    main()
