#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# AddressSanitizer and UndefinedBehaviorSanitizer (the `debug` preset: build-debug/) on
#   - the unit tests of the readers (mesh), the plugin host, files and caches (io, the model
#     cache), the config and the core, and the fuzz harnesses' replays of their corpora;
#   - the command line: every bad-input case, Ctrl-C and SIGTERM, and a short run of every
#     coupling plugin on a hybrid scene (the methods' steps).
# The rest of the unit suite (ctest --preset debug after a full debug build) is too slow for
# every CI run: unoptimised with ASan its coupling tests take minutes each (up to 6 min).
# Leaks are not checked: Open MPI and hwloc, started by the SLEPc plugin, keep ~120 kB to the end.
#   tests/sanitizers/run_sanitized.sh        (from anywhere; builds what it needs)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
echo "sanitizers: building the command and the plugins with ASan + UBSan (build-debug/)"
# A debug build hashes its folder into ccache's keys unless told not to; without this a clone in
# another folder (CI's) recompiles everything.
export CCACHE_NOHASHDIR=1
cmake --preset debug >/dev/null
mapfile -t plugins < <(ninja -C build-debug -t targets all | grep -oE '^plugins/[^:]+\.so' | sort -u)
mapfile -t unit_tests < <(ninja -C build-debug -t targets all |
  grep -oE '^(bin/(mesh|plugin|io|config|core)_test_[a-z_]+|bin/replay_[a-z_]+|bin/reduction_test_model_cache|fixture-[a-z-]+)' |
  sort -u)
# The viewer is its own target (not a dependency of the command): the bad-input cases run it.
viewer=()
ninja -C build-debug -t targets all | grep -q '^substruct_view:' && viewer=(substruct_view)
cmake --build build-debug -j2 --target substruct_cli "${viewer[@]}" "${plugins[@]}" "${unit_tests[@]}" >/dev/null
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export SUBSTRUCT_PLUGIN_PATH=
cli="$repo/build-debug/bin/substruct"
failed=0
unit_pattern='^(mesh|plugin|io|config|core|fuzz)\.|^reduction\.ModelCache'
if ! ctest --test-dir build-debug -R "$unit_pattern" -j2 --output-on-failure >/tmp/sanitized_unit.log 2>&1; then
  echo "FAILED: unit tests under the sanitizers:"; cat /tmp/sanitized_unit.log; failed=1
fi
echo "sanitizers: $(grep -oE '[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' /tmp/sanitized_unit.log | head -1) (unit tests: readers, plugin host, files, caches, config, core, fuzz replays)"
cases=$(grep -oE '^case_[a-z0-9_]+' tests/cli/bad_input/cases.sh | sed 's/^case_//')
for c in $cases; do
  if ! bash tests/cli/bad_input/run_case.sh "$cli" "$repo" "$c" >/tmp/sanitized_case.log 2>&1; then
    echo "FAILED bad_input.$c:"; cat /tmp/sanitized_case.log; failed=1
  fi
done
echo "sanitizers: $(echo "$cases" | wc -w) bad-input cases done"
bash tests/cli/interrupt.sh "$cli" "$repo" || failed=1
for plugin in full inertia coupling-elements ddm spectral-hybrid; do
  if ! "$cli" run share/scenes/hybrid_bar.ini --coupling.plugin="$plugin" --run.steps=5 \
       --run.exporters= --run.cache_dir="$(mktemp -d)" >/tmp/sanitized_run.log 2>&1; then
    echo "FAILED: $plugin on hybrid_bar:"; cat /tmp/sanitized_run.log; failed=1
  else
    echo "ok: $plugin on hybrid_bar, 5 steps"
  fi
done
# geometry-cuda's host path (no GPU here), writing positions every step.
if [[ -e build-debug/plugins/libsubstruct-geometry-cuda.so ]]; then
  out=$(mktemp -d)
  if ! "$cli" run share/scenes/hybrid_bar.ini --coupling.plugin=spectral-hybrid --run.steps=5 \
       --solvers.geometry=cuda --geometry-cuda.fallback=cpu --run.output="$out/bar" \
       --run.cache_dir="$out/cache" >/tmp/sanitized_run.log 2>&1; then
    echo "FAILED: geometry-cuda (fallback = cpu):"; cat /tmp/sanitized_run.log; failed=1
  else
    echo "ok: spectral-hybrid with geometry-cuda (fallback = cpu), 5 steps"
  fi
fi
[[ $failed -eq 0 ]] && echo "sanitizers: ok"
exit $failed
