#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Interface cubature error against the number of samples for uniform and non-uniform weights
# (Wu, Mukherjee, Wang 2015, §5, Fig. 5), on a scene's coupling-elements interfaces: for
# N = 1 … 24 samples per interface layer, the relative error of the layer's forces (F, f, τ of
# both domains, normalised as in Eq. 11) on held-out random poses, for the largest layer and the
# mean over the layers with more elements than N.
#
#   benchmarks/interface_cubature_error.sh [OUT_DIR] [--scene SCENE.ini] [--substruct PATH]
#
# Default scene: share/scenes/sheet.ini. Writes OUT_DIR (default out/interface-cubature):
# errors.csv, errors.md (also printed) and errors.png.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
source "$here/tools/study_common.sh"
out="out/interface-cubature" scene="$repo/share/scenes/sheet.ini" substruct=""
if [[ $# -gt 0 && "$1" != --* ]]; then out="$1"; shift; fi
while [[ $# -gt 0 ]]; do
  case "$1" in
    --scene) scene="$2"; shift 2 ;;
    --substruct) substruct="$2"; shift 2 ;;
    *) echo "interface_cubature_error.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
substruct="$(study_substruct interface_cubature_error.sh "$substruct")"
out="$(study_out "$out")"
echo "weights,samples,layer,elements,kept,training,held_out" >"$out/errors.csv"
for weights in uniform non-uniform; do
  for n in 1 2 3 4 6 8 12 16 24; do
    echo "  $weights, ≤ $n per layer"
    "$substruct" run "$scene" --coupling.plugin=coupling-elements \
      --coupling-elements.interface_samples=$n --coupling-elements.interface_weights=$weights \
      --run.steps=0 --run.exporters= --run.cache_dir="$out/cache" >"$out/$weights-$n.log" 2>&1 ||
      { echo "failed: see $out/$weights-$n.log" >&2; exit 1; }
    sed -n 's/.*interface \([0-9–]*\): \([0-9]*\) of \([0-9]*\) coupling elements, error \([^ ]*\) (training) \([^ ]*\) (held out).*/\1,\3,\2,\4,\5/p' \
      "$out/$weights-$n.log" | sed "s/^/$weights,$n,/" >>"$out/errors.csv"
  done
done
/usr/bin/python3 - "$out" <<'PY' | tee "$out/errors.md"
import csv, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "errors.csv"))))
largest = max(rows, key=lambda r: int(r["elements"]))["layer"]
series = {}
for r in rows:
    key = r["weights"]
    n = int(r["samples"])
    s = series.setdefault(key, {})
    entry = s.setdefault(n, {"largest": None, "errors": []})
    if r["layer"] == largest:
        entry["largest"] = float(r["held_out"])
    if int(r["elements"]) > n:
        entry["errors"].append(float(r["held_out"]))
print(f"Held-out relative force error of interface layer {largest} (the largest) and the mean "
      "over the layers with more elements than N:\n")
print("| N per layer | uniform, largest | non-uniform, largest | uniform, mean | non-uniform, mean |")
print("|---:|---:|---:|---:|---:|")
ns = sorted(series["uniform"])
mean = lambda e: sum(e) / len(e) if e else float("nan")
for n in ns:
    u, v = series["uniform"][n], series["non-uniform"][n]
    print(f"| {n} | {u['largest']:.3g} | {v['largest']:.3g} | {mean(u['errors']):.3g} | "
          f"{mean(v['errors']):.3g} |")
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("\n(errors.png not drawn: python3-matplotlib is missing)")
    sys.exit(0)
fig, ax = plt.subplots(figsize=(7, 4.5))
for key, style in (("uniform", "o-"), ("non-uniform", "s--")):
    ax.plot(ns, [series[key][n]["largest"] for n in ns], style, label=f"{key} weights")
ax.set_xlabel("samples per interface layer")
ax.set_ylabel("relative force error (held-out poses)")
ax.set_title(f"interface cubature, layer {largest} (cf. Wu et al. 2015, Fig. 5)")
ax.set_yscale("log")
ax.grid(True, which="both", alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(os.path.join(out, "errors.png"), dpi=110)
PY
