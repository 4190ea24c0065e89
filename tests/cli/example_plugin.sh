#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: the example coupling plugin (examples/spring-coupling) builds outside the tree with
# find_package(substruct) against this build, loads by name with --plugin-path, passes every rule
# of `substruct check-plugin`, and shows the
# spring coupling's trade-off on the beam cut in two: softer springs leave a larger gap between
# the domains and a larger error against the full method.
set -euo pipefail
cli="$1" source="$2"
build="$(cd "$(dirname "$cli")/.." && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
bash "$source/tests/support/build_example.sh" "$source/examples/spring-coupling" "$out/build" "$build" \
  spring-coupling
"$cli" plugins --plugin-path "$out/build" >"$out/plugins.log"
grep -q "spring-coupling" "$out/plugins.log"
"$cli" help spring-coupling --plugin-path "$out/build" | grep -q "spring-coupling.stiffness"
# The coupling contract: every rule of `substruct check-plugin` passes.
"$cli" check-plugin spring-coupling --plugin-path "$out/build" >"$out/check.log" 2>&1 ||
  { cat "$out/check.log"; exit 1; }
cat "$out/check.log"
grep -qx "spring-coupling: 6 of 6 rules passed" "$out/check.log"
for k in 1e3 1e6; do
  "$cli" bench "$source/share/scenes/beam.ini" --plugin-path "$out/build" \
    --methods full,spring-coupling --scene.domains=auto:2 --spring-coupling.stiffness=$k \
    --steps 60 --repeats 1 --no-plots --out "$out/k$k" --run.cache_dir="$out/cache" \
    >"$out/k$k.log" 2>&1 || { cat "$out/k$k.log"; exit 1; }
done
python3 - "$out/k1e3/results.json" "$out/k1e6/results.json" <<'PY'
import json, sys
soft, stiff = ([c for c in json.load(open(p))["cases"] if c["method"] == "spring-coupling"][0]
               for p in sys.argv[1:])
assert soft["ran"] and stiff["ran"], (soft["failure"], stiff["failure"])
print(f"k = 1e3: gap {soft['interface_gap_m']*1e3:.3g} mm, RMS error {soft['rms_error']:.3g}; "
      f"k = 1e6: gap {stiff['interface_gap_m']*1e3:.3g} mm, RMS error {stiff['rms_error']:.3g}")
assert soft["interface_gap_m"] > 10 * stiff["interface_gap_m"] > 0
assert soft["rms_error"] > stiff["rms_error"]
assert stiff["rms_error"] < 0.03
PY
echo "example_plugin: ok"
