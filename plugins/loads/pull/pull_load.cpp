// pull: constant point forces on chosen vertices while start ≤ t < end, e.g. to pull a beam's
// tip and let it go.
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/loads/load.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"

namespace substruct::pull {
namespace {

namespace po = boost::program_options;

po::options_description options() {
  po::options_description d("[pull] point forces on vertices during a time window");
  d.add_options()("pull.vertices", po::value<std::string>()->default_value(""),
                  "0-based vertices to pull, e.g. \"12 40 41\"")(
      "pull.force", po::value<std::string>()->default_value("0 0 0"),
      "force on each vertex [N]: \"x y z\" (the same on every vertex) or one \"x y z\" per "
      "listed vertex")("pull.start", po::value<double>()->default_value(0.0),
                       "time the forces start acting [s]")(
      "pull.end",
      po::value<double>()->default_value(std::numeric_limits<double>::infinity(), "inf"),
      "time the forces stop acting [s] (inf: never)");
  return d;
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
                        "vertices, numbered from 0)",
                        p.vertex, n));
      forces.point_forces.push_back(p);
    }
  }

 private:
  std::vector<PointForce> forces_;
  double start_;
  double end_;
};

std::vector<double> numbers(const Config& config, const std::string& key) {
  std::vector<double> values;
  for (const std::string& item : config.list(key)) {
    std::istringstream in(item);
    double x = 0;
    if (!(in >> x) || !in.eof() || !std::isfinite(x))
      throw Error(fmt::format("{}: expected numbers, found '{}'", key, item));
    values.push_back(x);
  }
  return values;
}

std::unique_ptr<Component> create(const PluginContext& context) {
  const Config& config = context.config;
  const std::vector<Index> vertices = config.indices("pull.vertices");
  if (vertices.empty())
    throw Error(
        "pull.vertices lists no vertex; name the vertices to pull, e.g. "
        "pull.vertices = 12 40");
  const std::vector<double> f = numbers(config, "pull.force");
  if (f.size() != 3 && f.size() != 3 * vertices.size())
    throw Error(
        fmt::format("pull.force: expected \"x y z\" or one \"x y z\" per vertex ({} "
                    "numbers for {} vertices), found {} numbers",
                    3 * vertices.size(), vertices.size(), f.size()));
  const double start = config.get<double>("pull.start");
  const double end = config.get<double>("pull.end");
  if (std::isnan(start) || std::isnan(end) || !(end > start))
    throw Error(
        fmt::format("pull.start = {} and pull.end = {}: the window must end after it "
                    "starts",
                    start, end));
  std::vector<PointForce> forces;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const std::size_t k = f.size() == 3 ? 0 : 3 * i;
    forces.push_back({vertices[i], Vec3(f[k], f[k + 1], f[k + 2])});
  }
  return std::make_unique<PullLoad>(std::move(forces), start, end);
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
