#!/usr/bin/env bash
# The command line under AddressSanitizer and UndefinedBehaviorSanitizer (the `debug` preset:
# build-debug/): every bad-input case, Ctrl-C and SIGTERM, and a short run of every coupling
# plugin on a hybrid scene (readers, plugin host, caches, the methods' steps). Leaks are not
# checked: Open MPI and hwloc, started by the SLEPc plugin, keep ~120 kB to the end.
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
cmake --build build-debug -j2 --target substruct_cli "${plugins[@]}" >/dev/null
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export SUBSTRUCT_PLUGIN_PATH=
cli="$repo/build-debug/bin/substruct"
failed=0
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
