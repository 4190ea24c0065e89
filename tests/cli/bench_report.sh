#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: `substruct bench` on the beam (full and inertia) and on a plate whose domain graph
# has a loop (inertia cannot run it): the report lists every case, its numbers are present and
# finite, the refused case says why, and the plots are drawn when matplotlib is there.
set -euo pipefail
cli="$1" source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$cli" generate beam --out "$out/plate" --name plate --length 0.4 --height 0.4 --width 0.05 \
  --cells 6 6 1 --domains auto:4 --steps 5 >/dev/null
"$cli" bench "$source/share/scenes/beam.ini" "$out/plate/plate.ini" --methods full,inertia \
  --steps 100 --repeats 2 --out "$out/report" --run.cache_dir="$out/cache" >"$out/log" 2>&1 ||
  { cat "$out/log"; exit 1; }
cat "$out/log"
for f in report.md results.csv results.json; do test -s "$out/report/$f"; done
[[ -z "$(find "$out/report" -name '*.partial')" ]]
grep -q "^| beam | inertia |" "$out/report/report.md"
grep -q "^| plate | inertia | | | | not run: .*cycle" "$out/report/report.md"
# The verdict after the table, in report.md and on the terminal: on the beam the reduced method
# is ranked against full (or said to be indistinguishable from it) and the fastest named with its
# time per step; on the plate inertia could not run, with why.
grep -q "^## Verdict" "$out/report/report.md"
grep -q "^Verdict" "$out/log"
grep -Eq '^\*\*beam\*\*: (Closest to the reference `full`: `inertia`, at an error of [0-9.e-]+ of the reference.s motion|`inertia` \(error [0-9.e-]+\) is indistinguishable from the reference `full`).* Fastest: `(full|inertia)`.* at [0-9.e-]+ ms per step \(median\)' \
  "$out/report/report.md" || { sed -n '/^## Verdict/,/^## Stages/p' "$out/report/report.md"; exit 1; }
grep -Eq '^\*\*plate\*\*: .*`inertia` could not run: .*cycle' "$out/report/report.md"
grep -Eq '^\*\*plate\*\*: .*`inertia` could not run: .*cycle' "$out/log"
grep -q "Quick run" "$out/report/report.md" && { echo "a full run called quick"; exit 1; }
python3 - "$out/report/results.json" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))
assert r["machine"]["cpu"] and r["machine"]["cores"] > 0 and r["machine"]["compiler"], r["machine"]
cases = {(c["scene"], c["method"]): c for c in r["cases"]}
assert set(cases) == {("beam", "full"), ("beam", "inertia"), ("plate", "full"),
                      ("plate", "inertia")}, sorted(cases)
def finite(c, key):
    v = c[key]
    assert v is not None and math.isfinite(v), (c["scene"], c["method"], key, v)
    return v
for key in ("full", "inertia"):
    c = cases[("beam", key)]
    assert c["ran"], c["failure"]
    for k in ("precompute_s", "step_ms_median", "step_ms_p10", "step_ms_p90", "peak_rss_mb",
              "rms_error", "max_error", "frequency_hz", "reference_frequency_hz",
              "frequency_ratio", "energy_drift", "interface_gap_m", "relative_rms_error",
              "offset_ratio", "decay_ratio"):
        finite(c, k)
    assert c["dofs"] > 0 and c["step_ms_p10"] <= c["step_ms_median"] <= c["step_ms_p90"]
    assert len(c["tracked_xyz_columns"][0]) == 101 and len(c["kinetic"]) == 101
full, inertia = cases[("beam", "full")], cases[("beam", "inertia")]
# The reference's row holds its own error at Δt against Δt/4 (1 s at 2.4 Hz: 2.4 periods, enough
# for a frequency), and every row has it as the reference's uncertainty.
assert full["self_check"] == 1 and full["frequency_ratio"] == 1, full
assert 0 < full["relative_rms_error"] < 0.05 and 0 < full["rms_error"] < 1e-3, full
assert inertia["reference_uncertainty"] == full["relative_rms_error"], inertia
# One domain, 20 modes: the reduced beam follows the full one closely.
assert 0 < inertia["rms_error"] < 0.02, inertia["rms_error"]
assert abs(full["offset_ratio"] - 1) < 0.05 and full["decay_ratio"] == 1, full
assert full["integrator"].startswith("trapezoidal Newmark") and "Newmark" in inertia["integrator"]
# Relative to the reference's own motion the error is much larger than against the beam's size.
assert inertia["relative_rms_error"] > 5 * inertia["rms_error"], inertia
assert 0.5 < inertia["offset_ratio"] < 1.5 and 0 < inertia["decay_ratio"] < 10, inertia
print(f"beam, inertia: error/motion {inertia['relative_rms_error']:.3g}, offset ratio "
      f"{inertia['offset_ratio']:.3g}, f/f_ref {inertia['frequency_ratio']:.3g}, decay ratio "
      f"{inertia['decay_ratio']:.3g}, RMS error/size {inertia['rms_error']:.3g}")
assert 0.9 < inertia["frequency_ratio"] < 1.2, inertia["frequency_ratio"]
assert inertia["models_computed"] + inertia["models_loaded"] == 1
assert "polynomial" in inertia["precompute_stages_s"] or inertia["models_loaded"] == 1
refused = cases[("plate", "inertia")]
assert not refused["ran"] and "cycle" in refused["failure"], refused["failure"]
assert cases[("plate", "full")]["ran"]
print("results.json: every figure present and finite")
PY
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  for png in trajectories_beam energy_beam trajectories_plate; do
    test -s "$out/report/$png.png"
    head -c 8 "$out/report/$png.png" | od -An -c | grep -q "P   N   G"
  done
else
  echo "bench_report: plots not checked (python3-matplotlib is not installed)"
fi
# A quick run says so in its verdict, scene by scene.
"$cli" bench "$source/share/scenes/beam.ini" --methods full,inertia --quick --no-plots \
  --out "$out/quick" --run.cache_dir="$out/cache" >"$out/quick.log" 2>&1 ||
  { cat "$out/quick.log"; exit 1; }
grep -q '^\*\*beam\*\*: Quick run: a check that every row runs, not a measurement' \
  "$out/quick/report.md" || { cat "$out/quick/report.md"; exit 1; }
grep -q "^| beam | inertia |" "$out/quick/report.md"
echo "bench_report: ok"
