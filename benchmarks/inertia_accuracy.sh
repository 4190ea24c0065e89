#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Accuracy of the inertia coupling against the unreduced ground truth (Barbič–Zhao 2011, §5
# "Accuracy", Fig. 7): the flower, released from rest with a velocity along the first vibration
# mode of the whole mesh, no gravity, no damping, about 3 periods of the ground truth.
#
#   benchmarks/inertia_accuracy.sh [OUT_DIR] [--amplitude A] [--dt DT] [--duration T]
#                                  [--substruct PATH] [--full-only]
#
# Runs, with the `substruct` command:
#   G   full (implicit Newmark, the ground truth)
#   L1  inertia, --inertia.lumping=interface       (the subtree mass lumped at the interface)
#   L2  inertia, --inertia.lumping=center-of-mass  (… at the subtree's centre of mass)
# then measures the lowest natural frequency of each from the free vibration of the top of the
# bloom (zero crossings; benchmarks/tools/trajectory_report.py explains the estimate), and reruns
# L1 and L2 with --inertia.frequency_scale = 1 / (their frequency ratio to G) ("frequency
# matching", Zhao 2014 §4.3). Writes into OUT_DIR (default out/inertia-accuracy): the CSV and log
# of every run, trajectories.png (trajectories.svg without matplotlib) and summary.md, which is
# also printed; the reduced models precomputed for L1/L2 are kept in OUT_DIR/cache.
#
# The amplitude: the default 4.4 m/s (largest vertex speed at t = 0) bends the stem by 45° (the
# chord from the fixed base to the top of the bloom turns by 45.4° at the first extreme with the
# full method; 3 m/s gives 31°, 4 m/s 41°; at 5 m/s the full method's StVK tangent stiffness
# turns indefinite within 0.75 s). --full-only runs G alone and prints its bend angle and
# frequency, to choose another amplitude.
#
# The paper reports f(L1)/f(G) = 2 and f(L2)/f(G) = 1.5 on its flower.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
source "$here/tools/study_common.sh"
report="$here/tools/trajectory_report.py"
python=/usr/bin/python3

out="out/inertia-accuracy"
amplitude=4.4  # m/s
dt=0.005       # s
duration=0.82  # s: 3 periods of the ground truth's first mode (3.66 Hz)
scene="$repo/share/scenes/flower.ini"
substruct=""
full_only=0

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

while (($#)); do
  case "$1" in
    --amplitude) amplitude="$2"; shift 2 ;;
    --dt) dt="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --substruct) substruct="$2"; shift 2 ;;
    --scene) scene="$2"; shift 2 ;;
    --full-only) full_only=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "inertia_accuracy.sh: unknown option '$1' (--help lists them)" >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done

substruct="$(study_substruct inertia_accuracy.sh "$substruct")"
"$python" -c "import numpy" 2>/dev/null || { echo "inertia_accuracy.sh: $python needs numpy (Debian: python3-numpy)" >&2; exit 2; }
if ((!full_only)) && ! "$substruct" help inertia >/dev/null 2>&1; then
  echo "inertia_accuracy.sh: the inertia plugin is not available ('$substruct plugins' lists what is); --full-only runs the ground truth alone" >&2
  exit 2
fi

# The scene's mesh and fixed vertices (for the rest shape, its size and the base of the stem).
scene_dir="$(cd "$(dirname "$scene")" && pwd)"
ini_value() { sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\([^#[:space:]]*\).*/\1/p" "$scene" | head -n 1; }
mesh="$scene_dir/$(ini_value mesh)"
fixed="$scene_dir/$(ini_value fixed)"

steps="$("$python" -c "print(round($duration / $dt))")"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

common=(--run.loads= --material.rayleigh_mass=0 --material.rayleigh_stiffness=0
        --run.exporters=csv --run.dt="$dt" --run.steps="$steps" --run.cache_dir="$out/cache"
        "--run.initial_velocity=mode 1 $amplitude")

# run NAME [overrides…]: one run into $out/NAME.csv, its printed summary in $out/NAME.log.
run() {
  local name="$1"; shift
  echo "running $name: substruct run $(basename "$scene") $* …" >&2
  if ! "$substruct" run "$scene" "${common[@]}" --run.output="$out/$name.pvd" "$@" \
      >"$out/$name.log" 2>&1; then
    echo "inertia_accuracy.sh: run $name failed; its output:" >&2
    cat "$out/$name.log" >&2
    exit 1
  fi
  printf '%s\t%s\n' "$name" "$*" >>"$out/commands.tsv"
}
step_ms() { sed -n 's/^time\/step *\([0-9.]*\) ms.*/\1/p' "$out/$1.log"; }

: >"$out/commands.tsv"
run full --coupling.plugin=full
panels=()
runs=()
if ((!full_only)); then
  run L1 --coupling.plugin=inertia --inertia.lumping=interface
  run L2 --coupling.plugin=inertia --inertia.lumping=center-of-mass
  ratios="$("$python" "$report" ratios --truth "$out/full.csv" --run "L1=$out/L1.csv" \
            --run "L2=$out/L2.csv")"
  ratio_L1="$(awk '$1 == "L1" {print $2}' <<<"$ratios")"
  ratio_L2="$(awk '$1 == "L2" {print $2}' <<<"$ratios")"
  scale_L1="$("$python" -c "print(f'{1 / $ratio_L1:.6g}')")"
  scale_L2="$("$python" -c "print(f'{1 / $ratio_L2:.6g}')")"
  run L1-matched --coupling.plugin=inertia --inertia.lumping=interface \
      --inertia.frequency_scale="$scale_L1"
  run L2-matched --coupling.plugin=inertia --inertia.lumping=center-of-mass \
      --inertia.frequency_scale="$scale_L2"
  runs=(--run "L1=$out/L1.csv" --run "L2=$out/L2.csv"
        --run "L1 matched=$out/L1-matched.csv" --run "L2 matched=$out/L2-matched.csv")
  panels=(--panel "as computed:L1,L2" --panel "frequency matched:L1 matched,L2 matched")
fi

{
  echo "## Inertia coupling against the ground truth: $(basename "$scene" .ini)"
  echo
  echo "Released from rest with the velocity of the first vibration mode of the whole mesh"
  echo "(\`--run.initial_velocity=\"mode 1 $amplitude\"\`: largest vertex speed $amplitude m/s),"
  echo "no gravity, no damping, dt = $dt s, $steps steps ($duration s)."
  echo
  "$python" "$report" report --truth "$out/full.csv" "${runs[@]}" "${panels[@]}" \
    --mesh "$mesh" --fixed "$fixed" --out "$out" \
    --title "$(basename "$scene" .ini): top of the bloom, G = full, L1/L2 = inertia"
  echo
  if ((!full_only)); then
    echo "Frequency matching: L1 rerun with \`--inertia.frequency_scale=$scale_L1\`"
    echo "(1 / $ratio_L1), L2 with \`--inertia.frequency_scale=$scale_L2\` (1 / $ratio_L2)."
    echo "The paper (its flower, Fig. 7): f(L1)/f(G) = 2, f(L2)/f(G) = 1.5."
    echo
  fi
  echo "| run | median time per step [ms] | command (after \`substruct run $(basename "$scene")\` and the common settings) |"
  echo "|---|---|---|"
  while IFS=$'\t' read -r name args; do
    echo "| $name | $(step_ms "$name") | \`$args\` |"
  done <"$out/commands.tsv"
  echo
  echo "Common settings: \`${common[*]}\`"
} | tee "$out/summary.md"
