#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: the example linear-solver plugin (examples/eigen-ldlt-solver) builds outside the
# tree with find_package(substruct) against this build, is listed and documented by name with
# --plugin-path, and chosen by `[solvers] linear = eigen-ldlt` it gives the beam's full-FEM run
# the positions of the default solver (cholmod) to 1e-9 m; `full` with it passes every rule of
# `substruct check-plugin`.
set -euo pipefail
cli="$1" source="$2"
build="$(cd "$(dirname "$cli")/.." && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
bash "$source/tests/support/build_example.sh" "$source/examples/eigen-ldlt-solver" "$out/build" "$build" \
  eigen-ldlt
"$cli" plugins --plugin-path "$out/build" | grep -q "^  eigen-ldlt "
"$cli" help eigen-ldlt --plugin-path "$out/build" | grep -q "eigen-ldlt.ordering = amd"
scene="$source/share/scenes/beam.ini"
"$cli" static "$scene" --plugin-path "$out/build" --solvers.linear=eigen-ldlt \
  --output "$out/static.vtu" >"$out/static.log" 2>&1 || { cat "$out/static.log"; exit 1; }
grep -q "^method .*linear solver Eigen SimplicialLDLT, AMD ordering" "$out/static.log" ||
  { cat "$out/static.log"; exit 1; }
for solver in eigen-ldlt cholmod; do
  "$cli" run "$scene" --plugin-path "$out/build" --solvers.linear=$solver --run.steps=50 \
    --run.exporters=csv --run.output="$out/$solver/beam.pvd" >"$out/$solver.log" 2>&1 ||
    { cat "$out/$solver.log"; exit 1; }
done
python3 "$source/tests/cli/compare_run_csv.py" "$out/eigen-ldlt/beam.csv" "$out/cholmod/beam.csv" 1e-9
"$cli" check-plugin full --plugin-path "$out/build" --solvers.linear=eigen-ldlt --steps 3 \
  --reference-steps 10 >"$out/check.log" 2>&1 || { cat "$out/check.log"; exit 1; }
grep -qx "full: 6 of 6 rules passed" "$out/check.log"
echo "example_solver: ok"
