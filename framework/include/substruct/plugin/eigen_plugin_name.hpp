// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// How `[solvers] eigen = NAME` names an eigen-solver plugin.
#include <string>

namespace substruct {

class PluginHost;

/// The eigen-solver plugin that `[solvers] eigen = NAME` selects: NAME itself, except `auto`
/// (the default): slepc for a solve that may be `shared` over the ranks of an MPI job (`modes`
/// under mpirun, a large domain's), otherwise spectra (the solves of one process, no MPI or PETSc
/// start-up), or slepc where spectra is not installed. Without a host, `auto` is resolved as if
/// every plugin were installed.
std::string eigen_plugin_name(const PluginHost* host, const std::string& name, bool shared = false);

}  // namespace substruct
