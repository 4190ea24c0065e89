#!/usr/bin/env bash
# Bad input gets a clear error, a non-zero exit, and leaves no output that looks complete.
set -uo pipefail
cli="$1" source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

expect_error() {  # expect_error CODE PATTERN -- command…
  local code="$1" pattern="$2"
  shift 3
  "$@" >"$out/stdout" 2>"$out/stderr"
  local rc=$?
  [[ $rc -eq $code ]] || fail "exit $rc (expected $code) from: $* — $(cat "$out/stderr")"
  grep -q -- "$pattern" "$out/stderr" || fail "'$pattern' not in: $(cat "$out/stderr")"
  echo "ok: $(head -c 300 "$out/stderr")"
}

scene="$source/share/scenes/beam.ini"
expect_error 1 "unknown key 'run.stepz'.*did you mean 'run.steps'" -- \
  "$cli" run "$scene" --run.stepz=3 --run.exporters=
expect_error 1 "unknown coupling plugin 'inertial'.*available coupling plugins: .*full" -- \
  "$cli" run "$scene" --coupling.plugin=inertial --run.exporters=
# A bad value: one format for every option, naming where it was set.
expect_error 1 "command line: \[inertia\] lumping = 'sideways': expected one of interface, center-of-mass" -- \
  "$cli" run "$scene" --inertia.lumping=sideways --run.exporters=
expect_error 1 "command line: \[run\] steps = '-5': expected an integer ≥ 0" -- \
  "$cli" run "$scene" --run.steps=-5 --run.exporters=
expect_error 1 "cannot open scene file" -- "$cli" run "$out/missing.ini"
expect_error 2 "unknown command 'rn'" -- "$cli" rn "$scene"

# A malformed mesh names the file and the line.
head -n 20 "$source/share/meshes/beam3_tet.veg" >"$out/broken.veg"
printf '[scene]\nmesh = broken.veg\n[run]\nexporters =\n' >"$out/broken.ini"
expect_error 1 "broken.veg:[0-9]*:.*expected" -- "$cli" run "$out/broken.ini"

# A simulation that blows up stops with the domain and the step, and leaves no .pvd.
expect_error 3 "diverged at step [0-9]* in domain 0" -- \
  "$cli" run "$scene" --run.steps=50 --run.loads=pull --pull.vertices=0 \
  --pull.force="0 1e12 0" --run.output="$out/blowup.pvd" --run.exporters="vtk csv"
[[ ! -e "$out/blowup.pvd" && ! -e "$out/blowup.csv" ]] || fail "partial output left behind"
[[ -z "$(find "$out" -name '*.vtu' -o -name '*.tmp')" ]] || fail "frames left behind"
# The file system refusing (a file where a folder must go) is the user's error (exit 1), naming
# the path, not an internal one (70).
touch "$out/a-file"
expect_error 1 "Not a directory \[.*a-file\]" -- "$cli" generate bar --out "$out/a-file"
expect_error 1 "Not a directory" -- \
  "$cli" run "$scene" --run.steps=1 --run.output="$out/a-file/x.pvd" --run.exporters=vtk

# A domain file with a huge id is refused at its line, before anything is sized by it.
printf '0\n%.0s' $(seq 449) >"$out/huge.domains"
echo 2000000000 >>"$out/huge.domains"
expect_error 1 "huge.domains:450:.*domain id 2000000000 for element 449 is not below" -- \
  "$cli" run "$scene" --scene.domains="$out/huge.domains" --run.exporters=
echo "bad_input: ok"
