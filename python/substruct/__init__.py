# SPDX-License-Identifier: GPL-3.0-or-later
"""substruct from Python: scenes, coupling methods and their results as NumPy arrays.

    import substruct
    scene = substruct.Scene("share/scenes/flower.ini", overrides={"coupling.plugin": "inertia"})
    sim = substruct.Simulation(scene)
    sim.precompute(progress=print)
    sim.step(100)
    sim.positions        # N×3, a read-only view of the simulation's buffer (valid until the next step)

Scenes are validated as the command line validates them; errors raise substruct.ConfigError,
substruct.InputFileError or substruct.DivergenceError (all substruct.Error) with the command
line's messages. substruct.plugins() lists the plugins found, substruct.help(name) the options a
plugin or framework section declares. A load written in Python is an object with
accumulate(self, t, positions, forces), added with Simulation.add_load. substruct.modes(mesh, …)
returns a mesh's natural frequencies and mode shapes; substruct.bench(scenes, methods, steps)
the benchmark report's rows as dicts. substruct.set_verbosity("quiet") silences the progress and
information lines substruct writes to stderr.
"""

from ._substruct import (  # noqa: F401
    ConfigError,
    DivergenceError,
    Error,
    InputFileError,
    Scene,
    Simulation,
    bench,
    help,
    modes,
    plugins,
    set_verbosity,
)

__all__ = [
    "ConfigError",
    "DivergenceError",
    "Error",
    "InputFileError",
    "Scene",
    "Simulation",
    "bench",
    "help",
    "modes",
    "plugins",
    "set_verbosity",
]
