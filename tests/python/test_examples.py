# SPDX-License-Identifier: GPL-3.0-or-later
"""examples/python run end to end with few steps (their output checked, not their physics)."""

import os
import subprocess
import sys
from pathlib import Path

import substruct

PACKAGE_DIR = str(Path(os.path.abspath(substruct.__file__)).parents[1])  # the folder holding substruct/
SOURCE = Path(os.environ["SUBSTRUCT_SOURCE_DIR"]).resolve()
EXAMPLES = SOURCE / "examples" / "python"


def run_example(name, steps, cwd):
    done = subprocess.run([sys.executable, str(EXAMPLES / name), str(steps)], cwd=cwd,
                          capture_output=True, text=True, env=dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=PACKAGE_DIR))
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_frequency_sweep_prints_a_ratio_per_scale_and_plots(tmp_path):
    out = run_example("frequency_sweep.py", 60, tmp_path)
    assert out.count("× full") == 5
    assert (tmp_path / "frequency_sweep.png").stat().st_size > 0


def test_scripted_controller_reports_its_cost(tmp_path):
    out = run_example("scripted_controller.py", 40, tmp_path)
    assert "distance to the target" in out
    assert "40 calls" in out


def test_read_modes_compares_with_beam_theory(tmp_path):
    out = run_example("read_modes.py", 4, tmp_path)
    ratio = float(out.split("f2 / f0 = ")[1].split()[0])
    assert 5.5 < ratio < 6.5  # Euler–Bernoulli: 6.27 (a coarse mesh, shear: a little less)
