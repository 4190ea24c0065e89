#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Compares two runs' CSV outputs (`substruct run … --run.exporters=csv`): the same steps, and the
# tracked vertices' positions (columns v<i>_x/y/z) within TOLERANCE metres at every step.
#   compare_run_csv.py A.csv B.csv TOLERANCE      prints the largest difference; exit 1 beyond it
import csv
import sys


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    a, b, tolerance = read(sys.argv[1]), read(sys.argv[2]), float(sys.argv[3])
    if len(a) != len(b) or not a:
        sys.exit(f"{sys.argv[1]} has {len(a)} rows, {sys.argv[2]} {len(b)}")
    columns = [c for c in a[0] if c.startswith("v") and c[-2:] in ("_x", "_y", "_z")]
    if not columns or columns != [c for c in b[0] if c in columns]:
        sys.exit(f"no common position columns in {sys.argv[1]} and {sys.argv[2]}")
    largest = max(abs(float(ra[c]) - float(rb[c])) for ra, rb in zip(a, b) for c in columns)
    print(f"{len(a)} steps, {len(columns) // 3} tracked vertices: positions differ by at most "
          f"{largest:.3g} m")
    if not largest <= tolerance:
        sys.exit(f"more than {tolerance:g} m apart")


main()
