#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The multi-domain flower runs under gravity with the ground truth, and a point pull on the
# beam runs too: both once made the Newton iteration start from an extrapolated state so far off
# that StVK's tangent turned indefinite (the predictor u + dt v + ½dt²a amplifies stiff modes).
set -euo pipefail
cli="$1" source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$cli" run "$source/share/scenes/flower.ini" --run.steps=40 --run.output="$out/flower.pvd" \
  --run.exporters=vtk >"$out/log"
cat "$out/log"
grep -q "^scene      flower: 1099 vertices, 2640 tets, 12 domains" "$out/log"
python3 "$source/tests/cli/check_vtk_series.py" "$out/flower.pvd" --frames 41
"$cli" run "$source/share/scenes/beam.ini" --run.steps=60 --run.loads="gravity pull" \
  --pull.vertices=10 --pull.force="2 0 0" --run.output="$out/pull.pvd" --run.exporters=csv \
  >"$out/log"
cat "$out/log"
test "$(grep -c . "$out/pull.csv")" -eq 62
echo "run_flower_and_pull: ok"
