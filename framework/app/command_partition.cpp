// SPDX-License-Identifier: GPL-3.0-or-later
// substruct partition SCENE.ini --method cpca|metis --domains N [--out FILE] …: writes a
// per-element domain file for `[scene] domains = FILE`, by clustered PCA of the force-displacement
// vectors (Huang et al. 2006, §7) or by METIS (what auto:N does), for comparison.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/config/config.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/config/solver_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/parse_number.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/domains/element_partition.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/reduction/cpca_partition.hpp"
#include "substruct/scene/scene.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: substruct partition SCENE.ini --method cpca|metis --domains N [--out FILE]\n"
    "                           [--node-clusters C] [--components M] [--min-fragment E]\n"
    "                           [--seed S] [--section.key=value …]\n"
    "  Writes a domain file (one domain id per element) for --scene.domains=FILE.\n"
    "  cpca   Huang et al. 2006, §7: A = M + hD + h²K of the whole object (consistent mass,\n"
    "         linear stiffness of the scene's materials, D = αM + βK from [material],\n"
    "         h = [run] dt, fixed vertices removed); the force-displacement vectors G = A⁻¹,\n"
    "         their columns summed over C node clusters (G S from solves with [solvers]\n"
    "         linear); each element gets the sum of its four nodes' rows; clustered PCA of those\n"
    "         into N clusters of M components; each cluster split into face-connected pieces,\n"
    "         pieces of fewer than E elements merged into the neighbour they share most faces\n"
    "         with; domains numbered by their lowest element.\n"
    "  metis  METIS on the element dual graph, as [scene] domains = auto:N.\n"
    "  --out FILE          default SCENE_DIR/<scene>.<method>-N.domains\n"
    "  --node-clusters C   default min(free vertices, max(48, 6N))\n"
    "  --components M      principal components per cluster (default 6)\n"
    "  --min-fragment E    default max(1, tets / (10 N))\n"
    "  --seed S            the clustered PCA's start (default 1)\n";

struct Options {
  SceneArguments scene;
  std::string method;
  int domains = 0;
  fs::path out;
  CpcaPartitionSettings cpca;
};

long parse_count(const std::string& name, const std::string& text, long lowest) {
  const std::optional<long> value = parse_integer(text);
  if (!value || *value < lowest || *value > std::numeric_limits<int>::max())
    throw Error(
        fmt::format("partition: {} expects a whole number ≥ {}, found '{}'", name, lowest, text));
  return *value;
}

/// Options from the arguments; false when --help was asked.
bool parse(const Args& args, Options& o) {
  Args rest;  // the scene, --section.key=value and the global options
  OptionArguments arg("partition", args);
  while (arg.next()) {
    const std::string& a = arg.current();
    if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      return false;
    }
    const auto count = [&](const std::string& name, long lowest) {
      return parse_count(name, arg.value(name), lowest);
    };
    if (arg.is("--method")) {
      o.method = arg.value("--method");
      if (o.method != "cpca" && o.method != "metis")
        throw Error(fmt::format("partition: --method is cpca or metis, found '{}'", o.method));
    } else if (arg.is("--domains")) {
      o.domains = static_cast<int>(count("--domains", 1));
    } else if (arg.is("--out")) {
      o.out = arg.value("--out");
    } else if (arg.is("--node-clusters")) {
      o.cpca.node_clusters = static_cast<int>(count("--node-clusters", 1));
    } else if (arg.is("--components")) {
      o.cpca.components = static_cast<int>(count("--components", 1));
    } else if (arg.is("--min-fragment")) {
      o.cpca.min_fragment = static_cast<Index>(count("--min-fragment", 1));
    } else if (arg.is("--seed")) {
      o.cpca.seed = static_cast<std::uint64_t>(count("--seed", 0));
    } else {
      rest.push_back(a);  // the scene and --section.key=value
    }
  }
  o.scene = parse_scene_arguments("partition", rest, arg.asked());
  if (o.method.empty())
    throw Error("partition: which method? --method cpca or --method metis (see --help)");
  if (o.domains < 1) throw Error("partition: how many domains? --domains N (see --help)");
  return true;
}

std::string domain_sizes(const ElementPartition& p) {
  std::vector<Index> size(static_cast<std::size_t>(p.num_domains), 0);
  for (int d : p.domain_of_element) ++size[static_cast<std::size_t>(d)];
  std::string s;
  for (Index n : size) s += fmt::format("{}{}", s.empty() ? "" : " ", n);
  const auto [lo, hi] = std::minmax_element(size.begin(), size.end());
  return fmt::format("{} (min {}, max {})", s, *lo, *hi);
}

}  // namespace

int command_partition(const Args& raw_args) {
  Options o;
  if (!parse(raw_args, o)) return 0;
  const auto start = Clock::now();
  PluginHost host(o.scene.global.plugin_paths);
  const Config config = Config::load(o.scene.scene_file, o.scene.overrides, host);
  const Scene scene = load_scene(config);
  const TetMesh& mesh = scene.mesh;
  const fs::path scene_dir = fs::absolute(scene.file).parent_path();
  const fs::path out =
      o.out.empty() ? scene_dir / fmt::format("{}.{}-{}.domains", scene.name, o.method, o.domains)
                    : fs::absolute(o.out);
  std::printf("scene      %s: %d vertices, %d tets, %zu fixed vertices\n", scene.name.c_str(),
              mesh.num_vertices(), mesh.num_elements(), scene.fixed_vertices.size());

  ElementPartition partition;
  std::string how;
  if (o.method == "metis") {
    partition = metis_element_partition(mesh, o.domains);
    how = fmt::format("METIS on the element dual graph (as domains = auto:{})", o.domains);
    std::printf("method     metis: %d domains\n", partition.num_domains);
  } else {
    CpcaPartitionSettings settings = o.cpca;
    settings.domains = o.domains;
    settings.dt = run_options().read(config).dt;
    settings.rayleigh_mass = scene.rayleigh_mass;
    settings.rayleigh_stiffness = scene.rayleigh_stiffness;
    const SolverProvider solvers(host, config);
    const std::unique_ptr<LinearSolver> solver = solvers.linear();
    std::printf(
        "system     A = M + hD + h²K, linear stiffness: h = %g s, α = %g 1/s, β = %g s; "
        "solver %s\n",
        settings.dt, settings.rayleigh_mass, settings.rayleigh_stiffness,
        solver_options().read(config).linear.c_str());
    std::fflush(stdout);
    const CpcaPartitionReport r =
        cpca_element_partition(mesh, scene.fixed_vertices, settings, *solver);
    partition = r.partition;
    std::printf("nodes      %d node clusters: element rows of %d entries (G S, %d solves)\n",
                r.node_clusters, 3 * r.node_clusters, 3 * r.node_clusters);
    std::printf(
        "cpca       %d clusters of %d components, %d iterations%s\n", r.clusters, r.components,
        r.cpca_iterations,
        r.zero_elements > 0
            ? fmt::format("; {} tets with all vertices fixed took their neighbours' cluster",
                          r.zero_elements)
                  .c_str()
            : "");
    std::printf("pieces     %d face-connected pieces, %d fragments of < %d tets merged\n", r.pieces,
                r.merged, r.min_fragment);
    std::printf("time       assembly %.3f s, solves %.3f s, cpca %.3f s, split %.3f s\n",
                r.seconds_assembly, r.seconds_solve, r.seconds_cpca, r.seconds_split);
    how = fmt::format(
        "clustered PCA of the force-displacement vectors (Huang et al. 2006, §7): h = {:g} s, "
        "α = {:g}, β = {:g}, {} node clusters, {} components, seed {}, {} CPCA clusters, "
        "{} pieces, {} fragments of < {} tets merged",
        settings.dt, settings.rayleigh_mass, settings.rayleigh_stiffness, r.node_clusters,
        r.components, settings.seed, r.clusters, r.pieces, r.merged, r.min_fragment);
  }
  validate_element_partition(partition, mesh.num_elements());

  std::printf("domains    %d, tets per domain: %s\n", partition.num_domains,
              domain_sizes(partition).c_str());
  std::printf("interface  %d vertices shared by domains\n",
              count_interface_vertices(mesh, partition));
  std::ostringstream text;
  text << "# substruct partition --method " << o.method << " --domains " << o.domains << " of "
       << scene.file.filename().string() << " (" << mesh.num_elements()
       << " tets): " << partition.num_domains << " domains\n# " << how
       << "\n# one domain id per element, in element order; use with --scene.domains=FILE\n";
  for (int d : partition.domain_of_element) text << d << "\n";
  if (out.has_parent_path()) fs::create_directories(out.parent_path());
  write_file_atomically(out, text.str());
  std::printf("wrote      %s (%.3f s in all)\n", out.c_str(), seconds_since(start));
  const fs::path relative = out.lexically_relative(scene_dir);
  const bool inside = !relative.empty() && *relative.begin() != "..";
  std::printf("use it     substruct run %s --scene.domains=%s\n", o.scene.scene_file.c_str(),
              (inside ? relative : out).c_str());
  return 0;
}

SUBSTRUCT_COMMAND("partition", "SCENE.ini --method cpca|metis --domains N [--out FILE] …",
                  "cut a scene's object into domains (clustered PCA or METIS), write the file",
                  command_partition);

}  // namespace substruct::cli
