#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A feedback controller written in Python: a PD force on the top of the flower's bloom that
holds it near a point 5 cm to the side of where gravity leaves it, then lets go at t = 1 s.

The controller is a load: accumulate(t, positions, forces) sees the world positions before
every step and adds forces [N]; its cost per call is reported by Simulation.load_seconds.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/scripted_controller.py [STEPS]
"""

import sys
from pathlib import Path

import numpy as np

import substruct

ROOT = Path(__file__).resolve().parents[2]
BLOOM = 982
STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 200


class HoldAside:
    def __init__(self, target, gain=400.0, damping=10.0, release=1.0):
        self.target, self.gain, self.damping, self.release = target, gain, damping, release
        self.previous = None

    def accumulate(self, t, positions, forces):
        x = positions[BLOOM]
        velocity = np.zeros(3) if self.previous is None else (x - self.previous) / 0.01
        self.previous = x.copy()
        if t < self.release:
            forces[BLOOM] += self.gain * (self.target - x) - self.damping * velocity


def main():
    scene = substruct.Scene(ROOT / "share" / "scenes" / "flower.ini",
                            overrides={"coupling.plugin": "inertia", "run.exporters": ""})
    sim = substruct.Simulation(scene)
    sim.precompute()
    sim.reset()
    target = sim.positions[BLOOM] + np.array([0.05, 0.0, 0.0])
    controller = HoldAside(target)
    sim.add_load(controller, "hold aside")
    for k in range(STEPS):
        sim.step()
        if k % 20 == 19:
            error = np.linalg.norm(sim.positions[BLOOM] - target)
            print(f"t = {sim.time:5.2f} s   distance to the target {100 * error:6.2f} cm")
    cost = sim.load_seconds["hold aside"]
    print(f"controller: {cost['calls']} calls, {1e6 * cost['per_call']:.1f} µs per call "
          f"(the step: {1e6 * sum(sim.stage_seconds.values()):.0f} µs)")


if __name__ == "__main__":
    main()
