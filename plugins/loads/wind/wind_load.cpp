// wind: a randomized wind field (Zhao 2014, ch. 6): a constant wind plus a space-time noise made
// of `octaves` components of 4D improved Perlin noise, component i at 2^i times the base
// frequencies and weighted (1 − decay)^i. A sample vertex of a domain feels
//   f = (m_domain / s) (strength · direction + turbulence · Σ_i (1 − decay)^i n(2^i (x/scale, f
//   t)))
// where n is a 3-vector of noises (one per axis, from offset lattices). Deterministic: the same
// seed gives the same field.
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include "perlin_noise.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/loads/load.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"
#include "wind_samples.hpp"

namespace substruct::wind {
namespace {

namespace po = boost::program_options;

po::options_description options() {
  po::options_description d("[wind] constant wind plus 4D Perlin-noise turbulence");
  d.add_options()("wind.direction", po::value<std::string>()->default_value("1 0 0"),
                  "direction of the constant wind \"x y z\" (normalised)")(
      "wind.strength", po::value<double>()->default_value(2.0, "2"),
      "constant wind as an acceleration of the sampled mass [m/s²]")(
      "wind.turbulence", po::value<double>()->default_value(2.0, "2"),
      "amplitude of the noise part [m/s²] (0: a steady wind)")(
      "wind.scale", po::value<double>()->default_value(0.0, "0"),
      "length of the noise's largest features [m]; 0 = half the object's size")(
      "wind.frequency", po::value<double>()->default_value(0.5, "0.5"),
      "temporal frequency of the noise's slowest component [Hz]")(
      "wind.octaves", po::value<int>()->default_value(3),
      "noise components, each at twice the frequencies of the previous")(
      "wind.decay", po::value<double>()->default_value(0.05, "0.05"),
      "decay rate d: component i is weighted (1 − d)^i")(
      "wind.samples", po::value<int>()->default_value(5),
      "sample vertices per domain where the wind acts")(
      "wind.seed", po::value<unsigned long>()->default_value(1), "seed of the noise");
  return d;
}

struct WindSettings {
  Vec3 direction = Vec3::UnitX();
  double strength = 0, turbulence = 0, scale = 0, frequency = 0, decay = 0;
  int octaves = 0, samples = 0;
  unsigned long seed = 1;
};

class WindLoad final : public Load {
 public:
  explicit WindLoad(const WindSettings& s) : s_(s), noise_(s.seed) {}

  void accumulate(const LoadContext& context, ExternalForces& forces) override {
    if (scene_ != &context.scene) {
      samples_ = wind_samples(context.scene, s_.samples);
      scale_ = s_.scale > 0 ? s_.scale : 0.5 * context.scene.size();
      scene_ = &context.scene;
    }
    for (const WindSample& sample : samples_) {
      const Vec3 x = context.positions.rows() > sample.vertex
                         ? Vec3(context.positions.row(sample.vertex).transpose())
                         : Vec3(context.scene.mesh.vertices.row(sample.vertex).transpose());
      forces.point_forces.push_back({sample.vertex, sample.mass * wind(x, context.time)});
    }
  }

  /// The wind acceleration at world point x and time t [m/s²].
  Vec3 wind(const Vec3& x, double t) const {
    Vec3 w = s_.strength * s_.direction;
    if (s_.turbulence == 0) return w;
    const Vec3 p = x / scale_;
    const double tau = s_.frequency * t;
    double weight = 1, frequency = 1;
    for (int i = 0; i < s_.octaves; ++i) {
      for (int c = 0; c < 3; ++c) {
        // One noise per axis from lattices offset by irrational-looking amounts.
        const double o = 37.17 * (c + 1);
        w[c] += s_.turbulence * weight *
                noise_(frequency * p[0] + o, frequency * p[1] - o, frequency * p[2] + 0.5 * o,
                       frequency * tau + 1.3 * o);
      }
      weight *= 1 - s_.decay;
      frequency *= 2;
    }
    return w;
  }

 private:
  WindSettings s_;
  PerlinNoise4 noise_;
  const Scene* scene_ = nullptr;
  std::vector<WindSample> samples_;
  double scale_ = 1;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  const Config& c = context.config;
  WindSettings s;
  s.direction = c.vec3("wind.direction");
  if (!s.direction.allFinite() || s.direction.norm() == 0)
    throw Error(fmt::format("wind.direction: expected a non-zero \"x y z\", found '{}'",
                            c.get<std::string>("wind.direction")));
  s.direction.normalize();
  s.strength = c.get<double>("wind.strength");
  s.turbulence = c.get<double>("wind.turbulence");
  s.scale = c.get<double>("wind.scale");
  s.frequency = c.get<double>("wind.frequency");
  s.decay = c.get<double>("wind.decay");
  s.octaves = c.get<int>("wind.octaves");
  s.samples = c.get<int>("wind.samples");
  s.seed = c.get<unsigned long>("wind.seed");
  if (!std::isfinite(s.strength) || !std::isfinite(s.turbulence) || s.turbulence < 0)
    throw Error("wind.strength must be finite and wind.turbulence ≥ 0");
  if (!(s.scale >= 0) || !(s.frequency >= 0) || !std::isfinite(s.frequency))
    throw Error("wind.scale and wind.frequency must be ≥ 0");
  if (!(s.decay >= 0 && s.decay <= 1))
    throw Error(fmt::format("wind.decay must be in [0, 1], found {}", s.decay));
  if (s.octaves < 1 || s.octaves > 16)
    throw Error(fmt::format("wind.octaves must be in [1, 16], found {}", s.octaves));
  if (s.samples < 1)
    throw Error(fmt::format("wind.samples must be ≥ 1 per domain, found {}", s.samples));
  return std::make_unique<WindLoad>(s);
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "wind",
      PluginKind::load,
      SUBSTRUCT_VERSION,
      "constant wind plus 4D Perlin-noise turbulence on sample vertices of every domain",
      &options,
      &create};
  return d;
}

}  // namespace substruct::wind

SUBSTRUCT_PLUGIN(substruct::wind::descriptor)
