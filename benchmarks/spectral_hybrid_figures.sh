#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The spectral-hybrid plugin's figures (Yang et al. 2010): Fig. 3 (boundary deviation under
# gravity for all / 2 boundary nodes and few / many modes) and Fig. 2 (the twisted bar with Eq. 10
# and Eq. 11, all and 2 boundary nodes) as CSV time series (bench_spectral_hybrid_figures), then
# Table 1's frames per second (bench_spectral_hybrid, median of 5), then tables (figures.md) and
# plots (fig2.png, fig3.png).
#   benchmarks/spectral_hybrid_figures.sh [OUT_DIR]  (default out/spectral-hybrid-figures)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mkdir -p "${1:-out/spectral-hybrid-figures}" && cd "${1:-out/spectral-hybrid-figures}" && pwd)"
bin="$repo/build/bin"
for b in bench_spectral_hybrid_figures bench_spectral_hybrid; do
  [[ -x "$bin/$b" ]] || { echo "spectral_hybrid_figures.sh: $bin/$b is missing (build the benchmarks)" >&2; exit 2; }
done
echo "spectral_hybrid_figures.sh: Fig. 3 and Fig. 2 (time series)"
"$bin/bench_spectral_hybrid_figures" "$out" 2>/dev/null | tee "$out/summary.txt"
echo "spectral_hybrid_figures.sh: Table 1 (steps per second, median of 5)"
"$bin/bench_spectral_hybrid" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/table1.json" --benchmark_out_format=json 2>"$out/table1_offline.txt" >/dev/null
grep -E "^(bar|large|limb)" "$out/table1_offline.txt" || true
/usr/bin/python3 "$repo/benchmarks/tools/spectral_hybrid_figures.py" "$out"
# Fig. 2's pictures: the twisted bar at t = 2 s through the headless viewer (needs xvfb-run).
if command -v xvfb-run >/dev/null; then
  scene="$repo/share/scenes/hybrid_bar.ini"
  targets="$(grep -o 'target_vertices="[0-9 ]*"' "$scene" | cut -d'"' -f2)"
  for v in "eq11_2n displacement-and-rotation 2" "eq11_all displacement-and-rotation all" \
           "eq10_all warped-position all"; do
    set -- $v
    xvfb-run -a "$bin/substruct" view "$scene" --frames 100 --steps-per-frame 2 --size 640x360 \
      --no-hud --screenshot "$out/twist_$1.png" --spectral-hybrid.target_vertices="$targets" \
      --spectral-hybrid.target_rotation="3.14159 0 0" --spectral-hybrid.target_ramp=1 \
      --gravity.acceleration="0 0 0" --spectral-hybrid.boundary_constraint="$2" \
      --spectral-hybrid.boundary_nodes="$3" >/dev/null 2>&1
  done
  /usr/bin/python3 - "$out" <<'PY'
import sys
from pathlib import Path
import matplotlib
matplotlib.use("Agg")
import matplotlib.image as im
import matplotlib.pyplot as plt
out = Path(sys.argv[1])
shots = [("twist_eq11_2n.png", "Eq. 11, 2 nodes (d)"), ("twist_eq11_all.png", "Eq. 11, all 8 nodes (c)"),
         ("twist_eq10_all.png", "Eq. 10, all 8 nodes (b)")]
fig, axes = plt.subplots(1, 3, figsize=(12, 2.6))
for ax, (f, title) in zip(axes, shots):
    ax.imshow(im.imread(out / f))
    ax.set_title(title)
    ax.axis("off")
fig.suptitle("hybrid bar (324 tets, 100 modes), free end twisted half a turn, t = 2 s")
fig.tight_layout()
fig.savefig(out / "fig2_images.png", dpi=90)
PY
  echo "spectral_hybrid_figures.sh: wrote $out/fig2_images.png"
fi
echo "spectral_hybrid_figures.sh: wrote $out/figures.md, $out/fig2.png, $out/fig3.png"
