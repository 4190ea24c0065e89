// SPDX-License-Identifier: GPL-3.0-or-later
// Fig. 2 and Fig. 3 of Yang et al. 2010 as time series (CSV), for
// benchmarks/spectral_hybrid_figures.sh to tabulate and plot.
//
// Fig. 3, "boundary deviation": the hybrid bar (deformable | rigid | deformable, clamped at x = 0)
// released under gravity for 3 s; at every step, over every vertex of the deformable–rigid
// boundaries, the distance between its deformable and its rigid copy, as max and RMS over the
// object's size (the paper normalises the bar to a unit cube), for
//   all          every boundary node constrained (the paper: "very close to its analytical value,
//   0") 2n-50m       2 nodes per boundary, 50 modes per deformable region 2n-300m      2 nodes per
//   boundary, 300 modes (the paper: worse than 50 modes) 4n-50m, 8n-100m  more nodes (ours: what it
//   takes to stay within 0.1 %)
// on the larger bar (5,400 tets; substruct generate hybrid-bar --cells 30 6 5 …), and the same
// three on the 324-tet bar with 30 / 100 modes. The copies are read from the method's reduced
// layout and poses, so the figure measures what the viewer shows.
//
// Fig. 2, the twist: the 324-tet bar's free end turned half a turn about the bar's axis in 1 s
// by target rows, no gravity, 100 modes, then held 1 s: kinetic and elastic energy over time for
// Eq. 11 with 2 nodes, Eq. 11 with all nodes (Fig. 2c), Eq. 10 with 2 nodes and with all nodes
// (Fig. 2b), and Eq. 11 / Eq. 10 with 2 nodes at 30 modes.
//
//   bench_spectral_hybrid_figures OUT_DIR   writes OUT_DIR/fig3.csv and OUT_DIR/fig2.csv
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "generated_scene.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/coupling/coupling_method.hpp"
#include "substruct/kinematics/modal_warping.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/simulation.hpp"

namespace {

using namespace substruct;
namespace fs = std::filesystem;

fs::path work_dir() {
  return fs::temp_directory_path() / "substruct-bench-spectral-hybrid";
}

fs::path generated(const std::string& name, const std::string& arguments) {
  return bench::generated_scene(work_dir(), name, arguments);
}

// The world position of every vertex in every layout domain that holds it (pose and warping
// applied), as (global vertex, position) per domain.
std::vector<std::vector<std::pair<Index, Vec3>>> copies(const CouplingMethod& method) {
  const ReducedGeometry& g = *method.reduced_geometry();
  std::vector<DomainPose> poses;
  method.domain_poses(poses);
  std::vector<std::vector<std::pair<Index, Vec3>>> out(g.domains.size());
  for (std::size_t d = 0; d < g.domains.size(); ++d) {
    const DomainLayout& dom = g.source(d);
    const DomainPose& pose = poses[d];
    const Eigen::VectorXd u = dom.U * pose.q;
    const Eigen::VectorXd w =
        dom.Psi.size() > 0 ? Eigen::VectorXd(dom.Psi * pose.q) : Eigen::VectorXd::Zero(u.size());
    for (std::size_t a = 0; a < g.domains[d].global_vertex.size(); ++a) {
      const Index l = static_cast<Index>(a);
      const Vec3 local = dom.rest.row(l).transpose() +
                         integrated_rotation(w.segment<3>(3 * l)) * u.segment<3>(3 * l);
      out[d].emplace_back(g.domains[d].global_vertex[a], pose.p + pose.R * local);
    }
  }
  return out;
}

// Max and RMS over shared vertices of the distance of each copy to the first copy.
std::pair<double, double> deviation(const CouplingMethod& method, Index vertices) {
  std::vector<Vec3> first(static_cast<std::size_t>(vertices), Vec3::Constant(NAN));
  double worst = 0, sum = 0;
  long count = 0;
  for (const auto& domain : copies(method))
    for (const auto& [v, x] : domain) {
      Vec3& f = first[static_cast<std::size_t>(v)];
      if (std::isnan(f.x())) {
        f = x;
        continue;
      }
      const double d = (x - f).norm();
      worst = std::max(worst, d);
      sum += d * d;
      ++count;
    }
  return {worst, count > 0 ? std::sqrt(sum / static_cast<double>(count)) : 0.0};
}

void fig3(const PluginHost& host, std::ofstream& csv) {
  struct Run {
    const char* bar;
    const char* label;
    std::vector<std::string> options;
  };
  const std::string small = generated("bar1", "hybrid-bar --modes 100").string();
  const std::string large =
      generated("bar2",
                "hybrid-bar --cells 30 6 5 --length 1.5 --height 0.3 --width 0.25 --modes 200")
          .string();
  const std::vector<Run> runs{
      {"bar2", "all", {"--spectral-hybrid.boundary_nodes=all", "--spectral-hybrid.modes=50"}},
      {"bar2", "2n-50m", {"--spectral-hybrid.boundary_nodes=2", "--spectral-hybrid.modes=50"}},
      {"bar2", "2n-300m", {"--spectral-hybrid.boundary_nodes=2", "--spectral-hybrid.modes=300"}},
      {"bar2", "4n-50m", {"--spectral-hybrid.boundary_nodes=4", "--spectral-hybrid.modes=50"}},
      {"bar2", "8n-100m", {"--spectral-hybrid.boundary_nodes=8", "--spectral-hybrid.modes=100"}},
      {"bar1", "all", {"--spectral-hybrid.boundary_nodes=all", "--spectral-hybrid.modes=30"}},
      {"bar1", "2n-30m", {"--spectral-hybrid.boundary_nodes=2", "--spectral-hybrid.modes=30"}},
      {"bar1", "2n-100m", {"--spectral-hybrid.boundary_nodes=2", "--spectral-hybrid.modes=100"}},
  };
  csv << "bar,case,time,max_over_size,rms_over_size,tip_displacement_over_size\n";
  for (const Run& r : runs) {
    std::vector<std::string> options = r.options;
    options.insert(options.end(),
                   {"--run.exporters=", "--run.loads=gravity", "--spectral-hybrid.cache=false",
                    "--coupling.plugin=spectral-hybrid"});
    Simulation sim(Config::load(std::string(r.bar) == "bar1" ? small : large, options, host), host);
    sim.precompute();
    sim.reset();
    const double size = sim.scene().size();
    const Index tip = sim.scene().tracked_vertices.front();
    StepStats stats;
    double worst = 0, rms_mean = 0;
    const int steps = 300;
    for (int s = 1; s <= steps; ++s) {
      sim.step(stats);
      const auto [max, rms] = deviation(sim.method(), sim.scene().mesh.num_vertices());
      const double tip_motion =
          (sim.positions().row(tip) - sim.scene().mesh.vertices.row(tip)).norm();
      csv << fmt::format("{},{},{:.3f},{:.6e},{:.6e},{:.6e}\n", r.bar, r.label, s * 0.01,
                         max / size, rms / size, tip_motion / size);
      worst = std::max(worst, max / size);
      rms_mean += rms / size / steps;
    }
    std::printf("fig3 %s %-8s: max deviation %.4f %% of the size, mean RMS %.4f %%\n", r.bar,
                r.label, 100 * worst, 100 * rms_mean);
  }
}

void fig2(const PluginHost& host, std::ofstream& csv) {
  const fs::path ini = generated("bar1", "hybrid-bar --modes 100");
  // the free end: the vertices at x = length, listed in the scene's comment by the generator
  std::string targets;
  {
    std::ifstream in(ini);
    std::string line;
    const std::string key = "--spectral-hybrid.target_vertices=\"";
    while (std::getline(in, line))
      if (const auto at = line.find(key); at != std::string::npos)
        targets = line.substr(at + key.size(), line.rfind('"') - at - key.size());
  }
  if (targets.empty()) throw Error("fig2: the scene names no free-end vertices");
  struct Run {
    const char* label;
    const char* constraint;
    const char* nodes;
    int modes;
  };
  const std::vector<Run> runs{{"eq11-2n", "displacement-and-rotation", "2", 100},
                              {"eq11-all", "displacement-and-rotation", "all", 100},
                              {"eq10-2n", "warped-position", "2", 100},
                              {"eq10-all", "warped-position", "all", 100},
                              {"eq11-2n-30m", "displacement-and-rotation", "2", 30},
                              {"eq10-2n-30m", "warped-position", "2", 30}};
  csv << "case,time,kinetic,elastic,max_gap_over_size\n";
  for (const Run& r : runs) {
    const std::vector<std::string> options{
        "--run.exporters=",
        "--run.loads=",
        "--spectral-hybrid.cache=false",
        "--coupling.plugin=spectral-hybrid",
        "--spectral-hybrid.target_vertices=" + targets,
        "--spectral-hybrid.target_rotation=3.14159 0 0",
        "--spectral-hybrid.target_ramp=1",
        fmt::format("--spectral-hybrid.boundary_constraint={}", r.constraint),
        fmt::format("--spectral-hybrid.boundary_nodes={}", r.nodes),
        fmt::format("--spectral-hybrid.modes={}", r.modes)};
    Simulation sim(Config::load(ini, options, host), host);
    sim.precompute();
    sim.reset();
    StepStats stats;
    std::string outcome = "bounded";
    double largest = 0;
    for (int s = 1; s <= 200; ++s) {
      try {
        sim.step(stats);
      } catch (const DivergenceError& e) {
        outcome = fmt::format("diverged at step {}", s);
        break;
      }
      const Energies e = sim.method().energies(Vec3::Zero());
      largest = std::max(largest, e.kinetic + e.elastic);
      csv << fmt::format("{},{:.3f},{:.6e},{:.6e},{:.6e}\n", r.label, s * 0.01, e.kinetic,
                         e.elastic, sim.method().interface_gap() / sim.scene().size());
    }
    const Energies e = sim.method().energies(Vec3::Zero());
    std::printf(
        "fig2 %-12s: %s; largest kinetic + elastic %.4g J, at the end kinetic %.3g J, "
        "elastic %.4g J\n",
        r.label, outcome.c_str(), largest, e.kinetic, e.elastic);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  try {
    const fs::path out = argv[1];
    fs::create_directories(out);
    const PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
    std::ofstream fig3_csv(out / "fig3.csv"), fig2_csv(out / "fig2.csv");
    fig3(host, fig3_csv);
    fig2(host, fig2_csv);
  } catch (const Error& e) {
    std::fprintf(stderr, "bench_spectral_hybrid_figures: %s\n", e.what());
    return 1;
  }
  return 0;
}
