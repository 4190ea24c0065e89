#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The ddm plugin's figures (Huang et al. 2006): Fig. 1 / Fig. 7 as numbers (bench_ddm_accuracy:
# plain linear, one global rotation, DDM with 3 and 6 domains against full StVK and corotational),
# Table 1 (bench_ddm_cpca: CPCA error of G for 1/3/6 clusters × 20…140 floats per node) and
# Table 2 (bench_ddm_step: s/step of the cg / clustering / hybrid solvers and full-linear), each as
# Google Benchmark JSON, then tables (figures.md) and plots (fig7.png, table1.png).
#   benchmarks/ddm_figures.sh [OUT_DIR]      (default out/ddm-figures; build/ must be built)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mkdir -p "${1:-out/ddm-figures}" && cd "${1:-out/ddm-figures}" && pwd)"
bin="$repo/build/bin"
for b in bench_ddm_accuracy bench_ddm_cpca bench_ddm_step; do
  [[ -x "$bin/$b" ]] || { echo "ddm_figures.sh: $bin/$b is missing (build the benchmarks)" >&2; exit 2; }
done
echo "ddm_figures.sh: Fig. 1/7 (bar, 3 s, 6 variants)"
"$bin/bench_ddm_accuracy" --benchmark_out="$out/accuracy.json" --benchmark_out_format=json >/dev/null
echo "ddm_figures.sh: Table 1 (CPCA errors, torus knot and bar)"
"$bin/bench_ddm_cpca" --benchmark_out="$out/cpca.json" --benchmark_out_format=json >/dev/null
echo "ddm_figures.sh: Table 2 (step times, median of 5)"
"$bin/bench_ddm_step" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/step.json" --benchmark_out_format=json >/dev/null
/usr/bin/python3 "$repo/benchmarks/tools/ddm_figures.py" "$out"
echo "ddm_figures.sh: wrote $out/figures.md, $out/fig7.png, $out/table1.png"
