#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Ctrl-C (SIGINT) and kill (SIGTERM) stop a run at its next step: exit 130 / 143, one message,
# and none of the run's outputs published, not even partly.
set -uo pipefail
cli="$1" source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

for signal in INT TERM; do
  "$cli" run "$source/share/scenes/beam.ini" --run.steps=1000000 \
    --run.output="$out/long.pvd" --run.exporters="vtk csv" >"$out/stdout" 2>"$out/stderr" &
  pid=$!
  # wait until it steps (the progress line or a second), then signal it
  for _ in $(seq 50); do
    [[ -n "$(find "$out" -name '*.vtu' -o -name '*.tmp' 2>/dev/null | head -1)" ]] && break
    sleep 0.1
  done
  kill -"$signal" "$pid"
  wait "$pid"
  rc=$?
  expected=$([[ $signal == INT ]] && echo 130 || echo 143)
  [[ $rc -eq $expected ]] || fail "SIG$signal: exit $rc (expected $expected): $(cat "$out/stderr")"
  grep -q "interrupted by SIG$signal" "$out/stderr" || fail "no message: $(cat "$out/stderr")"
  [[ ! -e "$out/long.pvd" && ! -e "$out/long.csv" ]] || fail "SIG$signal: outputs published"
  [[ -z "$(find "$out" -name '*.vtu' -o -name '*.tmp' -o -name 'long*')" ]] ||
    fail "SIG$signal: files left: $(find "$out" -mindepth 1 | tr '\n' ' ')"
  echo "ok: SIG$signal → exit $rc: $(tail -1 "$out/stderr")"
done
echo "interrupt: ok"
