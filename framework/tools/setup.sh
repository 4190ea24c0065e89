#!/usr/bin/env bash
# Sets up substruct on Debian 12 and runs it.
#
#   framework/tools/setup.sh run    install what is missing, build, simulate the default scene
#   framework/tools/setup.sh test   install what is missing, build, run every test (CTest)
#
# Idempotent: packages already installed are not reinstalled, the build is incremental.
# Environment: BUILD_DIR (default: build), JOBS (default: all cores), SCENE (for run),
# CCACHE_BASEDIR (default: the clone).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD_DIR:-$root/build}"
jobs="${JOBS:-$(nproc)}"
mode="${1:-}"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

case "$mode" in
  run | test) ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac

# Everything comes from Debian's packages.
packages=(
  cmake ninja-build g++ ccache pkg-config python3
  libeigen3-dev libboost-dev libboost-program-options-dev libboost-graph-dev libfmt-dev
  libsuitesparse-dev libmetis-dev libopenblas0-serial libslepc-real-dev libpetsc-real-dev
  libspectra-dev libtbb-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenscenegraph-dev libgl1-mesa-dri xvfb xauth fonts-dejavu-core libfreetype-dev ffmpeg
  python3-matplotlib python3-numpy python3-dev pybind11-dev python3-pytest
)
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
say "configuring ($build, Release)"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
say "building with $jobs jobs"
cmake --build "$build" -j "$jobs"

if [[ "$mode" == run ]]; then
  scene="${SCENE:-$root/share/scenes/beam.ini}"
  say "running $scene"
  "$build/bin/substruct" run "$scene"
  say "open the .pvd above in ParaView; other scenes: ls $root/share/scenes"
else
  say "running the tests"
  ctest --test-dir "$build" --output-on-failure -j "$jobs"
fi
