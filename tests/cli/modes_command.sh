#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: `substruct modes` on the beam of share/meshes prints its natural frequencies (the
# lowest as Eigen's dense solver finds it), labels the rigid modes of the free-floating beam, and
# writes the modes as a .vtu that a VTK XML reader accepts.
set -euo pipefail
cli="$1" source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
mesh="$source/share/meshes/beam3_tet.veg"

"$cli" modes "$mesh" --fixed "$source/share/meshes/beam3.bou" --count 10 --model stvk \
  --output "$out/beam3_modes.vtu" >"$out/clamped.log"
cat "$out/clamped.log"
grep -q "^mesh     .*beam3_tet.veg: 208 vertices, 450 tets" "$out/clamped.log"
grep -q "^fixed    8 vertices" "$out/clamped.log"
grep -q "^output   $out/beam3_modes.vtu" "$out/clamped.log"
if grep -q "rigid$" "$out/clamped.log"; then
  echo "a clamped beam has no rigid modes"; exit 1
fi
# The table: modes 0…9, frequencies ascending. The lowest, 1.582853 Hz, is what Eigen's dense
# generalized solver gives for this beam (tests/solvers/test_slepc.cpp,
# Beam3LowestFrequenciesMatchTheDenseSolver); it must agree to 4 digits.
awk '$1 ~ /^[0-9]+$/ && NF >= 4 { print $1, $4 }' "$out/clamped.log" >"$out/frequencies"
python3 - "$out/frequencies" <<'EOF'
import sys
rows = [line.split() for line in open(sys.argv[1])]
assert [int(r[0]) for r in rows] == list(range(10)), rows
f = [float(r[1]) for r in rows]
assert all(a < b for a, b in zip(f, f[1:])), f
assert f"{f[0]:.4g}" == f"{1.582853:.4g}", f"lowest frequency {f[0]} Hz, expected 1.583 Hz"
print(f"lowest frequency {f[0]:.6f} Hz, highest of 10 {f[-1]:.4f} Hz")
EOF

# The .vtu: well-formed, one 3-vector per vertex and mode, the frequencies as field data.
python3 - "$out/beam3_modes.vtu" "$(awk 'NR == 1 { print $2 }' "$out/frequencies")" <<'EOF'
import math, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
grid = root.find("UnstructuredGrid")
piece = grid.find("Piece")
n, m = int(piece.get("NumberOfPoints")), int(piece.get("NumberOfCells"))
assert (n, m) == (208, 450), (n, m)
values = lambda a: [float(v) for v in a.text.split()]
point_data = {a.get("Name"): a for a in piece.find("PointData")}
modes = [name for name in point_data if name.startswith("mode_")]
assert modes == [f"mode_{i}" for i in range(10)], modes
for name in modes:
    u = values(point_data[name])
    assert point_data[name].get("NumberOfComponents") == "3" and len(u) == 3 * n, name
    assert all(map(math.isfinite, u)) and max(map(abs, u)) > 0, name
assert sum(values(point_data["fixed"])) == 8
field = {a.get("Name"): values(a) for a in grid.find("FieldData")}
f = field["frequency"]
assert len(f) == 10 and len(field["eigenvalue"]) == 10
assert abs(f[0] - float(sys.argv[2])) <= 1e-6 * f[0], (f[0], sys.argv[2])
assert len(values(piece.find("Points").find("DataArray"))) == 3 * n
cells = {a.get("Name"): a for a in piece.find("Cells")}
assert len(values(cells["connectivity"])) == 4 * m
print(f"{sys.argv[1]}: {n} points, {m} tets, {len(modes)} modes, f = {f[0]:.6f} … {f[-1]:.4f} Hz")
EOF
# The series checker of the other VTK outputs accepts it too.
cat >"$out/beam3_modes.pvd" <<'EOF'
<?xml version="1.0"?>
<VTKFile type="Collection" version="1.0" byte_order="LittleEndian">
  <Collection>
    <DataSet timestep="0" file="beam3_modes.vtu"/>
  </Collection>
</VTKFile>
EOF
python3 "$source/tests/cli/check_vtk_series.py" "$out/beam3_modes.pvd"
if compgen -G "$out/*.tmp" >/dev/null; then
  echo "a temporary file was left behind"; exit 1
fi

# Free-floating: six rigid modes near zero, labelled, then the elastic ones.
"$cli" modes "$mesh" --count 8 >"$out/free.log"
cat "$out/free.log"
test "$(grep -c "rigid$" "$out/free.log")" -eq 6
awk '$1 ~ /^[0-5]$/ && $NF != "rigid" { exit 1 }' "$out/free.log"
awk '$1 ~ /^[67]$/ && ($NF == "rigid" || $4 < 1) { exit 1 }' "$out/free.log"

# Asking for more modes than DOFs is an error that says so.
if "$cli" modes "$mesh" --fixed "$source/share/meshes/beam3.bou" --count 601 >"$out/err.log" 2>&1; then
  echo "expected an error for --count 601"; exit 1
fi
cat "$out/err.log"
grep -q "601 eigenpairs requested of a problem with 600 DOFs" "$out/err.log"
# [material] overrides apply to every material: E × 4 doubles every frequency.
"$cli" modes "$mesh" --fixed "$source/share/meshes/beam3.bou" --count 1 >"$out/e1.log"
"$cli" modes "$mesh" --fixed "$source/share/meshes/beam3.bou" --count 1 \
  --material.youngs_modulus=4e7 >"$out/e4.log"
grep -q "E = 4e+07 Pa" "$out/e4.log"
python3 - "$out/e1.log" "$out/e4.log" <<'EOF2'
import sys
f = [float(next(l.split()[3] for l in open(p) if l.split()[:1] == ["0"])) for p in sys.argv[1:]]
assert abs(f[1] / f[0] - 2) < 1e-6, f
EOF2

# A key modes does not read is an error naming it, not a silent no-op.
if "$cli" modes "$mesh" --run.dt=0.1 >"$out/ignored.log" 2>&1; then
  echo "expected an error for --run.dt"; exit 1
fi
grep -q "modes: --run.dt=0.1 is not read by modes" "$out/ignored.log"

# One process solves with spectra ([solvers] eigen = auto: no MPI); --solvers.eigen=slepc
# starts Open MPI as an isolated singleton (no daemon, no transport probing, a session folder of
# its own), leaves a variable the user set alone, and keeps Open MPI's own start-up on request;
# the eigenvalues are the same every way (the rigid modes' near-zero ones are round-off, so only
# the elastic ones are compared between the two solvers).
grep -q "^solver   spectra, 8 modes" "$out/free.log"
"$cli" modes "$mesh" --count 8 --verbose --solvers.eigen=slepc >"$out/isolated.log" 2>&1
grep -q "isolated singleton (5 OMPI_MCA_ variables set)" "$out/isolated.log"
grep -q "^solver   slepc, 8 modes" "$out/isolated.log"
OMPI_MCA_pml=ob1 "$cli" modes "$mesh" --count 8 --verbose --solvers.eigen=slepc \
  >"$out/user.log" 2>&1
grep -q "isolated singleton (4 OMPI_MCA_ variables set)" "$out/user.log"
SUBSTRUCT_MPI_SINGLETON=openmpi "$cli" modes "$mesh" --count 8 --verbose --solvers.eigen=slepc \
  >"$out/openmpi.log" 2>&1
if grep -q "isolated singleton" "$out/openmpi.log"; then
  echo "SUBSTRUCT_MPI_SINGLETON=openmpi should keep Open MPI's start-up"; exit 1
fi
for log in user openmpi; do
  diff <(grep -E "^ +[0-9]+ " "$out/isolated.log") <(grep -E "^ +[0-9]+ " "$out/$log.log")
done
python3 - "$out/free.log" "$out/isolated.log" <<'EOF2'
import sys
rows = [[l.split() for l in open(p) if l.split()[:1] and l.split()[0].isdigit() and "rigid" not in l]
        for p in sys.argv[1:]]
assert len(rows[0]) == len(rows[1]) == 2, rows
for a, b in zip(*rows):
    assert abs(float(a[1]) / float(b[1]) - 1) < 1e-7, (a, b)
EOF2
echo "modes_command: ok"
