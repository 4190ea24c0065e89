// SPDX-License-Identifier: GPL-3.0-or-later
// substruct.modes(): the lowest natural vibration modes of a tet mesh, K φ = λ M φ with K the
// stiffness at rest and M the consistent mass (reduction/linear_modes.hpp, as `substruct modes`
// and every reduced method's basis solve them), through the eigen-solver plugin.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "substruct/core/memory_budget.hpp"
#include "substruct/reduction/linear_modes.hpp"
#include "substruct/reduction/modes_problem.hpp"
#include "substruct/reduction/reduced_model_memory.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::python {

namespace {

// Fixed vertices: None, a .bou file (Vega, 1-based) or 0-based indices.
struct Fixed {
  std::filesystem::path file;
  std::vector<Index> indices;
};
Fixed fixed_vertices(const py::object& fixed) {
  if (fixed.is_none()) return {};
  if (py::isinstance<py::str>(fixed) || py::hasattr(fixed, "__fspath__"))
    return {fixed.cast<std::filesystem::path>(), {}};
  return {{}, fixed.cast<std::vector<Index>>()};
}

// The material dict as [material] settings, validated by the command line's option table.
Config modes_config(const py::dict& material, const std::string& solver, const PluginHost& host) {
  std::vector<Setting> settings{{"solvers.eigen", solver, "Python"}};
  for (const auto& [key, value] : material) {
    const auto name = key.cast<std::string>();
    if (name != "youngs_modulus" && name != "poisson_ratio" && name != "density")
      raise_config_error(Error(fmt::format(
          "modes: material takes youngs_modulus, poisson_ratio and density, not '{}'", name)));
    settings.push_back({"material." + name, scene_text(value), "Python"});
  }
  try {
    return Config::from_settings(settings, ".", host);
  } catch (const Error& e) {
    raise_config_error(e);
  }
}

py::dict modes(const std::filesystem::path& file, const py::object& fixed, long long count,
               const py::dict& material, const std::string& solver, bool rigid, bool reorient) {
  try {
    check_mode_count(count, "count");
  } catch (const Error& e) {
    raise_config_error(e);
  }
  auto host = plugin_host();
  const Config config = modes_config(material, solver, *host);
  Fixed f = fixed_vertices(fixed);
  // The command line's checks (reduction/modes_problem.hpp), with its messages.
  const ModesProblem problem = modes_problem(file, f.file, std::move(f.indices), reorient, config);
  const TetMesh& mesh = problem.mesh;
  DomainBoundary boundary;
  boundary.fixed_vertices = problem.fixed;
  boundary.remove_rigid_modes = boundary.fixed_vertices.empty() && !rigid;
  const double n = 3.0 * double(mesh.num_vertices());
  EigenPairs pairs;
  run_interruptible([&] {
    reserve_memory(
        fmt::format("modes: the matrices, factor and {} eigenvectors of {:.0f} DOFs", count, n),
        eigenproblem_memory(n) + n * double(count) * 8);
    const std::unique_ptr<EigenSolver> eigen = SolverProvider(*host, config).eigen();
    pairs = linear_modes(mesh, boundary, static_cast<int>(count), *eigen);
  });
  const Eigen::Index nv = mesh.num_vertices(), k = pairs.values.size();
  py::array_t<double> shapes({k, nv, Eigen::Index{3}});
  auto out = shapes.mutable_unchecked<3>();
  for (Eigen::Index i = 0; i < k; ++i)
    for (Eigen::Index v = 0; v < nv; ++v)
      for (int c = 0; c < 3; ++c) out(i, v, c) = pairs.vectors(3 * v + c, i);
  py::array_t<double> eigenvalues(k), frequencies(k);
  for (Eigen::Index i = 0; i < k; ++i) {
    eigenvalues.mutable_at(i) = pairs.values[i];
    frequencies.mutable_at(i) = std::sqrt(std::max(pairs.values[i], 0.0)) / (2 * M_PI);
  }
  py::dict d;
  d["eigenvalues"] = eigenvalues;
  d["frequencies"] = frequencies;
  d["shapes"] = shapes;
  return d;
}

}  // namespace

void bind_modes(py::module_& m) {
  m.def("modes", &modes, py::arg("mesh"), py::arg("fixed") = py::none(), py::arg("count") = 10,
        py::arg("material") = py::dict(), py::arg("solver") = "auto", py::arg("rigid") = false,
        py::arg("reorient") = false,
        R"(The `count` lowest natural vibration modes of a tet mesh (.veg, .node/.ele, .msh).

K φ = λ M φ with K the stiffness at rest and M the consistent mass of the mesh's materials,
`material` ({"youngs_modulus": E, "poisson_ratio": ν, "density": ρ}) overriding them; `fixed`:
a .bou file (Vega, 1-based) or 0-based vertex indices. Without fixed vertices the six rigid-body
modes are left out (rigid=True keeps them, first, near zero). Solved by the eigen-solver plugin
`solver` ([solvers] eigen: auto, spectra, slepc), refined by Rayleigh–Ritz as every reduced
basis is. Returns {"eigenvalues": λ [1/s²], "frequencies": √λ/2π [Hz], "shapes": count×N×3,
M-orthonormal}. The command line's checks apply, with its messages: an inverted tetrahedron
raises InputFileError unless reorient=True turns it; count < 1 or a refused material value
raises ConfigError.)");
}

}  // namespace substruct::python
