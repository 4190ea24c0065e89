#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `mpirun -n 2 substruct precompute` on the flower: the ranks share the models out and each
# stores its own; the cache files are byte for byte those of a serial precompute, and a serial
# run then loads every one. A large domain is solved by both ranks together. A domain that fails stops the job with the domain named and no model
# file for it; a rerun loads what was stored and computes the rest.
# Exits 77 (skipped), saying why, where mpirun or the mpi plugin cannot run.
set -euo pipefail
cli="$1" source="$2" mpirun="${3:-mpirun}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
scene="$source/share/scenes/flower.ini"
settings=(--reduction.instancing=false --reduction.modes=12 --reduction.linear_modes=6)

if ! command -v "$mpirun" >/dev/null; then
  echo "SKIPPED: no '$mpirun' here (Debian: openmpi-bin)"
  exit 77
fi
if ! "$mpirun" --oversubscribe -n 2 true >"$out/probe" 2>&1; then
  echo "SKIPPED: '$mpirun --oversubscribe -n 2 true' fails here:"
  cat "$out/probe"
  exit 77
fi
if ! "$cli" plugins | grep -q "^ *mpi "; then
  echo "SKIPPED: the mpi plugin is not built (it comes with the slepc plugin: SLEPc, PETSc, MPI)"
  exit 77
fi

serial() {  # serial NAME CACHE [settings…]
  local name="$1" cache="$2"
  shift 2
  "$cli" precompute "$scene" --run.cache_dir="$cache" "${settings[@]}" "$@" \
    >"$out/$name.out" 2>"$out/$name.err"
}
ranks2() {  # ranks2 NAME CACHE [settings…]: its exit status in $out/NAME.status
  local name="$1" cache="$2"
  shift 2
  set +e
  "$mpirun" --oversubscribe -n 2 "$cli" precompute "$scene" --run.cache_dir="$cache" \
    "${settings[@]}" "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo $? >"$out/$name.status"
  set -e
  cat "$out/$name.out" "$out/$name.err"
}

# One process: 12 models.
serial serial "$out/serial"
test "$(ls "$out/serial" | grep -c '^model-[0-9a-f]\{16\}\.ssrm$')" -eq 12

# Two ranks: both compute, every model once, the same bytes.
ranks2 shared "$out/shared"
test "$(cat "$out/shared.status")" -eq 0
grep -q "^ranks      2 (mpirun; MPI and PETSc started in [0-9.]* s)" "$out/shared.out"
grep -q "^precompute .* on 2 ranks .*: 12 computed" "$out/shared.out"
for rank in 0 1; do  # the per-rank table: each rank computed some of them
  computed=$(awk -v r="$rank" '$1 == "rank" {t = 1; next} t && $1 == r {print $2; exit}' \
    "$out/shared.out")
  test "$computed" -gt 0
done
test "$(grep -c '^ *[0-9]* .* computed  *[01] ' "$out/shared.out")" -eq 12
diff <(ls "$out/serial") <(ls "$out/shared")
for f in "$out/serial"/model-*.ssrm; do
  cmp "$f" "$out/shared/$(basename "$f")"
done
! ls "$out/shared" | grep -q tmp  # no temporary file left
# A single process loads them all.
serial reload "$out/shared"
grep -q "^ total .* 12 hit, 0 miss" "$out/reload.out"

# A large domain (more than 400 free DOFs: domain 0, 441) is solved by both ranks together: one
# SLEPc solve over the two (MUMPS), and its modal derivatives by one MUMPS factorization over the
# two. Its model is keyed with slepc and mumps in one process too, so a serial run finds all 12;
# the other 11 are byte for byte the serial ones (the shared one agrees to the solvers'
# tolerance, not bit for bit: other factorizations).
large=(--reduction.shared_solve_dofs=400)
ranks2 large "$out/large" "${large[@]}" --verbose
test "$(cat "$out/large.status")" -eq 0
grep -q "^modal derivatives: K of 414 free DOFs factored by MUMPS LDLᵀ over 2 ranks" \
  "$out/large.err"
grep -q "^ *0 .* computed  *all " "$out/large.out"
test "$(grep -c ' computed  *all ' "$out/large.out")" -eq 1
grep -q "^precompute .* on 2 ranks .*: 12 computed" "$out/large.out"
serial large_reload "$out/large" "${large[@]}"
grep -q "^ total .* 12 hit, 0 miss" "$out/large_reload.out"
serial large_serial "$out/large_serial" "${large[@]}"
same=0
for f in "$out/large_serial"/model-*.ssrm; do
  cmp -s "$f" "$out/large/$(basename "$f")" && same=$((same + 1))
done
test "$same" -ge 11
# The shared model is the same model to the solvers' tolerance (its modal derivatives were
# solved by the ranks together): 20 steps of inertia from either end alike.
kinetic() {  # kinetic CACHE: the final kinetic energy of 20 steps of inertia from that cache
  "$cli" run "$scene" --coupling.plugin=inertia --run.cache_dir="$1" --run.exporters= \
    --run.steps=20 "${settings[@]}" "${large[@]}" 2>/dev/null |
    sed -n 's/^energy     kinetic \([0-9.e+-]*\) J.*/\1/p'
}
close() {  # close A B: |A − B| ≤ 1 % of A > 0
  awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 1e-2 * a) }'
}
close "$(kinetic "$out/large")" "$(kinetic "$out/large_serial")"
# [solvers] shared_linear = none: each rank factors K itself (CHOLMOD) and solves its share of the
# derivatives; again the same model as one process's to the solvers' tolerance.
ranks2 large_rhs "$out/large_rhs" "${large[@]}" --solvers.shared_linear=none --verbose
test "$(cat "$out/large_rhs.status")" -eq 0
grep -q "^modal derivatives: K of 414 free DOFs factored by CHOLMOD" "$out/large_rhs.err"
close "$(kinetic "$out/large_rhs")" "$(kinetic "$out/large_serial")"

# A domain that fails: domain 6's model file cannot be written (a folder stands in its way).
serial again "$out/serial"
victim=$(sed -n 's/^domain 6: loaded from cache (\(.*\))$/\1/p' "$out/again.err")
test -n "$victim"
mkdir -p "$out/failing/$(basename "$victim")"
ranks2 failing "$out/failing"
test "$(cat "$out/failing.status")" -ne 0
grep -q "substruct: error: domain 6: .* (on rank [01]); the job stopped" "$out/failing.err"
test "$(grep -c 'substruct: error:' "$out/failing.err")" -eq 1  # said once, by rank 0
stored=$(find "$out/failing" -maxdepth 1 -type f -name 'model-*.ssrm' | wc -l)
test "$stored" -lt 12  # domain 6's is missing
! ls "$out/failing" | grep -q tmp
# Rerun: what was stored is loaded, the rest computed.
rmdir "$out/failing/$(basename "$victim")"
ranks2 resumed "$out/failing"
test "$(cat "$out/resumed.status")" -eq 0
grep -q "^precompute .* on 2 ranks .*: $((12 - stored)) computed .*, $stored loaded from cache" \
  "$out/resumed.out"
for f in "$out/serial"/model-*.ssrm; do
  cmp "$f" "$out/failing/$(basename "$f")"
done
echo "passed: 12 models on 2 ranks, identical to one process's; a large domain solved by both; a failure named domain 6 and the rerun resumed"
