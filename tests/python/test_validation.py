# SPDX-License-Identifier: GPL-3.0-or-later
"""substruct.modes() and Scene.from_sections() refuse what the command line refuses, with its
messages and substruct's exception classes (never a pybind11 cast error or a bare ValueError).

Run with tests/python/test_api.py (CTest python.api; the same environment).
"""

import os
import subprocess
from pathlib import Path

import pytest

import substruct

CLI = os.environ["SUBSTRUCT_CLI"]
SOURCE = Path(os.environ["SUBSTRUCT_SOURCE_DIR"]).resolve()
MESH = SOURCE / "share" / "meshes" / "beam3_tet.veg"
BOU = SOURCE / "share" / "meshes" / "beam3.bou"


def cli_error(args):
    """The message of a command that must fail with exit code 1."""
    done = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    return done.stderr


def inverted_beam(tmp_path):
    """The beam with its first element's vertices 2 and 3 swapped: one inverted tetrahedron."""
    text = MESH.read_text().replace("\n1 1 53 3 2\n", "\n1 1 53 2 3\n", 1)
    assert text != MESH.read_text()
    mesh = tmp_path / "inverted.veg"
    mesh.write_text(text)
    return mesh


def test_modes_refuses_an_inverted_mesh_as_the_command_does(tmp_path):
    mesh = inverted_beam(tmp_path)
    with pytest.raises(substruct.InputFileError, match=r"--reorient") as raised:
        substruct.modes(mesh, fixed=BOU, count=3)
    assert str(raised.value) in cli_error(["modes", str(mesh), "--fixed", str(BOU), "--count", "3"])
    turned = substruct.modes(mesh, fixed=BOU, count=3, reorient=True)["eigenvalues"]
    plain = substruct.modes(MESH, fixed=BOU, count=3)["eigenvalues"]
    assert list(turned) == pytest.approx(list(plain), rel=1e-9)  # the same mesh once turned


@pytest.mark.parametrize("count", [0, -3, 2**31])
def test_modes_refuses_a_count_below_one_or_beyond_an_int(count):
    with pytest.raises(substruct.ConfigError,
                       match=rf"^modes: count expects a positive whole number, found '{count}'$"):
        substruct.modes(MESH, fixed=BOU, count=count)


def test_modes_refuses_a_material_value_as_a_scene_does():
    with pytest.raises(substruct.ConfigError) as raised:
        substruct.modes(MESH, fixed=BOU, count=3, material={"density": "heavy"})
    message = str(raised.value)
    assert message == "Python: [material] density = 'heavy': expected a finite number > 0"
    cli = cli_error(["modes", str(MESH), "--count", "3", "--material.density=heavy"])
    assert message.replace("Python", "command line") in cli
    with pytest.raises(substruct.ConfigError, match=r"\[material\] youngs_modulus = '-1'"):
        substruct.modes(MESH, fixed=BOU, count=3, material={"youngs_modulus": -1})
    with pytest.raises(substruct.ConfigError, match="not 'colour'"):
        substruct.modes(MESH, count=3, material={"colour": 1})


def test_modes_refuses_a_mesh_with_nothing_free(tmp_path):
    every = tmp_path / "all.bou"
    every.write_text(",".join(str(v) for v in range(1, 209)) + "\n")
    with pytest.raises(substruct.Error, match="is fixed by .*all.bou; nothing can move") as raised:
        substruct.modes(MESH, fixed=every, count=3)
    assert str(raised.value) in cli_error(["modes", str(MESH), "--fixed", str(every)])
    with pytest.raises(substruct.Error, match="every vertex of .* is fixed; nothing can move"):
        substruct.modes(MESH, fixed=list(range(208)), count=3)


def test_modes_refuses_a_device_as_the_mesh(tmp_path):
    link = tmp_path / "zero.veg"
    link.symlink_to("/dev/zero")
    with pytest.raises(substruct.Error, match=r"cannot read Vega mesh file '.*zero.veg': it is a "
                                              r"character device") as raised:
        substruct.modes(link, count=3)
    assert str(raised.value) in cli_error(["modes", str(link), "--count", "3"])


@pytest.mark.parametrize("section", ["mesh", 3, ["mesh"]])
def test_scene_from_sections_wants_a_dict_per_section(section):
    with pytest.raises(substruct.ConfigError,
                       match=r"^Scene.from_sections: section 'scene' must be a dict \{key: value\}, "
                             r"found (str|int|list) "):
        substruct.Scene.from_sections({"scene": section})
