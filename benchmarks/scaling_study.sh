#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Step time of a coupling method against the number of domains d and the basis size r, on
# generated trees (`substruct generate tree`), measured with `substruct bench` (no ground truth).
#
#   benchmarks/scaling_study.sh [OUT_DIR] [--method inertia] [--max-domains 10001]
#                               [--steps 40] [--substruct PATH]
#
# d series: one level of branches on the trunk, 9 leaves per branch (d = 1 + 10 × branches):
#   d = 11, 31, 101, 301, 1001, 3001, 10001 (up to --max-domains), the scene's adaptive r.
# r series: the tree of d = 101 with every domain at r = 5, 10, 15, 20, 30, 40.
# Writes OUT_DIR (default out/scaling): one bench folder per point, scaling.csv, scaling.md (the
# least-squares exponents of time ∝ d^a and time ∝ r^b) and scaling.png.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
source "$here/tools/study_common.sh"
out="out/scaling" method="inertia" max_domains=10001 steps=40 substruct=""
if [[ $# -gt 0 && "$1" != --* ]]; then out="$1"; shift; fi
while [[ $# -gt 0 ]]; do
  case "$1" in
    --method) method="$2"; shift 2 ;;
    --max-domains) max_domains="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --substruct) substruct="$2"; shift 2 ;;
    *) echo "scaling_study.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
substruct="$(study_substruct scaling_study.sh "$substruct")"
out="$(study_out "$out")"
echo "scaling study of '$method' with $substruct into $out"

tree() {  # tree BRANCHES → the scene file (generated once)
  local name="tree-$1x9" dir="$out/scenes/tree-$1x9"
  if [[ ! -f "$dir/$name.ini" ]]; then
    mkdir -p "$dir"
    "$substruct" generate tree --out "$dir" --name "$name" --branches "$1" \
      --leaves-per-branch 9 >"$dir/generate.log"
  fi
  echo "$dir/$name.ini"
}

point() {  # point SERIES VALUE SCENE [overrides…] → appends a row to scaling.csv
  local series="$1" value="$2" scene="$3"; shift 3
  local dir="$out/$series-$value"
  echo "  $series = $value"
  "$substruct" bench "$scene" --methods "$method" --reference none --steps "$steps" \
    --repeats 3 --no-plots --out "$dir" --run.cache_dir="$out/cache" "$@" >"$dir.log" 2>&1 ||
    { echo "failed: see $dir.log" >&2; exit 1; }
  /usr/bin/python3 - "$dir/results.csv" "$series" "$value" >>"$out/scaling.csv" <<'PY'
import csv, sys
row = next(r for r in csv.DictReader(open(sys.argv[1])))
if row["status"] != "ok":
    sys.exit(f"{sys.argv[2]} = {sys.argv[3]}: {row['status']}")
print(f"{sys.argv[2]},{sys.argv[3]},{row['domains']},{row['dofs']},{row['step_ms_median']},"
      f"{row['step_ms_p10']},{row['step_ms_p90']}")
PY
}

echo "series,value,domains,dofs,step_ms_median,step_ms_p10,step_ms_p90" >"$out/scaling.csv"
echo "step time against the number of domains:"
for branches in 1 3 10 30 100 300 1000; do
  (( 1 + 10 * branches <= max_domains )) || break
  point domains $((1 + 10 * branches)) "$(tree $branches)"
done
echo "step time against r (d = 101):"
for r in 5 10 15 20 30 40; do
  point modes "$r" "$(tree 10)" --reduction.mode_count=fixed --reduction.modes="$r" \
    --reduction.linear_modes="$(( r < 10 ? r : 10 ))"
done
/usr/bin/python3 "$here/tools/scaling_fit.py" "$out/scaling.csv" | tee "$out/scaling.md"
