#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading modes: the lowest natural frequencies of the beam held at one end, against
Euler–Bernoulli beam theory, and where its first mode moves most.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/read_modes.py [COUNT]
"""

import sys
from pathlib import Path

import numpy as np

import substruct

MESHES = Path(__file__).resolve().parents[2] / "share" / "meshes"
COUNT = int(sys.argv[1]) if len(sys.argv) > 1 else 6


def main():
    result = substruct.modes(MESHES / "beam3_tet.veg", fixed=MESHES / "beam3.bou", count=COUNT)
    shapes = result["shapes"]  # COUNT × N × 3, M-orthonormal, zero at the fixed vertices
    print(" mode   f [Hz]   largest motion (vertex, direction)")
    for k, f in enumerate(result["frequencies"]):
        amplitude = np.linalg.norm(shapes[k], axis=1)
        v = int(np.argmax(amplitude))
        direction = shapes[k, v] / amplitude[v]
        print(f" {k:4d} {f:8.3f}   vertex {v:3d}, ({direction[0]:+.2f} {direction[1]:+.2f} "
              f"{direction[2]:+.2f})")
    # A cantilever's bending frequencies stand in the ratios (β_n L)², β_n L = 1.875, 4.694, …:
    # the second bending mode in each plane at 6.27× the first.
    f = result["frequencies"]
    print(f"f2 / f0 = {f[2] / f[0]:.2f} (Euler–Bernoulli: 6.27 for the same bending plane)")


if __name__ == "__main__":
    main()
