// SPDX-License-Identifier: GPL-3.0-or-later
// wind: a randomized wind field (Zhao 2014, ch. 6): a constant wind plus a space-time noise made
// of `octaves` components of 4D improved Perlin noise, component i at 2^i times the base
// frequencies and weighted (1 − decay)^i. A sample vertex of a domain feels
//   f = (m_domain / s) (strength · direction + turbulence · Σ_i (1 − decay)^i n(2^i (x/scale, f
//   t)))
// where n is a 3-vector of noises (one per axis, from offset lattices). Deterministic: the same
// seed gives the same field.
#include <memory>
#include <vector>

#include "perlin_noise.hpp"
#include "substruct/config/config.hpp"
#include "substruct/loads/load.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/scene/scene.hpp"
#include "wind_samples.hpp"

namespace substruct::wind {
namespace {

// The [wind] section.
struct WindSettings {
  Vec3 direction = Vec3::UnitX();  // normalised by the load
  double strength = 2;             // [m/s²]
  double turbulence = 2;           // [m/s²]
  double scale = 0;                // [m]; 0: half the object's size
  double frequency = 0.5;          // [Hz]
  int octaves = 3;
  double decay = 0.05;
  int samples = 5;
  unsigned long seed = 1;
};

const OptionSet<WindSettings>& wind_options() {
  using S = WindSettings;
  static const auto options =
      OptionSet<S>("wind", "constant wind plus 4D Perlin-noise turbulence")
          .vec3("direction", &S::direction, "", "direction of the constant wind (normalised)")
          .number("strength", &S::strength, "m/s²",
                  "constant wind as an acceleration of the sampled mass")
          .number("turbulence", &S::turbulence, "m/s²",
                  "amplitude of the noise part (0: a steady wind)", non_negative)
          .number("scale", &S::scale, "m",
                  "length of the noise's largest features; 0 = half the object's size",
                  non_negative)
          .number("frequency", &S::frequency, "Hz",
                  "temporal frequency of the noise's slowest component", non_negative)
          .integer("octaves", &S::octaves, "",
                   "noise components, each at twice the frequencies of the previous",
                   in_range(1, 16))
          .number("decay", &S::decay, "", "decay rate d: component i is weighted (1 − d)^i",
                  in_range(0, 1))
          .integer("samples", &S::samples, "", "sample vertices per domain where the wind acts",
                   at_least(1))
          .integer("seed", &S::seed, "", "seed of the noise");
  return options;
}

const OptionTable& options() {
  return wind_options().table();
}

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
  WindSettings s = wind_options().read(context.config);
  if (s.direction.norm() == 0)
    throw context.config.value_error("wind.direction", "expected a non-zero \"x y z\"");
  s.direction.normalize();
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
