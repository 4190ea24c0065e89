#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sets up substruct on Debian 12 and runs it.
#
#   framework/tools/setup.sh run    install what is missing, build the command and the plugins
#                                   the default scene needs (substruct_first_run), simulate it,
#                                   then build the rest of what running needs (every plugin, the
#                                   viewer: substruct_runtime)
#   framework/tools/setup.sh test   install what is missing, build everything (the tests, the
#                                   benchmarks and the Python package too), run every test (CTest)
#
# Idempotent: packages already installed are not reinstalled, the build is incremental. Both end
# by printing how long each phase took (packages, configure, build, run or test), also when a
# phase fails.
# Environment: BUILD_DIR (default: build), JOBS (default: all cores), SCENE (for run),
# CCACHE_BASEDIR (default: the clone).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD_DIR:-$root/build}"
jobs="${JOBS:-$(nproc)}"
mode="${1:-}"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# Phase timing: `phase NAME` ends the phase before (if any) and starts NAME; the summary is
# printed on exit, whatever the exit status.
now_us() { local t="${EPOCHREALTIME/[.,]/}"; echo "$((10#$t))"; }
seconds() { local d=$((($2 - $1 + 50000) / 100000)); echo "$((d / 10)).$((d % 10)) s"; }
phases=()
phase_name=""
phase_start=""
script_start="$(now_us)"
phase() {
  local now
  now="$(now_us)"
  [[ -z "$phase_name" ]] || phases+=("$phase_name $(seconds "$phase_start" "$now")")
  phase_name="${1:-}"
  phase_start="$now"
}
report_phases() {
  local status=$?
  phase
  local summary total
  summary="$(printf '%s, ' "${phases[@]}")"
  total="$(seconds "$script_start" "$(now_us)")"
  if ((status)); then
    say "phases: ${summary%, } (total $total; stopped with status $status)"
  else
    say "phases: ${summary%, } (total $total)"
  fi
}

case "$mode" in
  run | test) ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac

# Everything comes from Debian's packages: what running needs (the command, the plugins, the
# viewer, the bench's plots), and for `test` what only the tests, the benchmarks, the Python
# package, the viewer's video recording and the SDK reference need.
packages=(
  cmake ninja-build g++ ccache pkg-config python3
  libeigen3-dev libboost-dev libboost-program-options-dev libboost-graph-dev libfmt-dev
  libsuitesparse-dev libmetis-dev libopenblas0-serial libslepc-real-dev libpetsc-real-dev
  libspectra-dev libtbb-dev zlib1g-dev libassimp-dev libgmsh-dev libopenvdb-dev
  libopenscenegraph-dev libgl1-mesa-dri fonts-dejavu-core libfreetype-dev
  python3-matplotlib python3-numpy
)
if [[ "$mode" == test ]]; then
  packages+=(
    libgtest-dev libgmock-dev libbenchmark-dev xvfb xauth ffmpeg
    python3-dev pybind11-dev python3-pytest doxygen
  )
fi
trap report_phases EXIT
phase packages
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  say "installing missing Debian packages: ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    sudo=()
  elif command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "error: these packages are missing and I am not root (no sudo): ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  say "all required Debian packages are installed"
fi

# The compiler cache keys on paths relative to the clone, so another clone reuses it.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
phase configure
say "configuring ($build, Release)"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
if [[ "$mode" == run ]]; then
  scene="${SCENE:-$root/share/scenes/beam.ini}"
  # The command and the plugins the beam loads first, the beam, then the rest of what running
  # needs (the other methods and solvers, the viewer). Another scene (SCENE=...) may load any
  # plugin: then everything running needs comes first.
  first_target=substruct_first_run
  [[ -z "${SCENE:-}" ]] || first_target=substruct_runtime
  phase build
  say "building the command and the plugins the first run needs ($first_target) with $jobs jobs"
  cmake --build "$build" -j "$jobs" --target "$first_target"
  phase run
  say "running $scene"
  "$build/bin/substruct" run "$scene"
  say "open the .pvd above in ParaView; other scenes: ls $root/share/scenes"
  say "the first simulation's output came $(seconds "$script_start" "$(now_us)") after the start"
  phase "build of the rest"
  say "building the rest of what running needs (substruct_runtime: every method, the viewer)"
  cmake --build "$build" -j "$jobs" --target substruct_runtime
  say "done: build/bin/substruct plugins lists the methods; build/bin/substruct view $scene"
else
  phase build
  say "building everything with $jobs jobs"
  cmake --build "$build" -j "$jobs"
  phase test
  say "running the tests"
  ctest --test-dir "$build" --output-on-failure -j "$jobs"
fi
