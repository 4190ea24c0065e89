#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: `substruct run` on the default beam scene writes a VTK series that a
# ParaView-style reader accepts, a CSV, and a summary naming them.
set -euo pipefail
cli="$1" source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$cli" run "$source/share/scenes/beam.ini" --coupling.plugin=full --run.steps=20 \
  --run.output="$out/beam.pvd" --run.exporters="vtk csv" >"$out/log"
cat "$out/log"
grep -q "^scene      beam3_tet\|^scene      beam" "$out/log"
grep -q "^method     full" "$out/log"
grep -q "^output     $out/beam.pvd" "$out/log"
grep -q "^output     $out/beam.csv" "$out/log"
test "$(grep -c . "$out/beam.csv")" -eq 22  # header + frames 0..20
python3 "$source/tests/cli/check_vtk_series.py" "$out/beam.pvd"
[[ -z "$(find "$out" -name '*.tmp')" ]]
echo "run_beam: ok"
