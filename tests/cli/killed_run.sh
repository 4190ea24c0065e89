#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A run killed with SIGKILL at random moments (during the precompute, the steps, the writing and
# the publishing of its files) leaves nothing that looks complete: either no manifest, or one whose
# files are all there with their sizes; and the next run with the same cache and output succeeds
# with the numbers of an uninterrupted run, byte for byte.
set -euo pipefail
cli="$1" source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
scene="$source/share/scenes/flower.ini"
args=(--coupling.plugin=inertia --run.steps=60 --run.exporters="vtk csv")

# The set a manifest lists is whole: every file there, of the listed size.
check_manifest() {
  local manifest="$1" folder
  folder="$(dirname "$manifest")"
  head -1 "$manifest" | grep -qx "# substruct run manifest 1"
  grep -v '^#' "$manifest" | while read -r size path; do
    [[ -f "$folder/$path" ]] || { echo "FAILED: $path listed in $manifest is missing"; exit 1; }
    [[ "$(stat -c %s "$folder/$path")" == "$size" ]] ||
      { echo "FAILED: $path is not of the size $manifest lists"; exit 1; }
  done
}

"$cli" run "$scene" "${args[@]}" --run.cache_dir="$out/ref-cache" --run.output="$out/ref/flower.pvd" \
  >"$out/ref.log" 2>&1
check_manifest "$out/ref/flower.manifest"

for seed in 1 2 3 4 5 6 7 8; do
  RANDOM=$seed
  delay="$(printf '0.%03d' $((RANDOM % 1000)))"
  dir="$out/kill-$seed"
  mkdir -p "$dir"
  # An earlier complete run in the same output, so that the killed one may mix with it.
  [[ $((seed % 2)) -eq 0 ]] && cp -r "$out/ref/." "$dir/out/"
  "$cli" run "$scene" "${args[@]}" --run.cache_dir="$dir/cache" --run.output="$dir/out/flower.pvd" \
    >"$dir/killed.log" 2>&1 &
  pid=$!
  sleep "$delay"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [[ -e "$dir/out/flower.manifest" ]]; then
    check_manifest "$dir/out/flower.manifest"
    state="a complete set"
  else
    state="no manifest"
  fi
  # The next run: same cache (possibly half written), same output.
  "$cli" run "$scene" "${args[@]}" --run.cache_dir="$dir/cache" --run.output="$dir/out/flower.pvd" \
    >"$dir/rerun.log" 2>&1 || { cat "$dir/rerun.log"; echo "FAILED: the run after the kill"; exit 1; }
  check_manifest "$dir/out/flower.manifest"
  cmp -s "$out/ref/flower.csv" "$dir/out/flower.csv" ||
    { echo "FAILED: seed $seed: the rerun's CSV differs from the uninterrupted run's"; exit 1; }
  for f in "$out"/ref/flower/*.vtu; do
    cmp -s "$f" "$dir/out/flower/$(basename "$f")" ||
      { echo "FAILED: seed $seed: $(basename "$f") differs"; exit 1; }
  done
  [[ -z "$(find "$dir/out" -name '*.tmp')" ]] || { echo "FAILED: seed $seed: .tmp left"; exit 1; }
  echo "ok: seed $seed, killed after ${delay} s ($state), rerun identical"
done
echo "killed_run: ok"
