# SPDX-License-Identifier: GPL-3.0-or-later
"""Tables and plots of benchmarks/ddm_figures.sh from its Google Benchmark JSON files."""
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    return [b for b in json.loads(Path(path).read_text())["benchmarks"] if "error_occurred" not in b]


def main(out):
    out = Path(out)
    lines = []
    acc = {b["name"].split("/")[1]: b for b in load(out / "accuracy.json")}
    variants = [v for v in ["linear", "global", "ddm3", "ddm6", "full_corotational"] if v in acc]
    lines += ["## Fig. 1 / Fig. 7: bar at t = 3 s against full StVK", "",
              "| variant | tip deflection [m] | tip error | position error | volume change | distortion error |",
              "|---|---:|---:|---:|---:|---:|"]
    for v in variants + ["full_stvk"]:
        b = acc[v]
        lines.append(f"| {v} | {b['tip_m']:.4f} | {b['tip_err']:.2%} | {b['pos_err']:.2%} | "
                     f"{b['volume_change']:+.2%} | {b['distortion_err']:.3f} |")
    fig, ax = plt.subplots(figsize=(7, 4))
    keys = ["pos_err", "tip_err", "distortion_err", "volume_change"]
    for i, k in enumerate(keys):
        ax.bar([j + 0.2 * i for j in range(len(variants))], [abs(acc[v][k]) for v in variants],
               width=0.2, label=k)
    ax.set_xticks([j + 0.3 for j in range(len(variants))], variants)
    ax.set_yscale("log")
    ax.set_title("bar under gravity: error against full StVK (Fig. 1 / 7)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "fig7.png", dpi=120)

    cells = load(out / "cpca.json")
    lines += ["", "## Table 1: CPCA approximation of G", "",
              "| mesh | clusters | floats/node | ‖G−G̃‖_F | relative | \\|tr(G−G̃)\\| / tr G | gravity response error |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    for ax, mesh in zip(axes, ["torus-knot", "bar"]):
        for clusters in (1, 3, 6):
            pts = []
            for b in cells:
                parts = b["name"].split("/")
                if parts[1] == mesh and parts[2] == f"clusters:{clusters}":
                    floats = int(parts[3].split(":")[1])
                    pts.append((floats, b["rel_frob"]))
                    lines.append(f"| {mesh} | {clusters} | {floats} | {b['frob']:.4g} | {b['rel_frob']:.3f} | "
                                 f"{b['rel_trace']:.3f} | {b['rel_gravity']:.3f} |")
            if pts:
                ax.plot(*zip(*pts), marker="o", label=f"{clusters} clusters")
        ax.set_title(mesh)
        ax.set_xlabel("floats per node")
        ax.set_ylabel("‖G−G̃‖_F / ‖G‖_F")
        ax.legend()
    fig.tight_layout()
    fig.savefig(out / "table1.png", dpi=120)

    steps = [b for b in load(out / "step.json") if b.get("aggregate_name") == "median"]
    lines += ["", "## Table 2: time per step (median of 5, one core)", "",
              "| scene | solver | µs/step |", "|---|---|---:|"]
    for b in steps:
        parts = b["name"].split("/")
        lines.append(f"| {parts[1]} | {parts[2]} | {b['real_time']:.0f} |")
    (out / "figures.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/ddm-figures")
