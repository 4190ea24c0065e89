#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates the README's pictures from the build tree (headless, under Xvfb):
#   share/screenshots/flower.png            the flower with inertia coupling, pulled
#   share/screenshots/flower_compare.png    full, inertia and coupling-elements side by side,
#                                           pulled and let go, coloured by their error against full
#   share/screenshots/flower_compare.gif    the same comparison, animated (from a --record video,
#                                           which stays in a temporary folder)
#   share/screenshots/forest.png            the forest in the wind (inertia)
#   share/screenshots/frequency_sweep.png   examples/python/frequency_sweep.py
# Usage: framework/tools/make_screenshots.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
view=(xvfb-run -a -s "-screen 0 1600x1200x24" "$build/bin/substruct" view)
say() { printf '== %s\n' "$*"; }
cd "$root"
mkdir -p share/screenshots
video="$(mktemp -d)/flower_compare.mp4"
trap 'rm -rf "$(dirname "$video")"' EXIT

say "flower.png: inertia, the top of the bloom pulled by 3 N for 0.6 s"
"${view[@]}" share/scenes/flower.ini --coupling.plugin=inertia --run.exporters= \
  --frames 30 --pull 982 "3 0 1" --size 640x480 --screenshot share/screenshots/flower.png

# The comparison as `view --compare` shows it by default: the viewer's own excitation (the top of
# the bloom pulled by the mouse spring and let go at 0.5 s) alike in every viewport, the ghost of
# full over the reduced methods.
compare=(share/scenes/flower.ini --run.exporters= --compare full,inertia,coupling-elements
  --ghost full --colour error)
say "flower_compare.png: full, inertia, coupling-elements after 1 s"
"${view[@]}" "${compare[@]}" --frames 50 --size 1200x500 \
  --screenshot share/screenshots/flower_compare.png
say "flower_compare.mp4: 2.4 s of the comparison, then flower_compare.gif from it (10 frames/s)"
"${view[@]}" "${compare[@]}" --frames 120 --size 960x400 --record "$video"
ffmpeg -loglevel error -y -i "$video" \
  -vf "fps=10,scale=640:-1:flags=lanczos,split[a][b];[a]palettegen=max_colors=48[p];[b][p]paletteuse=dither=bayer:bayer_scale=3" \
  share/screenshots/flower_compare.gif

say "forest.png: six plants on their rigid ground, 1.2 s of wind"
"${view[@]}" share/scenes/forest.ini --run.exporters= --run.loads="gravity wind" --no-fixed \
  --frames 60 --size 800x500 --screenshot share/screenshots/forest.png

say "frequency_sweep.png (Python module from the build tree)"
(cd share/screenshots &&
  PYTHONPATH="$build/python" /usr/bin/python3 "$root/examples/python/frequency_sweep.py")
ls -l share/screenshots
