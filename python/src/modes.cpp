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
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/reduction/linear_modes.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::python {

namespace {

// Fixed vertices: None, a .bou file (Vega, 1-based) or 0-based indices.
std::vector<Index> fixed_vertices(const py::object& fixed, const TetMesh& mesh) {
  if (fixed.is_none()) return {};
  if (py::isinstance<py::str>(fixed) || py::hasattr(fixed, "__fspath__"))
    return read_bou(fixed.cast<std::filesystem::path>(), mesh.num_vertices());
  std::vector<Index> v = fixed.cast<std::vector<Index>>();
  for (Index i : v)
    if (i < 0 || i >= mesh.num_vertices())
      throw Error(
          fmt::format("modes: fixed vertex {} does not exist (the mesh has {} vertices, "
                      "numbered from 0)",
                      i, mesh.num_vertices()));
  return v;
}

py::dict modes(const std::filesystem::path& file, const py::object& fixed, int count,
               const py::dict& material, const std::string& solver, bool rigid) {
  TetMesh mesh = read_tet_mesh(file);
  for (const auto& [key, value] : material) {
    const auto name = key.cast<std::string>();
    const auto x = value.cast<double>();
    for (Material& m : mesh.materials) {
      if (name == "youngs_modulus")
        m.youngs_modulus = x;
      else if (name == "poisson_ratio")
        m.poisson_ratio = x;
      else if (name == "density")
        m.density = x;
      else
        throw Error(
            fmt::format("modes: material takes youngs_modulus, poisson_ratio and "
                        "density, not '{}'",
                        name));
    }
  }
  DomainBoundary boundary;
  boundary.fixed_vertices = fixed_vertices(fixed, mesh);
  boundary.remove_rigid_modes = boundary.fixed_vertices.empty() && !rigid;
  auto host = plugin_host();
  const Config config = Config::from_settings({{"solvers.eigen", solver, "Python"}}, ".", *host);
  EigenPairs pairs;
  run_interruptible([&] {
    const std::unique_ptr<EigenSolver> eigen = SolverProvider(*host, config).eigen();
    pairs = linear_modes(mesh, boundary, count, *eigen);
  });
  const Eigen::Index n = mesh.num_vertices(), k = pairs.values.size();
  py::array_t<double> shapes({k, n, Eigen::Index{3}});
  auto out = shapes.mutable_unchecked<3>();
  for (Eigen::Index i = 0; i < k; ++i)
    for (Eigen::Index v = 0; v < n; ++v)
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
        R"(The `count` lowest natural vibration modes of a tet mesh (.veg, .node/.ele, .msh).

K φ = λ M φ with K the stiffness at rest and M the consistent mass of the mesh's materials,
`material` ({"youngs_modulus": E, "poisson_ratio": ν, "density": ρ}) overriding them; `fixed`:
a .bou file (Vega, 1-based) or 0-based vertex indices. Without fixed vertices the six rigid-body
modes are left out (rigid=True keeps them, first, near zero). Solved by the eigen-solver plugin
`solver` ([solvers] eigen: auto, spectra, slepc), refined by Rayleigh–Ritz as every reduced
basis is. Returns {"eigenvalues": λ [1/s²], "frequencies": √λ/2π [Hz], "shapes": count×N×3,
M-orthonormal}.)");
}

}  // namespace substruct::python
