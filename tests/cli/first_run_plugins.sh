#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `setup.sh run` builds only substruct_first_run (the command and the plugins listed in
# <build>/architecture/first_run_plugins.txt) before it runs the default scene. This copies the
# command, the libraries and only those plugins into a scratch prefix and runs the beam there with
# its defaults: if the beam or the [solvers] defaults load a plugin missing from the list, it fails.
set -euo pipefail
cli="$1" source="$2"
build="$(cd "$(dirname "$cli")/.." && pwd)"
list="$build/architecture/first_run_plugins.txt"
[[ -s "$list" ]] || { echo "no $list: configure the build first"; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/bin" "$out/lib" "$out/plugins"
cp "$cli" "$out/bin/"
cp -P "$build"/lib/*.so* "$out/lib/"
count=0
while read -r plugin; do
  [[ -n "$plugin" ]] || continue
  cp "$plugin" "$out/plugins/"
  count=$((count + 1))
done <"$list"
# LD_LIBRARY_PATH comes before the build tree's RUNPATH, so the host library found is the scratch
# copy and its plugin folder (lib/../plugins) the scratch one.
export LD_LIBRARY_PATH="$out/lib"
unset SUBSTRUCT_PLUGIN_PATH
"$out/bin/substruct" plugins >"$out/plugins.log"
cat "$out/plugins.log"
# The scratch folder is the only one searched: the build tree's plugins are not loaded.
[[ "$(sed -n '2p' "$out/plugins.log")" == "  $out/plugins" ]]
[[ -z "$(sed -n '3p' "$out/plugins.log")" ]]
"$out/bin/substruct" run "$source/share/scenes/beam.ini" --run.steps=3 \
  --run.output="$out/beam.pvd" >"$out/run.log"
cat "$out/run.log"
grep -q "^method     full" "$out/run.log"
[[ -s "$out/beam.pvd" ]]
echo "first_run_plugins: ok ($count plugins)"
