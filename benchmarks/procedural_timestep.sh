#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Procedural timesteps (Zhao 2014, §5.2, §5.4.1) against substepping the whole tree: a generated
# tree (a trunk, 8 branches, 32 leaves) tuned in aging mode so that every domain has about the
# root's frequency (2 Hz), its branches then made 64× stiffer (8× the frequency: stiff twigs)
# and its leaves 9× (3×). At the graphics step Δt = 1/30 s and quality Q = 10 (QUALITY in the
# environment), the branches need 8 substeps, the leaves 2 and the trunk one. Runs, with the
# `substruct` command, 4 s of the tree sagging and swinging under gravity from rest (Newmark
# γ = ½: no numerical damping):
#   global      every domain one step of Δt
#   whole-tree  every domain 8 steps of Δt/8 ([run] dt = Δt/8): what one global step needs to
#               give the branches their 8 substeps
#   procedural  --inertia.timestep=procedural: 2^N substeps per domain, buffers between them
#   reference   every domain 64 steps of Δt/64
# and prints, per run, the step time per frame (median of the run's steps × steps per frame) and
# the RMS distance of the tracked branch and leaf tips to the reference's at every frame over the
# RMS of the reference's own displacement of them.
#
#   benchmarks/procedural_timestep.sh [OUT_DIR] [--substruct PATH]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo/benchmarks/tools/study_common.sh"
out_arg="" cli_arg=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --substruct) cli_arg="$2"; shift 2 ;;
    -*) echo "procedural_timestep.sh: unknown option $1" >&2; exit 2 ;;
    *) out_arg="$1"; shift ;;
  esac
done
cli="$(study_substruct procedural_timestep.sh "$cli_arg")"
out="$(study_out "${out_arg:-out/procedural-timestep}")"

"$cli" generate tree --out "$out/tree" --name tree --branches 8 --leaves-per-branch 4 \
  --levels 1 >"$out/generate.log" 2>&1
frames=120  # 4 s at 30 frames/s
common=(--run.loads=gravity --run.exporters=csv --run.cache_dir="$out/cache"
        --inertia.newmark_gamma=0.5 --inertia.root_frequency=2 --inertia.stiffness=aging --inertia.level_stiffness="1 64 9"
        --inertia.timestep_quality="${QUALITY:-10}")
run() {  # run NAME SUBSTEPS ARGS...: SUBSTEPS steps of Δt/SUBSTEPS per frame
  local name="$1" n="$2"
  shift 2
  "$cli" run "$out/tree/tree.ini" "${common[@]}" --run.dt="$(echo "1/(30*$n)" | bc -l)" \
    --run.steps=$((frames * n)) --run.output_every="$n" --run.output="$out/$name.pvd" "$@" \
    >"$out/$name.log" 2>&1 || { tail -5 "$out/$name.log"; echo "FAILED: $name" >&2; exit 1; }
  echo "$name $n $(grep -o 'time/step *[0-9.]* ms' "$out/$name.log" | grep -o '[0-9.]*')" >>"$out/times.txt"
}
rm -f "$out/times.txt"
run reference 64
run global 1
run whole-tree 8
run procedural 1 --inertia.timestep=procedural
grep -h "procedural timestep" "$out/procedural.log" | sed 's/^/  /'

/usr/bin/python3 - "$out" <<'PY'
import csv, sys, math
out = sys.argv[1]
def tips(name):
    rows = list(csv.DictReader(open(f"{out}/{name}.csv")))
    keys = [k[:-2] for k in rows[0] if k.endswith("_x")][1:]  # branch and leaf tips
    return [[tuple(float(r[f"{k}_{a}"]) for a in "xyz") for k in keys] for r in rows]
ref = tips("reference")
motion = math.sqrt(sum(sum((a - b) ** 2 for a, b in zip(p, q)) for f in ref for p, q in zip(f, ref[0]))
                   / (len(ref) * len(ref[0])))
times = {l.split()[0]: (int(l.split()[1]), float(l.split()[2])) for l in open(f"{out}/times.txt")}
print(f"| run | steps per frame | step time per frame [ms] | error / motion (tips) |")
print(f"|---|---:|---:|---:|")
for name in ["global", "whole-tree", "procedural", "reference"]:
    x = tips(name)
    n = min(len(x), len(ref))
    err = math.sqrt(sum(sum((a - b) ** 2 for a, b in zip(p, q)) for i in range(n)
                        for p, q in zip(x[i], ref[i])) / (n * len(ref[0])))
    steps, ms = times[name]
    print(f"| {name} | {steps} | {steps * ms:.3f} | {err / motion:.3g} |")
print(f"\nreference motion (RMS displacement of the tips): {motion:.3g} m")
PY
