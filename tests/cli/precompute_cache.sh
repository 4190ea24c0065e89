#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `substruct precompute` on the flower: the first run reduces every domain and caches the models,
# the second loads every one of them (and is much faster); a damaged or cut-off cache file is
# reported and that model recomputed.
set -euo pipefail
cli="$1" source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
scene="$source/share/scenes/flower.ini"
cache="$out/cache"

precompute() {  # precompute NAME [settings…]: stdout to $out/NAME.out, log to $out/NAME.err
  local name="$1"
  shift
  "$cli" precompute "$scene" --run.cache_dir="$cache" "$@" >"$out/$name.out" 2>"$out/$name.err"
  cat "$out/$name.out" "$out/$name.err"
}
models_seconds() {  # the "(models X s)" of a run's summary line
  sed -n 's/^precompute .* (models \([0-9.]*\) s).*/\1/p' "$out/$1.out"
}

"$cli" precompute --help >"$out/help"
grep -q "usage: substruct precompute SCENE.ini" "$out/help"
"$cli" >"$out/usage" 2>&1 || true  # the usage lists the command
grep -q "precompute SCENE.ini" "$out/usage"

# Cold: all 12 domains computed (instancing off, so that each domain has its own model file).
precompute cold --reduction.instancing=false
test "$(grep -c '^domain [0-9]*: computed in .*, cached$' "$out/cold.err")" -eq 12
test "$(ls "$cache" | grep -c '^model-[0-9a-f]\{16\}\.ssrm$')" -eq 12
grep -q "^ total .* 0 hit, 12 miss" "$out/cold.out"
grep -q "0 of 12 domains loaded from cache" "$out/cold.out"

# Warm: every domain loaded from its file, nothing computed, much faster.
precompute warm --reduction.instancing=false
for d in $(seq 0 11); do
  grep -q "^domain $d: loaded from cache ($cache/model-[0-9a-f]*\.ssrm)$" "$out/warm.err"
done
! grep -q "computed" "$out/warm.err"
grep -q "^ total .* 12 hit, 0 miss" "$out/warm.out"
grep -q "12 of 12 domains loaded from cache" "$out/warm.out"
cold_s="$(models_seconds cold)" warm_s="$(models_seconds warm)"
echo "models: cold $cold_s s, warm $warm_s s"
awk -v c="$cold_s" -v w="$warm_s" 'BEGIN { exit !(w * 5 < c) }'

# Instancing on (the default): the two stem segments are translated copies; the first is
# loaded, the second transforms its model.
precompute instanced
test "$(grep -c '^domain [0-9]*: loaded from cache' "$out/instanced.err")" -eq 11
grep -q "^domain 11: instance of domain 10 (loaded from cache; translation (0, 0.08, 0))" \
  "$out/instanced.err"
! grep -q "computed" "$out/instanced.err"

# A flipped byte in one file and another file cut short: both reported, both recomputed.
files=("$cache"/model-*.ssrm)
python3 - "${files[3]}" "${files[7]}" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[len(data) // 2] ^= 0x04
open(sys.argv[1], "wb").write(data)
data = open(sys.argv[2], "rb").read()
open(sys.argv[2], "wb").write(data[: len(data) - 100])
PY
precompute damaged --reduction.instancing=false
grep -q "^warning: cache: ignoring ${files[3]}: corrupt: the payload checksum does not match; recomputing" \
  "$out/damaged.err"
grep -q "^warning: cache: ignoring ${files[7]}: truncated: .* payload bytes; recomputing" \
  "$out/damaged.err"
test "$(grep -c '^domain [0-9]*: computed in .*, cached$' "$out/damaged.err")" -eq 2
test "$(grep -c '^domain [0-9]*: loaded from cache' "$out/damaged.err")" -eq 10
grep -q "^ total .* 10 hit, 2 miss" "$out/damaged.out"

# The recomputed files are whole again.
precompute repaired --reduction.instancing=false
test "$(grep -c '^domain [0-9]*: loaded from cache' "$out/repaired.err")" -eq 12
! grep -q "warning" "$out/repaired.err"

# Other inputs (here E) are other models: computed, not loaded.
precompute stiffer --reduction.instancing=false --material.youngs_modulus=2e7
test "$(grep -c '^domain [0-9]*: computed in' "$out/stiffer.err")" -eq 12

# The scene's method simulates domains 3 and 7 as rigid bodies ([inertia] rigid_domains): they
# get r = 0 models, as in its runs, and nothing is reduced or stored for them.
rm -rf "$cache"
precompute rigid --reduction.instancing=false --coupling.plugin=inertia \
  --inertia.rigid_domains="3 7"
grep -q "^domain 3: rigid (r = 0)$" "$out/rigid.err"
grep -q "^domain 7: rigid (r = 0)$" "$out/rigid.err"
test "$(grep -c '^domain [0-9]*: computed in .*, cached$' "$out/rigid.err")" -eq 10
test "$(ls "$cache" | grep -c '^model-[0-9a-f]\{16\}\.ssrm$')" -eq 10
grep -Eq "^ +3 +[0-9]+ +[0-9]+ +[0-9a-z]+ +0  rigid" "$out/rigid.out"
# A rigid domain the scene does not have: one error naming it, nothing computed.
if "$cli" precompute "$scene" --run.cache_dir="$out/none" --coupling.plugin=inertia \
  --inertia.rigid_domains=12 >"$out/bad.out" 2>"$out/bad.err"; then
  echo "precompute accepted a rigid domain the scene lacks" >&2
  exit 1
fi
grep -q "rigid domain 12 is not a domain of scene 'flower' (it has 12)" "$out/bad.err"
test ! -e "$out/none"
echo "precompute_cache: ok"
