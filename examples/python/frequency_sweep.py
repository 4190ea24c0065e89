#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parameter sweep: inertia's [inertia] frequency_scale against the ratio of its swing frequency
to the unreduced FEM's (`full`) on the flower.

Each run pulls the top of the bloom sideways for 0.1 s, lets it go, and records its x
displacement; the swing frequency is the peak of its spectrum (NumPy FFT, zero-padded). The plot goes to
frequency_sweep.png (matplotlib, Debian's python3-matplotlib).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/frequency_sweep.py [STEPS]
"""

import sys
from pathlib import Path

import numpy as np

import substruct

ROOT = Path(__file__).resolve().parents[2]
FLOWER = ROOT / "share" / "scenes" / "flower.ini"
BLOOM = 982  # the top of the bloom (the scene's first tracked vertex)
STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 400


class Flick:
    """2 N sideways on the bloom for the first 0.1 s."""

    def accumulate(self, t, positions, forces):
        if t < 0.1:
            forces[BLOOM, 0] += 2.0


def swing_frequency(method, **options):
    overrides = {"coupling.plugin": method, "run.loads": "", "run.exporters": ""}
    overrides.update({f"{method}.{k}": v for k, v in options.items()})
    sim = substruct.Simulation(substruct.Scene(FLOWER, overrides=overrides))
    sim.add_load(Flick())
    sim.reset()
    rest = sim.positions[BLOOM, 0]
    x = np.empty(STEPS)
    for k in range(STEPS):
        sim.step()
        x[k] = sim.positions[BLOOM, 0] - rest
    padded = 16 * STEPS  # zero padding: the peak located finer than 1 / (STEPS dt)
    spectrum = np.abs(np.fft.rfft(x - x.mean(), n=padded))
    frequencies = np.fft.rfftfreq(padded, sim.dt)
    return frequencies[1 + np.argmax(spectrum[1:])]


def main():
    reference = swing_frequency("full")
    scales = [0.5, 0.75, 1.0, 1.5, 2.0]
    ratios = [swing_frequency("inertia", frequency_scale=s) / reference for s in scales]
    print(f"full: {reference:.3f} Hz")
    for s, r in zip(scales, ratios):
        print(f"inertia, frequency_scale = {s:4}: {r:.3f} × full")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing (Debian: python3-matplotlib): no plot")
        return
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(scales, ratios, "o-", label="inertia")
    ax.axhline(1.0, color="grey", lw=0.8, label="full")
    ax.set_xlabel("[inertia] frequency_scale")
    ax.set_ylabel("swing frequency / full's")
    ax.set_title(f"flower, bloom flicked ({STEPS} steps of {0.01:g} s)")
    ax.legend()
    fig.tight_layout()
    fig.savefig("frequency_sweep.png", dpi=120)
    print("plot: frequency_sweep.png")


if __name__ == "__main__":
    main()
