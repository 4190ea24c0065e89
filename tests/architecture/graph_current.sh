#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# framework/docs/architecture.md must be what framework/tools/architecture_graph.py makes of the
# layers CMake declares.   graph_current.sh PYTHON BUILD_DIR SOURCE_DIR
set -euo pipefail
python="$1" build="$2" source="$3"
page="$source/framework/docs/architecture.md"
fresh="$(mktemp)"
trap 'rm -f "$fresh"' EXIT
"$python" "$source/framework/tools/architecture_graph.py" "$build" >"$fresh"
if ! diff -u "$page" "$fresh"; then
  echo "framework/docs/architecture.md is out of date; regenerate it with:"
  echo "  framework/tools/architecture_graph.py $build > framework/docs/architecture.md"
  exit 1
fi
echo "framework/docs/architecture.md is current"
