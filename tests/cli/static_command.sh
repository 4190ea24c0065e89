#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: `substruct static` on the beam (share/scenes/beam.ini: StVK, clamped, gravity
# across its 0.12 m side) finds the equilibrium with a small residual, writes it as a valid .vtu,
# and agrees with where `full`'s damped run comes to rest, to 0.1 % of the static deflection
# over every vertex. With the linear material, twice the load gives exactly twice the
# displacement. Bad options are clear errors.
set -euo pipefail
cli="$1" source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
scene="$source/share/scenes/beam.ini"
cd "$out"

"$cli" static "$scene" --output "$out/beam_static.vtu" >"$out/static.log"
cat "$out/static.log"
grep -q "^method     full: full FEM, Newton with line search" "$out/static.log"
grep -q "^load       at t = 0 s: gravity (-9.81, 0, 0) m/s², 0 point forces" "$out/static.log"
residual=$(awk '/^residual/ { print $2 }' "$out/static.log")
python3 -c "import sys; r = float(sys.argv[1]); assert r < 1e-8, r" "$residual"

# The default output sits beside [run] output: out/beam.pvd → out/beam_static.vtu.
"$cli" static "$scene" --quiet >/dev/null
test -s "$out/out/beam_static.vtu"

# Where the damped dynamics comes to rest: 4 s with strong mass damping (α = 20 /s damps the
# first mode, 2 Hz, at ζ ≈ 0.8), the last frame only.
"$cli" run "$scene" --run.steps=400 --material.rayleigh_mass=20 --run.output="$out/dyn/beam.pvd" \
  --run.exporters=vtk --run.output_every=400 --quiet >/dev/null
python3 - "$source/tests/cli" "$out/beam_static.vtu" "$out/dyn/beam/beam_000400.vtu" <<'PY'
import math, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
import check_vtk_series as vtk

def arrays(path):
    vtk.check_vtu(path)
    root = ET.parse(path).getroot()
    grid = root.find("UnstructuredGrid")
    piece = grid.find("Piece")
    point = vtk.arrays(piece.find("PointData"), path, "<", "I")
    field = vtk.arrays(grid.find("FieldData"), path, "<", "I")
    return point, field

static, field = arrays(sys.argv[2])
dynamic, _ = arrays(sys.argv[3])
u, w = static["displacement"][1], dynamic["displacement"][1]
n = len(u) // 3
size = max(math.hypot(*u[3 * i:3 * i + 3]) for i in range(n))
gap = max(math.dist(u[3 * i:3 * i + 3], w[3 * i:3 * i + 3]) for i in range(n))
assert sum(static["fixed"][1]) == 8, "the beam has 8 fixed vertices"
assert abs(field["max_displacement"][1][0] - size) <= 1e-12 * size, field["max_displacement"]
assert 0.05 < size < 0.1, f"static deflection {size} m: the beam sags about 0.07 m"
print(f"static max displacement {size:.6f} m; damped run at rest differs by {gap:.3g} m "
      f"({gap / size:.3g} of it)")
assert gap <= 1e-3 * size, f"static and damped dynamic rest differ by {gap / size:.3g}"
PY

# Linear material: the solution is K⁻¹ f, so doubling gravity doubles every displacement.
"$cli" static "$scene" --material.model=linear --output "$out/g1.vtu" --quiet >/dev/null
"$cli" static "$scene" --material.model=linear --gravity.acceleration="-19.62 0 0" \
  --output "$out/g2.vtu" --quiet >/dev/null
python3 - "$source/tests/cli" "$out/g1.vtu" "$out/g2.vtu" <<'PY'
import sys
import xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
import check_vtk_series as vtk
def displacement(path):
    piece = ET.parse(path).getroot().find("UnstructuredGrid").find("Piece")
    return vtk.arrays(piece.find("PointData"), path, "<", "I")["displacement"][1]
a, b = displacement(sys.argv[2]), displacement(sys.argv[3])
scale = max(map(abs, a))
worst = max(abs(2 * x - y) for x, y in zip(a, b))
assert worst <= 1e-9 * scale, f"linear static: 2 u(g) − u(2g) = {worst} (scale {scale})"
print(f"linear: u(2g) = 2 u(g) to {worst / scale:.2g}")
PY

# A point load at time T: [pull] from t = 1 s, so at --time 0 only gravity acts.
"$cli" static "$scene" --run.loads="gravity pull" --pull.vertices=157 --pull.force="0 0 -2" \
  --pull.start=1 --time 2 --output "$out/pull.vtu" >"$out/pull.log"
grep -q "1 point force, total (-47.088, 0, -2) N" "$out/pull.log"

# Errors: a NaN --time, a non-.vtu output.
expect_error() {
  local pattern="$1"; shift
  if "$cli" "$@" >"$out/err.log" 2>&1; then echo "expected an error: $*"; exit 1; fi
  grep -q -- "$pattern" "$out/err.log" || { cat "$out/err.log"; exit 1; }
}
# (A method without a static solve, a negative --time and a misspelled option are cases of the
# bad-input suite: cli.bad_input.static_*.)
expect_error "static: --time expects a finite number ≥ 0 \[s\], found 'nan'" static "$scene" --time nan
expect_error "must be a .vtu file" static "$scene" --output "$out/x.csv"
test ! -e "$out/x.csv"
echo "static_command: ok"
