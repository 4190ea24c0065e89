#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs one case of cases.sh: bad input must give the expected exit code, a message that names the
# file, line or key and what is wrong, and leave no output behind that looks complete.
#   run_case.sh CLI SOURCE_DIR CASE
set -uo pipefail
cli="$(realpath "$1")" source="$(realpath "$2")" name="$3"
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cd "$out" || exit 1
scene="$source/share/scenes/beam.ini"
mesh="$source/share/meshes/beam3_tet.veg"
bou="$source/share/meshes/beam3.bou"
data="$source/tests/data/meshes"

fail() { echo "FAILED [$name]: $*"; exit 1; }

# expect_error CODE PATTERN -- command…   (PATTERN: a grep -E expression on stderr)
expect_error() {
  local code="$1" pattern="$2"
  shift 3
  local before
  before="$(find "$out" -mindepth 1 | sort)"
  "$@" >"$out/.stdout" 2>"$out/.stderr"
  local rc=$?
  [[ $rc -eq $code ]] || fail "exit $rc (expected $code) from: $* — $(cat "$out/.stderr")"
  grep -qE -- "$pattern" "$out/.stderr" || fail "'$pattern' not in: $(cat "$out/.stderr")"
  local after
  after="$(find "$out" -mindepth 1 ! -name .stdout ! -name .stderr | sort)"
  [[ "$before" == "$after" ]] ||
    fail "files left behind: $(comm -13 <(echo "$before") <(echo "$after") | tr '\n' ' ')"
  echo "ok [$name]: $(head -c 300 "$out/.stderr")"
}

# A scene file NAME.ini in the case's folder whose mesh is FILE (no output).
scene_with_mesh() {
  printf '[scene]\nmesh = %s\n[run]\nexporters =\nsteps = 2\n' "$2" >"$1"
}

# shellcheck source=cases.sh
source "$here/cases.sh"
declare -F "case_$name" >/dev/null || fail "no such case"
"case_$name"
