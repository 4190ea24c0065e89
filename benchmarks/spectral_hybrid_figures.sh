#!/usr/bin/env bash
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
echo "spectral_hybrid_figures.sh: wrote $out/figures.md, $out/fig2.png, $out/fig3.png"
