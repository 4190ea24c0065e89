#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# framework/docs/options.md is what `substruct help --markdown` prints now: every option of the
# framework's sections and of the plugins, from their declarations.
set -uo pipefail
cli="$1" source="$2"
page="$source/framework/docs/options.md"
fresh="$(mktemp)"
trap 'rm -f "$fresh"' EXIT
"$cli" help --markdown >"$fresh" || { echo "FAILED: substruct help --markdown"; exit 1; }
if ! diff -u "$page" "$fresh"; then
  echo "FAILED: framework/docs/options.md is out of date; regenerate it with"
  echo "  $cli help --markdown > framework/docs/options.md"
  exit 1
fi
echo "options_doc_current: ok"
