#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds an example plugin of examples/ outside the tree, with find_package(substruct) against a
# substruct build tree, as its README says; its logs are shown when a step fails.
#   build_example.sh EXAMPLE_DIR OUT_DIR SUBSTRUCT_BUILD PLUGIN_NAME
set -euo pipefail
example="$1" out="$2" substruct_build="$3" name="$4"
cmake -S "$example" -B "$out" -G Ninja -Dsubstruct_DIR="$substruct_build" \
  >"$out.configure.log" 2>&1 || { cat "$out.configure.log"; exit 1; }
cmake --build "$out" >"$out.build.log" 2>&1 || { cat "$out.build.log"; exit 1; }
[[ -f "$out/libsubstruct-$name.so" ]] || { echo "error: $out/libsubstruct-$name.so not built"; exit 1; }
