# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python API against the command line: the same numbers bit for bit, the same messages,
zero-copy views, and a load written in Python in place of the pull plugin.

Run by CTest (python.api) with PYTHONPATH=<build>/python and SUBSTRUCT_CLI, SUBSTRUCT_SOURCE_DIR
set; or by hand: PYTHONPATH=build/python SUBSTRUCT_CLI=build/bin/substruct
SUBSTRUCT_SOURCE_DIR=. python3 -m pytest tests/python
"""

import csv
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

import substruct

CLI = os.environ["SUBSTRUCT_CLI"]
SOURCE = Path(os.environ["SUBSTRUCT_SOURCE_DIR"]).resolve()
BEAM = SOURCE / "share" / "scenes" / "beam.ini"
FLOWER = SOURCE / "share" / "scenes" / "flower.ini"
METHODS = ["full", "inertia", "coupling-elements", "ddm", "spectral-hybrid"]
STEPS = 4


def cli_last_row(tmp_path, scene, overrides):
    """Runs the command with CSV output; returns the last row of its CSV as {column: text}."""
    out = tmp_path / "out" / "run.pvd"
    args = [CLI, "run", str(scene), "--quiet", "--run.exporters=csv", f"--run.output={out}"]
    args += [f"--{k}={v}" for k, v in overrides.items()]
    subprocess.run(args, check=True, capture_output=True, text=True)
    with open(out.with_suffix(".csv")) as f:
        return list(csv.DictReader(f))[-1]


def assert_same_as_cli(row, sim):
    energies = sim.energies()
    for name in ("kinetic", "elastic", "gravity", "total"):
        assert float(row[name]) == energies[name], name
    tracked = sorted({int(c[1:].split("_")[0]) for c in row if c.startswith("v")})
    assert tracked, "the scene tracks no vertex"
    for v in tracked:
        for axis, column in enumerate("xyz"):
            assert float(row[f"v{v}_{column}"]) == sim.positions[v, axis], (v, column)


@pytest.mark.parametrize("scene", [BEAM, FLOWER], ids=["beam", "flower"])
@pytest.mark.parametrize("method", METHODS)
def test_results_equal_the_command_line_bit_for_bit(tmp_path, scene, method):
    overrides = {"coupling.plugin": method, "run.steps": STEPS,
                 "run.cache_dir": str(tmp_path / "cache")}
    row = cli_last_row(tmp_path, scene, overrides)
    sim = substruct.Simulation(substruct.Scene(scene, overrides=overrides))
    sim.precompute()
    sim.step(STEPS)
    assert sim.step_index == STEPS
    assert_same_as_cli(row, sim)


def test_positions_are_read_only_views_of_one_buffer():
    sim = substruct.Simulation(substruct.Scene(BEAM))
    sim.step()
    a, b = sim.positions, sim.positions
    address = a.__array_interface__["data"][0]
    assert b.__array_interface__["data"][0] == address
    assert not a.flags.writeable and not a.flags.owndata
    assert a.shape == (sim.positions.shape[0], 3)
    with pytest.raises(ValueError):
        a[0, 0] = 1.0
    kept = np.array(a)
    sim.step()
    assert sim.positions.__array_interface__["data"][0] == address
    assert not np.array_equal(kept, sim.positions)  # the view follows the simulation


def cli_error(args):
    done = subprocess.run([CLI] + args, capture_output=True, text=True)
    assert done.returncode != 0
    return done.stderr.strip()


def test_config_errors_carry_the_command_lines_message():
    with pytest.raises(substruct.ConfigError) as raised:
        substruct.Scene(BEAM, overrides={"inertia.frequency_scale": -1, "coupling.plugin": "inertia"})
    message = str(raised.value)
    assert "frequency_scale" in message
    # Said to come from Python, otherwise the command line's message word for word.
    assert message.startswith("Python: "), message
    assert message.replace("Python", "command line", 1) in cli_error(
        ["run", str(BEAM), "--coupling.plugin=inertia", "--inertia.frequency_scale=-1"])
    with pytest.raises(substruct.ConfigError, match="unknown key 'run.nope'"):
        substruct.Scene(BEAM, overrides={"run.nope": 1})
    with pytest.raises(substruct.Error, match="no-such-method"):
        substruct.Scene(BEAM, overrides={"coupling.plugin": "no-such-method"})
    # substruct.bench's overrides too.
    with pytest.raises(substruct.Error) as raised:
        substruct.bench(BEAM, ["full"], steps=1, repeats=1, overrides={"run.dt": -1})
    message = str(raised.value)
    assert message.startswith("Python: [run] dt = '-1'"), message
    assert message.replace("Python", "command line", 1) in cli_error(
        ["bench", str(BEAM), "--methods", "full", "--steps", "1", "--repeats", "1", "--run.dt=-1"])


def test_a_malformed_mesh_is_an_input_file_error(tmp_path):
    (tmp_path / "bad.veg").write_text("*VERTICES\n3 3 0 0\n1 0 0 0\n")
    (tmp_path / "bad.ini").write_text("[scene]\nmesh = bad.veg\n")
    with pytest.raises(substruct.InputFileError) as raised:
        substruct.Simulation(substruct.Scene(tmp_path / "bad.ini"))
    assert "bad.veg" in str(raised.value)
    assert str(raised.value) in cli_error(["run", str(tmp_path / "bad.ini")])


def test_divergence_names_the_domain_and_the_step(tmp_path):
    scene = substruct.Scene(BEAM, overrides={"run.loads": "pull", "pull.vertices": 0,
                                             "pull.force": "0 1e12 0"})
    sim = substruct.Simulation(scene)
    with pytest.raises(substruct.DivergenceError, match=r"diverged at step \d+ in domain 0"):
        sim.step(50)


class PythonPull:
    """The pull plugin's constant force on vertices, as a Python load."""

    def __init__(self, vertices, force):
        self.vertices, self.force, self.calls = vertices, np.array(force, dtype=float), 0

    def accumulate(self, t, positions, forces):
        assert positions.shape == forces.shape and not positions.flags.writeable
        forces[self.vertices] += self.force
        self.calls += 1


@pytest.mark.parametrize("method", ["full", "inertia"])
def test_a_python_load_reproduces_the_pull_plugin(tmp_path, method):
    common = {"coupling.plugin": method, "run.steps": 6, "run.cache_dir": str(tmp_path / "cache")}
    row = cli_last_row(tmp_path, FLOWER, dict(common, **{
        "run.loads": "gravity pull", "pull.vertices": "5 40", "pull.force": "0 0 3"}))
    sim = substruct.Simulation(substruct.Scene(FLOWER, overrides=dict(common, **{
        "run.loads": "gravity"})))
    load = PythonPull([5, 40], [0, 0, 3])
    sim.add_load(load, "scripted pull")
    sim.precompute()
    sim.step(6)
    assert load.calls == 7  # at reset (the loads at t = 0) and before each of the 6 steps
    assert_same_as_cli(row, sim)
    cost = sim.load_seconds["scripted pull"]
    assert cost["calls"] == 7 and cost["per_call"] > 0


def test_plugins_and_help_are_data():
    names = {p["name"]: p for p in substruct.plugins()}
    for method in METHODS:
        assert names[method]["kind"] == "coupling"
    options = {o["name"]: o for o in substruct.help("inertia")}
    assert options["frequency_scale"]["default"] == "1"
    assert "lumping" in options and options["lumping"]["choices"]
    assert {o["name"] for o in substruct.help("run")} >= {"dt", "steps", "threads"}
    with pytest.raises(substruct.Error, match="no-such-plugin"):
        substruct.help("no-such-plugin")


def test_scene_from_sections_equals_the_file(tmp_path):
    share = SOURCE / "share" / "meshes"
    scene = substruct.Scene.from_sections(
        {"scene": {"mesh": str(share / "beam3_tet.veg"), "fixed": str(share / "beam3.bou")},
         "coupling": {"plugin": "full"}})
    assert scene.method == "full"
    sim = substruct.Simulation(scene)
    sim.step(2)
    assert sim.positions.shape[0] > 0 and np.isfinite(sim.positions).all()


def test_progress_reports_and_stage_timings(tmp_path):
    reports = []
    scene = substruct.Scene(FLOWER, overrides={"coupling.plugin": "inertia",
                                               "run.cache_dir": str(tmp_path / "cache")})
    sim = substruct.Simulation(scene)
    assert sim.precompute(progress=reports.append) > 0
    assert reports and reports[-1]["finished"]
    assert sim.precompute() == 0  # once
    sim.step(3)
    assert sim.dofs > 0 and sim.domains == 12
    assert sim.stage_seconds and all(s >= 0 for s in sim.stage_seconds.values())
    assert sim.interface_gap >= 0
    sim.reset()
    assert sim.time == 0 and sim.step_index == 0


def test_ctrl_c_stops_a_long_step_and_leaves_the_simulation_usable(tmp_path):
    script = """
import sys, substruct
scene = substruct.Scene(sys.argv[1], overrides={"coupling.plugin": "inertia",
                                                "run.cache_dir": sys.argv[2]})
sim = substruct.Simulation(scene)
sim.precompute()
sim.reset()
print("ready", flush=True)
try:
    sim.step(10**7)
except KeyboardInterrupt:
    print("interrupted at step", sim.step_index, flush=True)
sim.step(2)
print("usable, step", sim.step_index, flush=True)
"""
    env = dict(os.environ, PYTHONPATH=str(Path(os.path.abspath(substruct.__file__)).parents[1]))
    child = subprocess.Popen([sys.executable, "-c", script, str(FLOWER), str(tmp_path / "cache")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    lines = out.splitlines()
    stopped = int(lines[0].split()[-1])
    assert lines[0].startswith("interrupted at step") and 0 < stopped < 10**7
    assert lines[1] == f"usable, step {stopped + 2}"


def test_modes_equal_the_modes_command():
    mesh, bou = SOURCE / "share" / "meshes" / "beam3_tet.veg", SOURCE / "share" / "meshes" / "beam3.bou"
    result = substruct.modes(mesh, fixed=bou, count=5)
    printed = subprocess.run([CLI, "modes", str(mesh), "--fixed", str(bou), "--count", "5"],
                             check=True, capture_output=True, text=True).stdout
    rows = [line.split() for line in printed.splitlines()]
    cli = [float(r[1]) for r in rows if len(r) == 4 and r[0].isdigit()]
    assert len(cli) == 5
    np.testing.assert_allclose(result["eigenvalues"], cli, rtol=1e-7)
    np.testing.assert_allclose(result["frequencies"], np.sqrt(cli) / (2 * np.pi), rtol=1e-7)
    fixed = [int(x) - 1 for x in bou.read_text().replace(",", " ").split() if x.isdigit()]
    shapes = result["shapes"]
    assert shapes.shape == (5, 208, 3)
    assert not shapes[:, fixed, :].any()  # exactly zero where the mesh is held
    # A stiffer material: every frequency × √(E'/E).
    stiff = substruct.modes(mesh, fixed=bou, count=5, material={"youngs_modulus": 4 * 1e6})
    base = substruct.modes(mesh, fixed=bou, count=5, material={"youngs_modulus": 1e6})
    np.testing.assert_allclose(stiff["frequencies"], 2 * base["frequencies"], rtol=1e-8)
    free = substruct.modes(mesh, count=3, rigid=True)["eigenvalues"]
    assert np.all(np.abs(free) < 1e-6 * cli[0])  # the rigid-body modes first
    with pytest.raises(substruct.Error, match="does not exist"):
        substruct.modes(mesh, fixed=[100000])


def test_bench_rows_equal_the_bench_commands_results(tmp_path):
    common = {"run.cache_dir": str(tmp_path / "cache")}
    rows = substruct.bench([BEAM], ["full", "inertia"], steps=20, repeats=1, overrides=common,
                           out=tmp_path / "py")
    subprocess.run([CLI, "bench", str(BEAM), "--methods", "full,inertia", "--steps", "20",
                    "--repeats", "1", "--no-plots", "--out", str(tmp_path / "cli"),
                    f"--run.cache_dir={tmp_path / 'cache'}"], check=True, capture_output=True)
    with open(tmp_path / "cli" / "results.csv") as f:
        cli = list(csv.DictReader(f))
    assert [r["method"] for r in rows] == [r["method"] for r in cli] == ["full", "inertia"]
    assert (tmp_path / "py" / "results.csv").read_text().splitlines()[0] == ",".join(cli[0])
    # Everything but the timings and memory is the same run, to the CSV's 9 digits.
    timing = {"precompute_s", "step_ms_median", "step_ms_p10", "step_ms_p90", "peak_rss_mb",
              "models_computed", "models_loaded"}
    for ours, theirs in zip(rows, cli):
        for column, text in theirs.items():
            if column in timing:
                continue
            value = ours[column]
            expected = "" if value is None else (
                f"{value:.9g}" if isinstance(value, float) else str(value))
            assert expected == text, (ours["method"], column)
    # The reference's row holds its own error against Δt/4, every row beside it.
    assert rows[0]["self_check"] == 1 and rows[1]["self_check"] == 0
    assert 0 < rows[0]["relative_rms_error"] == rows[1]["reference_uncertainty"]
    assert rows[1]["relative_rms_error"] > 0


def test_set_verbosity_silences_stderr():
    script = """
import sys, substruct
substruct.set_verbosity(sys.argv[2])
sim = substruct.Simulation(substruct.Scene(sys.argv[1], overrides={"coupling.plugin": "inertia",
                                                                   "run.cache_dir": sys.argv[3]}))
sim.precompute()
"""
    env = dict(os.environ, PYTHONPATH=str(Path(os.path.abspath(substruct.__file__)).parents[1]))

    def stderr(level, cache):
        return subprocess.run([sys.executable, "-c", script, str(FLOWER), level, cache],
                              capture_output=True, text=True, env=env, check=True).stderr

    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        assert "reduced models" in stderr("normal", a)
        assert stderr("quiet", b) == ""
    with pytest.raises(substruct.Error, match="not 'loud'"):
        substruct.set_verbosity("loud")


def test_ctrl_c_stops_a_precompute_cleanly(tmp_path):
    """SIGINT during precompute (sent from its first progress report) raises KeyboardInterrupt;
    a second precompute then completes and the simulation runs."""
    scene = substruct.Scene(FLOWER, overrides={"coupling.plugin": "inertia",
                                               "run.cache_dir": str(tmp_path / "cache")})
    sim = substruct.Simulation(scene)
    sent = []

    def interrupt_once(report):
        if not sent:
            sent.append(report["label"])
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        sim.precompute(progress=interrupt_once)
    assert sent
    assert sim.precompute() > 0
    sim.step(2)
    assert sim.step_index == 2 and np.isfinite(sim.positions).all()
