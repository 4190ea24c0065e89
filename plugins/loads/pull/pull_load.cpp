// SPDX-License-Identifier: GPL-3.0-or-later
// pull: constant point forces on chosen vertices while start ≤ t < end, e.g. to pull a beam's
// tip and let it go.
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/loads/load.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct::pull {
namespace {

// The [pull] section.
struct PullSettings {
  std::vector<Index> vertices;
  std::vector<double> force = {0, 0, 0};  // "x y z", or one "x y z" per vertex
  double start = 0;
  double end = std::numeric_limits<double>::infinity();
};

const OptionSet<PullSettings>& pull_options() {
  using S = PullSettings;
  static const auto options =
      OptionSet<S>("pull", "point forces on vertices during a time window")
          .indices("vertices", &S::vertices, "0-based vertices to pull, e.g. \"12 40 41\"")
          .numbers("force", &S::force, "N",
                   "force on each vertex: \"x y z\" (the same on every vertex) or one \"x y z\" "
                   "per listed vertex")
          .number("start", &S::start, "s", "time the forces start acting")
          .number("end", &S::end, "s", "time the forces stop acting (inf: never)",
                  any_value.or_infinite());
  return options;
}

const OptionTable& options() {
  return pull_options().table();
}

class PullLoad final : public Load {
 public:
  PullLoad(std::vector<PointForce> forces, double start, double end)
      : forces_(std::move(forces)), start_(start), end_(end) {}

  void accumulate(const LoadContext& context, ExternalForces& forces) override {
    if (!(context.time >= start_ && context.time < end_)) return;
    const Index n = context.scene.mesh.num_vertices();
    for (const PointForce& p : forces_) {
      if (p.vertex >= n)
        throw Error(
            fmt::format("pull.vertices: vertex {} does not exist (the mesh has {} "
                        "vertices, numbered from 0; a .bou file's indices count from 1)",
                        p.vertex, n));
      forces.point_forces.push_back(p);
    }
  }

 private:
  std::vector<PointForce> forces_;
  double start_;
  double end_;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  const Config& config = context.config;
  const PullSettings s = pull_options().read(config);
  if (s.vertices.empty())
    throw config.value_error(
        "pull.vertices", "lists no vertex; name the vertices to pull, e.g. pull.vertices = 12 40");
  const std::vector<double>& f = s.force;
  if (f.size() != 3 && f.size() != 3 * s.vertices.size())
    throw config.value_error(
        "pull.force", fmt::format("expected \"x y z\" or one \"x y z\" per vertex ({} numbers "
                                  "for {} vertices), found {} numbers",
                                  3 * s.vertices.size(), s.vertices.size(), f.size()));
  if (!(s.end > s.start))
    throw config.value_error("pull.end", fmt::format("the window must end after it starts "
                                                     "(pull.start = {})",
                                                     s.start));
  std::vector<PointForce> forces;
  for (std::size_t i = 0; i < s.vertices.size(); ++i) {
    const std::size_t k = f.size() == 3 ? 0 : 3 * i;
    forces.push_back({s.vertices[i], Vec3(f[k], f[k + 1], f[k + 2])});
  }
  return std::make_unique<PullLoad>(std::move(forces), s.start, s.end);
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{"pull",
                                  PluginKind::load,
                                  SUBSTRUCT_VERSION,
                                  "constant point forces on chosen vertices during a time window",
                                  &options,
                                  &create};
  return d;
}

}  // namespace substruct::pull

SUBSTRUCT_PLUGIN(substruct::pull::descriptor)
