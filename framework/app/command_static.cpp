// SPDX-License-Identifier: GPL-3.0-or-later
// substruct static SCENE.ini [--time T] [--output FILE.vtu] [--section.key=value …]
//
// The static equilibrium f_int(u) = f_ext of a scene under its loads (gravity, point and nodal
// forces, evaluated once at rest: dead loads), solved by the coupling method where it defines a
// static solve (full FEM: Newton with line search and load stepping). Writes the displaced mesh
// as a .vtu and prints a summary (load, largest displacement, residual) for comparison with
// other FEM codes.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/parse_number.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/io/vtk_writer.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"

namespace substruct::cli {

namespace {

namespace fs = std::filesystem;

struct StaticArguments {
  SceneArguments scene;
  double time = 0;
  fs::path output;  // empty: beside [run] output, <stem>_static.vtu
};

StaticArguments parse_static_arguments(const Args& raw_args) {
  StaticArguments parsed;
  Args rest;
  OptionArguments a("static", raw_args);
  while (a.next()) {
    if (a.is("--time")) {
      const std::string text = a.value("--time");
      const std::optional<double> time = parse_number(text);
      if (!time || !(*time >= 0) || !std::isfinite(*time))
        throw Error(
            fmt::format("static: --time expects a finite number ≥ 0 [s], found '{}'", text));
      parsed.time = *time;
    } else if (a.is("--output"))
      parsed.output = a.value("--output");
    else
      rest.push_back(a.current());
  }
  parsed.scene = parse_scene_arguments("static", rest, a.asked());
  if (!parsed.output.empty() && parsed.output.extension() != ".vtu")
    throw Error(fmt::format("static: --output {} must be a .vtu file", parsed.output.string()));
  return parsed;
}

// The total external force [N]: m g over the whole mesh plus the point and nodal forces.
Vec3 total_force(const Scene& scene, const ExternalForces& forces) {
  Vec3 total = lumped_vertex_mass(scene.mesh).sum() * forces.gravity;
  for (const PointForce& p : forces.point_forces) total += p.force;
  for (Eigen::Index i = 0; i + 2 < forces.nodal.size(); i += 3) total += forces.nodal.segment<3>(i);
  return total;
}

std::string vec(const Vec3& v) {
  return fmt::format("({:.6g}, {:.6g}, {:.6g})", v.x(), v.y(), v.z());
}

}  // namespace

int command_static(const Args& raw_args) {
  const StaticArguments args = parse_static_arguments(raw_args);
  if (args.scene.help) {
    std::printf(
        "usage: substruct static SCENE.ini [--time T] [--output FILE.vtu] [--section.key=value "
        "…]\n"
        "  Solves the static equilibrium f_int(u) = f_ext of the scene under its [run] loads,\n"
        "  evaluated once at rest at time T (default 0; dead loads), with the coupling method\n"
        "  the scene names where it defines a static solve (full: nonlinear FEM, Newton with a\n"
        "  line search and load stepping). Writes the displaced mesh (points x = X + u, point\n"
        "  data displacement and fixed; field data the load, residual and largest displacement)\n"
        "  to FILE.vtu (default: beside [run] output, <stem>_static.vtu) and prints the load,\n"
        "  the largest displacement and the residual ‖f_int − f_ext‖ on the free DOFs.\n");
    return 0;
  }

  PluginHost host(args.scene.global.plugin_paths);
  const Config config = Config::load(args.scene.scene_file, args.scene.overrides, host);
  Simulation simulation(config, host);
  const Scene& scene = simulation.scene();
  const std::string method = config.text("coupling.plugin");
  if (const CanRun can = simulation.method().can_solve_static(); !can)
    throw Error(fmt::format("static: {}: {}", method, can.reason));
  fs::path output = args.output;
  if (output.empty()) {
    const fs::path run_output = output_path(config, scene);
    output = run_output.parent_path() / (run_output.stem().string() + "_static.vtu");
  }

  simulation.precompute();
  const auto start = Clock::now();
  const StaticReport report = simulation.solve_static(args.time);
  const double seconds = seconds_since(start);

  // Displacements, the largest and where.
  const Points& x = simulation.positions();
  const Points u = x - scene.mesh.vertices;
  Index worst = 0;
  for (Index v = 1; v < u.rows(); ++v)
    if (u.row(v).squaredNorm() > u.row(worst).squaredNorm()) worst = v;
  const double max_displacement = u.rows() > 0 ? u.row(worst).norm() : 0.0;
  const Vec3 load = total_force(scene, simulation.forces());

  std::vector<std::uint8_t> fixed(static_cast<std::size_t>(scene.mesh.num_vertices()), 0);
  for (Index v : scene.fixed_vertices) fixed[static_cast<std::size_t>(v)] = 1;
  const double field[] = {args.time, max_displacement, report.residual, report.force_norm};
  const auto one = [](const double& value) { return std::span<const double>(&value, 1); };
  const VtkArray field_data[] = {{"load_time", 1, one(field[0])},
                                 {"max_displacement", 1, one(field[1])},
                                 {"relative_residual", 1, one(field[2])},
                                 {"load_norm", 1, one(field[3])}};
  const VtkData point_data{
      {{"displacement", 3, flat_values(u)}, {"fixed", 1, std::span<const std::uint8_t>(fixed)}},
      "",
      "displacement"};
  if (output.has_parent_path()) fs::create_directories(output.parent_path());
  VtuWriter(scene.mesh.tets, {}, VtkEncoding::binary).write(output, x, point_data, field_data);

  std::printf("scene      %s: %d vertices, %d tets, %d domain%s\n", scene.name.c_str(),
              scene.mesh.num_vertices(), scene.mesh.num_elements(), scene.num_domains(),
              scene.num_domains() == 1 ? "" : "s");
  std::printf("method     %s: %s\n", method.c_str(), report.description.c_str());
  std::printf("load       at t = %g s: gravity %s m/s², %zu point force%s, total %s N\n", args.time,
              vec(simulation.forces().gravity).c_str(), simulation.forces().point_forces.size(),
              simulation.forces().point_forces.size() == 1 ? "" : "s", vec(load).c_str());
  std::printf("solve      %d load step%s, %d Newton iterations, %d step cuts, %.3f s\n",
              report.load_steps, report.load_steps == 1 ? "" : "s", report.iterations,
              report.step_cuts, seconds);
  std::printf("max disp.  %.6g m at vertex %d (%.3g of the object's size)\n", max_displacement,
              worst, max_displacement / scene.size());
  std::printf("residual   %.3g of ‖f_ext‖ = %.6g N on the free DOFs\n", report.residual,
              report.force_norm);
  std::printf("output     %s\n", fs::absolute(output).lexically_normal().c_str());
  return 0;
}

SUBSTRUCT_COMMAND("static", "SCENE.ini [--time T] [--output FILE.vtu] [--section.key=value …]",
                  "static equilibrium under the scene's loads: displaced mesh and residual",
                  command_static);

}  // namespace substruct::cli
