#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: `substruct check-plugin` passes an in-tree method by name and fails, with exit
# status 1, the fixture plugin given by its library file that breaks one rule of the coupling
# contract (tests/plugin_fixtures/nondeterministic_coupling.cpp), naming that rule; bad
# arguments are refused naming the option or the plugin.
set -euo pipefail
cli="$1"
build="$(cd "$(dirname "$cli")/.." && pwd)"
fixture="$build/test-plugins/libsubstruct-nondeterministic-coupling.so"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fail() {
  echo "error: $*" >&2
  exit 1
}
[[ -f "$fixture" ]] || fail "$fixture is not built (ninja -C $build fixture-nondeterministic-coupling)"
cd "$out"
rules=(lifecycle-order bad-inputs-refused positions-from-layout deterministic-runs
  deterministic-threads full-referenced-run)

"$cli" check-plugin inertia --steps 3 --reference-steps 20 >inertia.log 2>&1 ||
  { cat inertia.log; fail "check-plugin inertia failed"; }
cat inertia.log
for rule in "${rules[@]}"; do
  grep -q "^PASS  $rule " inertia.log || fail "inertia: no PASS line for $rule"
done
grep -qx "inertia: 6 of 6 rules passed" inertia.log || fail "inertia: no summary line"
grep -q "^PASS  full-referenced-run .*beam, 20 steps of 0.01 s, 2 domains: trajectory error [0-9.e-]* of full's motion" \
  inertia.log || fail "inertia: the full-referenced run prints no error"

status=0
"$cli" check-plugin "$fixture" --steps 3 --reference-steps 20 >fixture.log 2>&1 || status=$?
cat fixture.log
((status == 1)) || fail "check-plugin on the fixture exited with $status, not 1"
grep -q "^FAIL  deterministic-runs .*a run and a second run after reset() differ at step 1" \
  fixture.log || fail "the fixture's broken rule is not named"
for rule in "${rules[@]}"; do
  [[ $rule == deterministic-runs ]] && continue
  grep -q "^PASS  $rule " fixture.log || fail "fixture: $rule should pass"
done
grep -qx "nondeterministic-coupling: 5 of 6 rules passed" fixture.log || fail "fixture: no summary"

refused() {
  local expected="$1"
  shift
  if "$cli" check-plugin "$@" >refused.log 2>&1; then fail "check-plugin $* was accepted"; fi
  grep -qF "$expected" refused.log || { cat refused.log; fail "check-plugin $*: no '$expected'"; }
}
refused "unknown coupling plugin 'gravity' ('gravity' is a load plugin)" gravity
refused "unknown coupling plugin 'no-such'" no-such
refused "[check-plugin] steps = '0': expected an integer in [1, 10000]" full --steps 0
refused "check-plugin: unknown option '--stepz'; did you mean '--steps'?" full --stepz 3
refused "check-plugin: which plugin?" --steps 3
# A scene the method refuses stops the check before any rule, with the method's reason.
"$cli" generate beam --out plate --name plate --length 0.4 --height 0.4 --width 0.05 \
  --cells 6 6 1 --domains auto:4 --steps 5 >/dev/null
refused "inertia cannot run the scene plate: the domain graph has a cycle" inertia \
  --scene plate/plate.ini
echo "check_plugin: ok"
