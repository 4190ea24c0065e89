#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `cmake --build BUILD --target docs` makes the HTML reference of the SDK headers with Doxygen,
# without a warning (a warning fails the target: framework/cmake/Doxyfile.in), with the pages of
# the contract's classes and no path of the trees it was made from. Skipped, saying why, where
# doxygen is not installed.
#   sdk_reference.sh BUILD DOXYGEN      (CMAKE: the cmake to use, default cmake)
set -euo pipefail
build="$1" doxygen="$2"
cmake="${CMAKE:-cmake}"
if [[ ! -x "$doxygen" ]]; then
  echo "skipped: doxygen is not installed (Debian: doxygen), so there is no SDK reference to check"
  exit 77
fi
html="$build/docs/sdk/html"
"$cmake" --build "$build" --target docs >"$build/docs/sdk/build.log" 2>&1 ||
  { cat "$build/docs/sdk/build.log" "$build/docs/sdk/warnings.log" 2>/dev/null; exit 1; }
[[ ! -s "$build/docs/sdk/warnings.log" ]] || { cat "$build/docs/sdk/warnings.log"; exit 1; }
for page in index.html classsubstruct_1_1CouplingMethod.html classsubstruct_1_1LinearSolver.html \
  structsubstruct_1_1PluginDescriptor.html classsubstruct_1_1OptionSet.html; do
  [[ -s "$html/$page" ]] || { echo "error: the reference has no $page"; exit 1; }
done
grep -q "precompute" "$html/classsubstruct_1_1CouplingMethod.html" ||
  { echo "error: CouplingMethod's page does not document precompute()"; exit 1; }
source="$(cd "$(dirname "$0")/../.." && pwd)"
if grep -rlF -e "$source" -e "$build" "$html" | head -3 | grep .; then
  echo "error: pages of the reference name the source or build tree"
  exit 1
fi
echo "sdk reference: $(find "$html" -name '*.html' | wc -l) pages in $html, no warnings"
