// SPDX-License-Identifier: GPL-3.0-or-later
// substruct modes MESH [--fixed FILE.bou] [--count K] [--output FILE.vtu] …: the lowest natural
// frequencies and vibration modes of a tet mesh, K x = λ M x with K the stiffness at rest and M
// the consistent mass, fixed vertices removed; solved by the eigen-solver plugin ([solvers] eigen:
// spectra in one process, slepc under mpirun).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/material_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/memory_budget.hpp"
#include "substruct/core/mpi_launch.hpp"
#include "substruct/core/parse_number.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/fem/elastic_force_model.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/fem/material_model.hpp"
#include "substruct/integrators/dof_map.hpp"
#include "substruct/io/vtk_writer.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/plugin/eigen_plugin_name.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/reduction/modes_problem.hpp"
#include "substruct/reduction/reduced_model_memory.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/automatic_shift.hpp"
#include "substruct/solvers/eigen_solver.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: substruct modes MESH [--fixed FILE.bou] [--count K] [--output FILE.vtu]\n"
    "                      [--model linear|stvk|corotational|neohookean] [--shift S]\n"
    "                      [--solvers.eigen=NAME] [--spectra.key=value …] [--plugin-path DIR]\n"
    "  The K lowest natural frequencies of a tet mesh (.veg, .node/.ele, .msh) with its own\n"
    "  materials: K x = λ M x, K the stiffness at rest (identical for the four models), M the\n"
    "  consistent mass, the vertices of FILE.bou (Vega, 1-based) fixed. Prints λ [1/s²],\n"
    "  ω = √λ [rad/s] and f = ω/2π [Hz]; without --fixed the six rigid-body modes come first,\n"
    "  near zero, and are labelled rigid. --output writes the rest mesh with one displacement\n"
    "  vector per mode (point data mode_0, mode_1, …, M-normalised) and the eigenvalues and\n"
    "  frequencies as field data, for ParaView (Warp By Vector).\n"
    "  --count K      modes to compute (default 10)\n"
    "  --shift S      the modes with λ nearest S [1/s²] (default: automatic, below zero: the\n"
    "                 lowest ones)\n"
    "  --reorient     accept inverted tetrahedra by swapping two of their vertices (otherwise\n"
    "                 an error naming the first one)\n"
    "  --spectra.KEY=V, --slepc.KEY=V  eigensolver settings (substruct help spectra, help slepc)\n"
    "  --material.youngs_modulus=E, --material.poisson_ratio=NU, --material.density=RHO\n"
    "                 override every material of the mesh (a .msh or .node/.ele mesh has\n"
    "                 only the defaults E = 1e6 Pa, ν = 0.45, ρ = 1000 kg/m³)\n"
    "  Under mpirun every rank takes part in the solve; rank 0 prints and writes.\n";

struct Options {
  fs::path mesh;
  fs::path fixed;
  fs::path output;
  int count = 10;
  double shift = std::numeric_limits<double>::quiet_NaN();
  MaterialModel model = MaterialModel::linear;
  bool reorient = false;
  std::vector<Setting> settings;
};

int parse_count(const std::string& text) {
  const std::optional<long> value = parse_integer(text);
  if (!value)
    throw Error(fmt::format("modes: --count expects a positive whole number, found '{}'", text));
  check_mode_count(*value, "--count");
  return static_cast<int>(*value);
}

double parse_shift(const std::string& text) {
  const std::optional<double> value = parse_number(text);
  if (!value || !std::isfinite(*value))
    throw Error(fmt::format("modes: --shift expects a number [1/s²], found '{}'", text));
  return *value;
}

/// Options from the arguments (global options already removed); false when --help was asked.
bool parse(const Args& args, Options& o) {
  for (OptionArguments arg("modes", args); arg.next();) {
    const std::string& a = arg.current();
    if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      return false;
    }
    if (arg.is("--fixed")) {
      o.fixed = arg.value("--fixed");
    } else if (arg.is("--count")) {
      o.count = parse_count(arg.value("--count"));
    } else if (arg.is("--output")) {
      o.output = arg.value("--output");
    } else if (arg.is("--model")) {
      o.model = parse_material_model(arg.value("--model"));
    } else if (arg.is("--shift")) {
      o.shift = parse_shift(arg.value("--shift"));
    } else if (arg.is("--reorient")) {
      o.reorient = true;
    } else if (a.starts_with("--") && a.find('.') != std::string::npos &&
               a.find('=') != std::string::npos) {
      // --section.key=value: a setting of the eigensolver (or [solvers] eigen).
      const std::size_t equals = a.find('=');
      o.settings.push_back({a.substr(2, equals - 2), a.substr(equals + 1), "command line"});
    } else if (a.starts_with("-")) {
      throw arg.unknown();
    } else if (o.mesh.empty()) {
      o.mesh = a;
    } else {
      throw Error(fmt::format("modes: unexpected argument '{}' (one mesh file)", a));
    }
  }
  if (o.mesh.empty()) throw Error(std::string("modes: which mesh?\n") + kUsage);
  return true;
}

/// Rank 0 of an mpirun job, or a process started without one, prints and writes.
bool first_process() {
  for (const char* variable : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) {
    const char* rank = std::getenv(variable);
    if (rank != nullptr) return std::string(rank) == "0";
  }
  return true;
}

/// The rest mesh with one point-data displacement vector per mode (mode_0, mode_1, …), which
/// vertices are fixed, and the eigenvalues and frequencies as field data: ascii VTK XML.
void write_vtu(const fs::path& file, const TetMesh& mesh, const DofMap& dofs,
               const EigenPairs& pairs, const Eigen::VectorXd& frequencies) {
  if (file.has_parent_path()) fs::create_directories(file.parent_path());
  const Eigen::Index k = pairs.values.size();
  std::vector<std::uint8_t> fixed(static_cast<std::size_t>(mesh.num_vertices()));
  for (std::size_t v = 0; v < fixed.size(); ++v) fixed[v] = dofs.is_fixed(Index(3 * v)) ? 1 : 0;
  std::vector<Eigen::VectorXd> modes;
  for (Eigen::Index i = 0; i < k; ++i) modes.push_back(dofs.expand_vector(pairs.vectors.col(i)));

  const auto values = [](const Eigen::VectorXd& v) {
    return std::span<const double>(v.data(), static_cast<std::size_t>(v.size()));
  };
  VtkData point_data{
      {{"fixed", 1, std::span<const std::uint8_t>(fixed)}}, "", k > 0 ? "mode_0" : ""};
  for (std::size_t i = 0; i < modes.size(); ++i)
    point_data.arrays.push_back({fmt::format("mode_{}", i), 3, values(modes[i])});
  const Eigen::VectorXd omega = 2 * std::numbers::pi * frequencies;
  const VtkArray field_data[] = {{"eigenvalue", 1, values(pairs.values)},
                                 {"angular_frequency", 1, values(omega)},
                                 {"frequency", 1, values(frequencies)}};
  const VtuWriter writer(mesh.tets, {}, VtkEncoding::ascii);
  writer.write(file, mesh.vertices, point_data, field_data);
}

std::string describe(const Material& m) {
  return fmt::format("{}: E = {:g} Pa, ν = {:g}, ρ = {:g} kg/m³", m.name, m.youngs_modulus,
                     m.poisson_ratio, m.density);
}

}  // namespace

int command_modes(const Args& raw_args) {
  GlobalOptions global;
  Options o;
  if (!parse(take_global_options(raw_args, global), o)) return 0;
  const bool printing = first_process();
  if (!printing) {  // under mpirun rank 0 speaks for all: no repeated estimates or progress
    log::set_level(log::Level::quiet);
    Progress::set_enabled(false);
  }

  auto clock = std::chrono::steady_clock::now();
  const auto lap = [&clock] {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - clock).count();
    clock = now;
    return seconds;
  };
  PluginHost host(global.plugin_paths);
  const Config config = Config::from_settings(o.settings, fs::current_path(), host);
  // Only what modes reads may be set: a key it would ignore is an error, not a silent no-op.
  // Under mpirun the ranks share the solve.
  const bool shared = started_by_mpi_launcher();
  const std::string eigen_section = eigen_plugin_name(&host, config.text("solvers.eigen"), shared);
  for (const Setting& s : o.settings) {
    const std::string section = s.key.substr(0, s.key.find('.'));
    const bool material = s.key == "material.youngs_modulus" || s.key == "material.poisson_ratio" ||
                          s.key == "material.density";
    if (!material && s.key != "solvers.eigen" && section != eigen_section)
      throw Error(fmt::format(
          "modes: --{}={} is not read by modes; it takes [material] youngs_modulus, "
          "poisson_ratio, density (overriding the mesh's materials), [solvers] eigen and the "
          "eigen solver's own section ([{}])",
          s.key, s.value, eigen_section));
  }
  const double host_seconds = lap();
  // The checks substruct.modes() makes too (reduction/modes_problem.hpp).
  const ModesProblem problem = modes_problem(o.mesh, o.fixed, {}, o.reorient, config);
  const TetMesh& mesh = problem.mesh;
  const std::vector<Index>& fixed_vertices = problem.fixed;
  const DofMap& dofs = problem.dofs;
  const bool free_floating = fixed_vertices.empty();
  if (problem.reoriented > 0 && printing)
    std::printf("reoriented %d inverted tetrahedra (--reorient)\n",
                static_cast<int>(problem.reoriented));
  lap();  // the mesh is not the solver's start
  SolverProvider solvers(host, config);
  solvers.set_shared_solves(shared);
  const std::unique_ptr<EigenSolver> solver = solvers.eigen();
  const double start_seconds = host_seconds + lap();

  if (printing) {
    std::printf("mesh     %s: %d vertices, %d tets\n", o.mesh.string().c_str(), mesh.num_vertices(),
                mesh.num_elements());
    // The materials the elements use, with how many elements use each.
    std::vector<Index> users(mesh.materials.size(), 0);
    for (Index e = 0; e < mesh.num_elements(); ++e)
      ++users[std::size_t(mesh.element_material[std::size_t(e)])];
    for (std::size_t i = 0; i < users.size(); ++i)
      if (users[i] > 0)
        std::printf("material %s (%d tets)\n", describe(mesh.materials[i]).c_str(), users[i]);
    if (free_floating)
      std::printf("fixed    none: free-floating, 6 rigid-body modes come first\n");
    else
      std::printf("fixed    %zu vertices (%s)\n", fixed_vertices.size(), o.fixed.string().c_str());
    std::fflush(stdout);
  }

  // K, M and the shift-invert factor, and the eigenvectors.
  const double n = 3.0 * double(mesh.num_vertices());
  reserve_memory(
      fmt::format("modes: the matrices, factor and {} eigenvectors of {:.0f} DOFs", o.count, n),
      eigenproblem_memory(n) + n * o.count * 8);
  Progress progress("modes", o.output.empty() ? 3 : 4);
  lap();
  const ElasticForceModel forces(mesh, o.model);
  const SparseMatrix K =
      dofs.restrict_matrix(forces.stiffness(Eigen::VectorXd::Zero(3 * mesh.num_vertices())));
  progress.advance();
  const SparseMatrix M = dofs.restrict_matrix(consistent_mass(mesh));
  progress.advance();
  const double assembly_seconds = lap();
  const EigenPairs pairs = solver->solve(K, M, o.count, o.shift);
  progress.advance();
  const double solve_seconds = lap();

  // Rigid-body modes of a free-floating mesh: λ = 0 up to round-off, far below the mean
  // eigenvalue tr(K)/tr(M).
  const double rigid_bound = 1e-9 * std::abs(trace(K)) / trace(M);
  const auto k = pairs.values.size();
  Eigen::VectorXd frequencies(k);
  std::vector<bool> rigid(std::size_t(k), false);
  int rigid_count = 0;
  for (Eigen::Index i = 0; i < k; ++i) {
    rigid[std::size_t(i)] =
        free_floating && rigid_count < 6 && std::abs(pairs.values[i]) <= rigid_bound;
    rigid_count += rigid[std::size_t(i)];
    frequencies[i] = std::sqrt(std::max(pairs.values[i], 0.0)) / (2 * std::numbers::pi);
  }

  if (printing) {
    std::printf("model    %s stiffness at rest, consistent mass: %d free DOFs\n",
                std::string(to_string(o.model)).c_str(), dofs.num_free());
    const std::string shift_key = eigen_section + ".shift";
    const std::string shift =
        config.has(shift_key)
            ? fmt::format("σ = {:g} 1/s² ({})", config.get<double>(shift_key), shift_key)
        : std::isnan(o.shift) ? std::string("an automatic shift below 0")
                              : fmt::format("σ = {:g} 1/s²", o.shift);
    std::printf("solver   %s, %ld modes nearest %s\n\n", eigen_section.c_str(), long(k),
                shift.c_str());
    std::printf("%5s %16s %14s %14s\n", "mode", "λ [1/s²]", "ω [rad/s]", "f [Hz]");
    for (Eigen::Index i = 0; i < k; ++i)
      std::printf("%5ld %16.8g %14.8g %14.8g%s\n", long(i), pairs.values[i],
                  2 * std::numbers::pi * frequencies[i], frequencies[i],
                  rigid[std::size_t(i)] ? "  rigid" : "");
    std::printf("\n");
  }
  if (printing && !o.output.empty()) {
    write_vtu(o.output, mesh, dofs, pairs, frequencies);
    progress.advance();
  }
  const double write_seconds = lap();
  progress.finish();
  if (printing) {
    std::printf("time     solver start %.3f s, assembly %.3f s, eigensolve %.3f s%s\n",
                start_seconds, assembly_seconds, solve_seconds,
                o.output.empty() ? "" : fmt::format(", output {:.3f} s", write_seconds).c_str());
    if (!o.output.empty())
      std::printf("output   %s\n", fs::absolute(o.output).lexically_normal().c_str());
  }
  return 0;
}

SUBSTRUCT_COMMAND("modes", "MESH [--fixed FILE.bou] [--count K] [--output FILE.vtu] …",
                  "natural frequencies and vibration modes of a mesh", command_modes);

}  // namespace substruct::cli
