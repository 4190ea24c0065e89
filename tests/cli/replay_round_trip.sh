#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A run recorded (record exporter) and expanded again (substruct replay --to-vtk) gives the vtk
# exporter's files of the same run byte for byte: the flower under inertia (poses and q per
# frame) and the beam under full (positions per frame). A recording's frame is far smaller than
# a VTK frame; a part (domains, time window) expands to its own frames only; a truncated or
# corrupt recording is refused with the reason.
set -euo pipefail
cli="$1" source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

"$cli" run "$source/share/scenes/flower.ini" --coupling.plugin=inertia --run.steps=20 \
  --run.output="$out/run/flower.pvd" --run.exporters="vtk record" \
  --run.cache_dir="$out/cache" >"$out/log"
"$cli" replay "$out/run/flower.ssrec" --to-vtk "$out/replayed" >"$out/replay.log"
cat "$out/replay.log"
grep -q "^recording  .*flower.ssrec: scene flower, method inertia, 12 domains" "$out/replay.log"
grep -q "^frames     21, t = 0 … 0.2 s, poses and reduced coordinates" "$out/replay.log"
frames=0
for f in "$out"/run/flower/flower_*.vtu; do
  cmp "$f" "$out/replayed/flower/$(basename "$f")"
  frames=$((frames + 1))
done
test "$frames" -eq 21
test "$(ls "$out"/replayed/flower | wc -l)" -eq 21

# Bytes per frame: the recording's against one VTK frame.
per_frame="$(sed -n 's/^bytes .* of models, \([0-9]*\) per frame.*/\1/p' "$out/replay.log")"
vtk_frame="$(stat -c %s "$out/run/flower/flower_000010.vtu")"
echo "recording ${per_frame} B/frame, vtk ${vtk_frame} B/frame"
test $((vtk_frame / per_frame)) -ge 20

# A part: two domains over t in [0.045, 0.105] (steps 5 to 10).
"$cli" replay "$out/run/flower.ssrec" --to-vtk "$out/part" --domains 0-1 --from 0.045 \
  --to 0.105 >"$out/part.log"
grep -q "^vtk        .*: 6 frames of .* tets, .* vertices (2 domains)" "$out/part.log"
test "$(ls "$out"/part/flower | wc -l)" -eq 6
test -f "$out/part/flower/flower_000005.vtu"

# A method without a reduced layout: positions per frame, the same files too.
"$cli" run "$source/share/scenes/beam.ini" --run.steps=5 --run.output="$out/beam/beam.pvd" \
  --run.exporters="vtk record" >"$out/log"
"$cli" replay "$out/beam/beam.ssrec" --to-vtk "$out/beam-replayed" >"$out/replay.log"
for f in "$out"/beam/beam/beam_*.vtu; do cmp "$f" "$out/beam-replayed/beam/$(basename "$f")"; done

# Truncated, corrupt: refused, saying so.
size="$(stat -c %s "$out/run/flower.ssrec")"
head -c $((size - 100)) "$out/run/flower.ssrec" >"$out/cut.ssrec"
if "$cli" replay "$out/cut.ssrec" 2>"$out/err"; then exit 1; fi
grep -q "truncated" "$out/err"
cp "$out/run/flower.ssrec" "$out/bad.ssrec"
printf 'XXXX' | dd of="$out/bad.ssrec" bs=1 seek=$((size / 2)) conv=notrunc status=none
if "$cli" replay "$out/bad.ssrec" --to-vtk "$out/bad" 2>"$out/err"; then exit 1; fi
grep -q "corrupt" "$out/err"
cat "$out/err"
test ! -e "$out/bad/flower.pvd"
echo "replay_round_trip: ok"
