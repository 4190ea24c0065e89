#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Energy of the coupling-elements method over time for its two integration schemes and several
# time steps (Wu, Mukherjee, Wang 2015, Fig. 3): the beam (share/scenes/beam.ini) cut into two
# domains, released with a velocity along its first vibration mode, no gravity, no damping.
# Backward Euler dissipates in both schemes; the two-step scheme (rigid motions, then
# deformations) far more, and more so as the time step grows.
#
#   benchmarks/coupling_elements_energy.sh [OUT_DIR] [--duration T] [--substruct PATH]
#
# Writes OUT_DIR (default out/coupling-elements-energy): one CSV per run, energy.png and
# summary.md (the fraction of the initial energy left at the end), also printed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
source "$here/tools/study_common.sh"
out="out/coupling-elements-energy" duration=2 substruct=""
if [[ $# -gt 0 && "$1" != --* ]]; then out="$1"; shift; fi
while [[ $# -gt 0 ]]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --substruct) substruct="$2"; shift 2 ;;
    *) echo "coupling_elements_energy.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
substruct="$(study_substruct coupling_elements_energy.sh "$substruct")"
out="$(study_out "$out")"
for scheme in one-step two-step; do
  for dt in 0.001 0.005 0.01 0.02; do
    steps=$(/usr/bin/python3 -c "print(round($duration / $dt))")
    echo "  $scheme, dt = $dt s ($steps steps)"
    "$substruct" run "$repo/share/scenes/beam.ini" --coupling.plugin=coupling-elements \
      --coupling-elements.integration=$scheme --scene.domains=auto:2 --run.loads= \
      --run.initial_velocity="mode 1 1" --material.rayleigh_stiffness=0 --run.dt=$dt \
      --run.steps=$steps --run.exporters=csv --run.output="$out/$scheme-$dt.pvd" \
      --run.cache_dir="$out/cache" >"$out/$scheme-$dt.log" 2>&1 ||
      { echo "failed: see $out/$scheme-$dt.log" >&2; exit 1; }
  done
done
/usr/bin/python3 - "$out" <<'PY' | tee "$out/summary.md"
import csv, glob, os, sys
out = sys.argv[1]
runs = {}
for path in sorted(glob.glob(os.path.join(out, "*-0.*.csv"))):
    name = os.path.basename(path)[:-4]
    scheme, dt = name.rsplit("-", 1)
    rows = list(csv.DictReader(open(path)))
    runs[(scheme, float(dt))] = ([float(r["time"]) for r in rows], [float(r["total"]) for r in rows])
print("| scheme | dt [s] | energy left at the end (fraction of E₀) |")
print("|---|---:|---:|")
for (scheme, dt), (t, e) in sorted(runs.items()):
    print(f"| {scheme} | {dt:g} | {e[-1] / e[0]:.3f} |")
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("\n(energy.png not drawn: python3-matplotlib is missing)")
    sys.exit(0)
fig, ax = plt.subplots(figsize=(8, 4.5))
for (scheme, dt), (t, e) in sorted(runs.items()):
    ax.plot(t, [x / e[0] for x in e], "-" if scheme == "one-step" else "--",
            label=f"{scheme}, Δt = {dt:g} s")
ax.set_xlabel("time [s]")
ax.set_ylabel("E(t) / E(0)")
ax.set_title("coupling-elements, two-domain beam, no damping (cf. Wu et al. 2015, Fig. 3)")
ax.grid(True, alpha=0.3)
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(os.path.join(out, "energy.png"), dpi=110)
PY
