#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: every suite of share/benchmarks in its short form (`substruct bench --suite all
# --quick`: at most 10 steps, one run per row): each experiment writes its report with a row per
# named row and per other coupling plugin, every row ran or says why not, the numbers that are
# there are finite, the paper's figures stand beside ours in the table's milliseconds, a verdict
# follows each table and says the run is quick, and --results fills each suite's section of a
# results page (and only that).
set -euo pipefail
cli="$1" source="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
suites=()
for f in "$source"/share/benchmarks/*.suite; do suites+=("$(basename "$f" .suite)"); done
{
  echo "# Results"
  echo "kept above"
  for s in "${suites[@]}"; do
    printf '<!-- bench-suite:%s:begin -->\nold %s\n<!-- bench-suite:%s:end -->\n' "$s" "$s" "$s"
  done
  echo "kept below"
} >"$out/RESULTS.md"
"$cli" bench --suite all --quick --no-plots --out "$out/suites" --results "$out/RESULTS.md" \
  --run.cache_dir="$out/cache" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
tail -n 40 "$out/log"
[[ -z "$(find "$out/suites" -name '*.partial')" ]]
grep -q "^kept above$" "$out/RESULTS.md" && grep -q "^kept below$" "$out/RESULTS.md"
! grep -q "^old " "$out/RESULTS.md"
plugins="$("$cli" plugins 2>/dev/null |
  awk '/^coupling plugins:/ {on = 1; next} /^$/ {on = 0} on {print $1}' | tr '\n' ' ')"
python3 - "$out/suites" "$source/share/benchmarks" "$plugins" <<'PY'
import csv, math, os, re, sys
out, suites_dir, plugins = sys.argv[1], sys.argv[2], set(sys.argv[3].split())
assert plugins, "no coupling plugin listed"
for name in sorted(os.listdir(suites_dir)):
    if not name.endswith(".suite"):
        continue
    suite = name[:-6]
    summary = open(os.path.join(out, suite, "summary.md")).read()
    assert summary.startswith("#### "), summary[:80]
    experiments, rows, other = [], {}, {}
    for line in open(os.path.join(suites_dir, name)):
        line = line.strip()
        if line.startswith("[experiment "):
            experiments.append(line[12:-1].strip())
            rows[experiments[-1]], other[experiments[-1]] = [], True
        elif line.startswith("row ="):
            fields = [f.strip() for f in line[5:].split("|")]
            rows[experiments[-1]].append((fields[0], fields[1], fields[3] if len(fields) > 3 else ""))
        elif line.replace(" ", "") == "other_methods=no":
            other[experiments[-1]] = False
    # A verdict under each experiment's table, saying the run is quick.
    verdicts = [l for l in summary.splitlines() if l.startswith("Verdict on **")]
    assert len(verdicts) == len(experiments), (suite, verdicts)
    for v in verdicts:
        assert "Quick run: a check that every row runs, not a measurement" in v, v
        assert "Fastest: " in v or "could not run" in v or "stopped before the end" in v, v
    # The paper's times in the table's unit: ms per step (frames per second only beside it).
    for e in experiments:
        for label, plugin, paper in rows[e]:
            assert not re.search(r"[0-9] s/step", paper), (suite, e, label, paper)
            assert "fps" not in paper or "ms" in paper, (suite, e, label, paper)
    seen_plugins = set()
    for e in experiments:
        table = list(csv.DictReader(open(os.path.join(out, suite, e, "results.csv"))))
        labels = [r["method"] for r in table]
        for label, plugin, paper in rows[e]:
            assert label in labels, (suite, e, label, labels)
            row = table[labels.index(label)]
            assert row["plugin"] == plugin and row["paper"] == paper, (suite, e, row)
        if other[e]:
            assert plugins <= {r["plugin"] for r in table}, (suite, e, plugins)
        for r in table:
            seen_plugins.add(r["plugin"])
            if r["status"] != "ok":
                assert r["status"].strip(), (suite, e, r)  # the reason
                continue
            for key in ("step_ms_median", "precompute_s", "dofs"):
                v = float(r[key])
                assert math.isfinite(v) and v > 0, (suite, e, r["method"], key, v)
            for key in ("relative_rms_error", "energy_drift", "offset_ratio"):
                if r[key]:
                    assert math.isfinite(float(r[key])), (suite, e, r["method"], key)
            if r["relative_rms_error"]:
                assert 0 <= float(r["relative_rms_error"]) < 100, (suite, e, r)
    print(f"{suite}: {len(experiments)} experiments, plugins {sorted(seen_plugins)}")
PY
