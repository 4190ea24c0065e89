#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `substruct plugins` lists the built-in plugins; `substruct help NAME` prints their options.
set -euo pipefail
cli="$1"
"$cli" plugins | tee /tmp/substruct-plugins.$$
for name in full cholmod gravity pull vtk csv; do
  grep -q "^  $name " /tmp/substruct-plugins.$$ || { echo "plugin $name not listed"; exit 1; }
done
rm -f /tmp/substruct-plugins.$$
# (Output is captured first: `grep -q` in a pipeline would close it early, and pipefail would
# then report the writer's SIGPIPE.)
help_full="$("$cli" help full)"
grep -q "full.integrator" <<<"$help_full"
help_gravity="$("$cli" help gravity)"
grep -q "gravity.acceleration" <<<"$help_gravity"
help_scene="$("$cli" help scene)"
grep -q "scene.domains" <<<"$help_scene"
if "$cli" help nosuchplugin 2>/tmp/substruct-help.$$; then exit 1; fi
grep -q "unknown plugin 'nosuchplugin'" /tmp/substruct-help.$$
rm -f /tmp/substruct-help.$$
# Without an argument, help says where the documentation is: from a build tree, its source tree.
source_real="$(cd "$2" && pwd -P)"
help_docs="$("$cli" help)"
grep -qF "Documentation in $source_real:" <<<"$help_docs"
help_ddm="$("$cli" help ddm)"
grep -qxF "Its page: $source_real/coupling/ddm/README.md" <<<"$help_ddm"
echo "plugins_and_help: ok"
