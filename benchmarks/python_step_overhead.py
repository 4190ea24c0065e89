#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What calling Simulation.step() from Python costs beyond the C++ step: the flower with
inertia, N steps (default 10⁴) timed as one call sim.step(N) (the loop in C++) and as N calls
sim.step() (the loop in Python), alternated R times (default 7); medians and their difference
per step. Also the cost of reading sim.positions (a view, no copy) against copying it.

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/python_step_overhead.py [N] [R]
"""

import statistics
import sys
import time
from pathlib import Path

import numpy as np

import substruct

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
R = int(sys.argv[2]) if len(sys.argv) > 2 else 7
FLOWER = Path(__file__).resolve().parents[1] / "share" / "scenes" / "flower.ini"

sim = substruct.Simulation(substruct.Scene(FLOWER, overrides={"coupling.plugin": "inertia",
                                                              "run.exporters": ""}))
sim.precompute()
one_call, many_calls = [], []
for _ in range(R):
    sim.reset()
    start = time.perf_counter()
    sim.step(N)
    one_call.append((time.perf_counter() - start) / N)
    sim.reset()
    start = time.perf_counter()
    for _ in range(N):
        sim.step()
    many_calls.append((time.perf_counter() - start) / N)
differences = [b - a for a, b in zip(one_call, many_calls)]
us = 1e6
print(f"flower, inertia, {N} steps × {R} alternated runs (medians):")
print(f"  loop in C++ (sim.step({N})):   {us * statistics.median(one_call):8.2f} µs per step")
print(f"  loop in Python (sim.step()):  {us * statistics.median(many_calls):8.2f} µs per step")
print(f"  difference per call:          {us * statistics.median(differences):8.2f} µs "
      f"(runs: {', '.join(f'{us * d:.1f}' for d in differences)})")

reads = 100_000
start = time.perf_counter()
for _ in range(reads):
    view = sim.positions
view_us = us * (time.perf_counter() - start) / reads
start = time.perf_counter()
for _ in range(reads // 10):
    copy = np.array(sim.positions)
copy_us = us * (time.perf_counter() - start) / (reads // 10)
print(f"  reading positions ({sim.positions.shape[0]}×3): {view_us:.2f} µs as a view "
      f"(no copy), {copy_us:.2f} µs copied")
