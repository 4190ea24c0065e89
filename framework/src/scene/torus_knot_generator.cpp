// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/scene/torus_knot_generator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <string>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "substruct/core/error.hpp"

namespace substruct {

namespace {

void require(bool condition, const std::string& what) {
  if (!condition) throw Error("torus knot: " + what);
}

struct Knot {
  int p, q;
  double big, small;  // knot_radius, knot_minor_radius

  Vec3 at(double phi) const {
    const double rho = big + small * std::cos(q * phi);
    return {-rho * std::sin(p * phi), rho * std::cos(p * phi), small * std::sin(q * phi)};
  }
  Vec3 derivative(double phi) const {
    const double rho = big + small * std::cos(q * phi);
    const double drho = -small * q * std::sin(q * phi);
    return {-drho * std::sin(p * phi) - rho * p * std::cos(p * phi),
            drho * std::cos(p * phi) - rho * p * std::sin(p * phi), small * q * std::cos(q * phi)};
  }
  Vec3 second_derivative(double phi) const {
    const double rho = big + small * std::cos(q * phi);
    const double drho = -small * q * std::sin(q * phi);
    const double ddrho = -small * q * q * std::cos(q * phi);
    const double s = std::sin(p * phi), c = std::cos(p * phi);
    return {-ddrho * s - 2 * drho * p * c + rho * p * p * s,
            ddrho * c - 2 * drho * p * s - rho * p * p * c, -small * q * q * std::sin(q * phi)};
  }
};

/// The 6 prism vertex orders that bring vertex i to position 0 (Dompierre et al. 1999, table 2):
/// bottom triangle 0 1 2, top 3 4 5, vertex 3 above 0, 4 above 1, 5 above 2.
constexpr std::array<std::array<int, 6>, 6> kPrismTurn = {{{0, 1, 2, 3, 4, 5},
                                                           {1, 2, 0, 4, 5, 3},
                                                           {2, 0, 1, 5, 3, 4},
                                                           {3, 5, 4, 0, 2, 1},
                                                           {4, 3, 5, 1, 0, 2},
                                                           {5, 4, 3, 2, 1, 0}}};

/// The 3 tets of a prism, every quad face split on the diagonal through its lowest vertex.
std::array<std::array<Index, 4>, 3> split_prism(const std::array<Index, 6>& prism) {
  const int lowest = static_cast<int>(std::min_element(prism.begin(), prism.end()) - prism.begin());
  std::array<Index, 6> v;
  for (int k = 0; k < 6; ++k)
    v[static_cast<std::size_t>(k)] = prism[static_cast<std::size_t>(
        kPrismTurn[static_cast<std::size_t>(lowest)][static_cast<std::size_t>(k)])];
  if (std::min(v[1], v[5]) < std::min(v[2], v[4]))  // the face 1 2 5 4 split on 1–5
    return {{{v[0], v[1], v[2], v[5]}, {v[0], v[1], v[5], v[4]}, {v[0], v[4], v[5], v[3]}}};
  return {{{v[0], v[1], v[2], v[4]}, {v[0], v[4], v[2], v[5]}, {v[0], v[4], v[5], v[3]}}};
}

}  // namespace

TetMesh generate_torus_knot(const TorusKnotParameters& prm, std::vector<Index>* fixed_vertices,
                            TorusKnotSummary* summary) {
  require(
      prm.p >= 1 && prm.q >= 0 && prm.p <= 1000 && prm.q <= 1000,
      fmt::format("expected 1 ≤ p ≤ 1000 and 0 ≤ q ≤ 1000, found p = {}, q = {}", prm.p, prm.q));
  require(std::gcd(prm.p, prm.q) == 1,
          fmt::format("p and q must be coprime (else it is a link of several loops), found p = "
                      "{}, q = {}",
                      prm.p, prm.q));
  require(
      prm.knot_radius > 0 && prm.knot_minor_radius >= 0 && prm.knot_minor_radius < prm.knot_radius,
      fmt::format("expected 0 ≤ knot minor radius < knot radius, found {} and {}",
                  prm.knot_minor_radius, prm.knot_radius));
  require(prm.tube_radius > 0, fmt::format("tube radius must be > 0, found {}", prm.tube_radius));
  require(prm.sides >= 3 && prm.sides <= 1000,
          fmt::format("sides must be in [3, 1000], found {}", prm.sides));
  require(prm.domains >= 1, fmt::format("domains must be ≥ 1, found {}", prm.domains));
  require(prm.segments >= 3 && prm.segments >= 2 * prm.domains && prm.segments <= 1'000'000,
          fmt::format("segments must be in [max(3, 2 · domains = {}), 1000000], found {}",
                      2 * prm.domains, prm.segments));
  const Material& m = prm.material;
  require(m.youngs_modulus > 0 && m.density > 0 && m.poisson_ratio > -1 && m.poisson_ratio < 0.5,
          "expected E > 0, ρ > 0 and −1 < ν < 0.5");

  const Knot knot{prm.p, prm.q, prm.knot_radius, prm.knot_minor_radius};
  const int S = prm.segments;
  const int K = prm.sides;
  const double two_pi = 2 * std::numbers::pi;

  // The centre line, densely sampled: arc length as a function of φ, the smallest curvature
  // radius, and the clearance between parts more than π · tube_radius apart along it.
  const int samples = 32 * S;
  std::vector<double> arc(static_cast<std::size_t>(samples) + 1, 0.0);
  double min_curvature_radius = std::numeric_limits<double>::infinity();
  for (int i = 0; i < samples; ++i) {
    const double phi = two_pi * i / samples;
    arc[static_cast<std::size_t>(i) + 1] =
        arc[static_cast<std::size_t>(i)] +
        (knot.at(two_pi * (i + 1) / samples) - knot.at(phi)).norm();
    const Vec3 d1 = knot.derivative(phi);
    const double curvature = d1.cross(knot.second_derivative(phi)).norm() / std::pow(d1.norm(), 3);
    if (curvature > 0) min_curvature_radius = std::min(min_curvature_radius, 1 / curvature);
  }
  const double length = arc.back();
  require(prm.tube_radius < min_curvature_radius,
          fmt::format("tube radius {} must be < the centre line's smallest curvature radius {:.6g}",
                      prm.tube_radius, min_curvature_radius));
  double clearance = std::numeric_limits<double>::infinity();
  {
    const int n = std::min(samples, 4096);
    std::vector<Vec3> points(static_cast<std::size_t>(n));
    std::vector<double> at(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const long j = static_cast<long>(i) * samples / n;
      points[static_cast<std::size_t>(i)] = knot.at(two_pi * static_cast<double>(j) / samples);
      at[static_cast<std::size_t>(i)] = arc[static_cast<std::size_t>(j)];
    }
    const double apart = std::numbers::pi * prm.tube_radius;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        const double along = at[static_cast<std::size_t>(j)] - at[static_cast<std::size_t>(i)];
        if (std::min(along, length - along) <= apart) continue;
        clearance = std::min(
            clearance,
            (points[static_cast<std::size_t>(i)] - points[static_cast<std::size_t>(j)]).norm());
      }
  }
  require(2 * prm.tube_radius < clearance,
          fmt::format("tube radius {} must be < half the distance {:.6g} between the nearest far "
                      "parts of the centre line: the tube would intersect itself",
                      prm.tube_radius, clearance));

  // Sections at equal arc length, section `fixed` at φ = 0.
  const int fixed = S / (2 * prm.domains);
  std::vector<Vec3> centre(static_cast<std::size_t>(S)), tangent(static_cast<std::size_t>(S));
  for (int s = 0; s < S; ++s) {
    const double target = length * (((s - fixed) % S + S) % S) / S;
    const auto it = std::upper_bound(arc.begin(), arc.end(), target);
    const auto i = static_cast<std::size_t>(std::clamp<long>(it - arc.begin() - 1, 0, samples - 1));
    const double t = (target - arc[i]) / (arc[i + 1] - arc[i]);
    const double phi = two_pi * (static_cast<double>(i) + t) / samples;
    centre[static_cast<std::size_t>(s)] = knot.at(phi);
    tangent[static_cast<std::size_t>(s)] = knot.derivative(phi).normalized();
  }

  // Rotation-minimising frames by double reflection (Wang et al. 2008) round the loop and back to
  // section 0, then the twist left at the end spread evenly so that the loop closes.
  std::vector<Vec3> normal(static_cast<std::size_t>(S) + 1);
  {
    const Vec3& t0 = tangent[0];
    Vec3 u = Vec3::UnitZ() - Vec3::UnitZ().dot(t0) * t0;
    if (u.norm() < 1e-6) u = Vec3::UnitX() - Vec3::UnitX().dot(t0) * t0;
    normal[0] = u.normalized();
  }
  for (int s = 0; s < S; ++s) {
    const auto a = static_cast<std::size_t>(s), b = static_cast<std::size_t>((s + 1) % S);
    const Vec3 v1 = centre[b] - centre[a];
    const double c1 = v1.squaredNorm();
    const Vec3 r = normal[a] - (2 / c1) * v1.dot(normal[a]) * v1;
    const Vec3 t = tangent[a] - (2 / c1) * v1.dot(tangent[a]) * v1;
    const Vec3 v2 = tangent[b] - t;
    const double c2 = v2.squaredNorm();
    Vec3 next = c2 > 0 ? Vec3(r - (2 / c2) * v2.dot(r) * v2) : r;
    next -= next.dot(tangent[b]) * tangent[b];
    normal[a + 1] = next.normalized();
  }
  const double twist =
      std::atan2(normal[0].cross(normal[static_cast<std::size_t>(S)]).dot(tangent[0]),
                 normal[0].dot(normal[static_cast<std::size_t>(S)]));

  TetMesh mesh;
  mesh.vertices.resize(static_cast<Eigen::Index>(S) * (K + 1), 3);
  for (int s = 0; s < S; ++s) {
    const auto a = static_cast<std::size_t>(s);
    const double turn = -twist * s / S;
    const Vec3 u = std::cos(turn) * normal[a] + std::sin(turn) * tangent[a].cross(normal[a]);
    const Vec3 v = tangent[a].cross(u);
    const Eigen::Index first = static_cast<Eigen::Index>(s) * (K + 1);
    mesh.vertices.row(first) = centre[a].transpose();
    for (int i = 0; i < K; ++i) {
      const double angle = two_pi * i / K;
      mesh.vertices.row(first + 1 + i) =
          (centre[a] + prm.tube_radius * (std::cos(angle) * u + std::sin(angle) * v)).transpose();
    }
  }

  mesh.tets.resize(static_cast<Eigen::Index>(3) * K * S, 4);
  const int digits = static_cast<int>(std::to_string(prm.domains - 1).size());
  std::vector<std::vector<Index>> sets(static_cast<std::size_t>(prm.domains));
  Index e = 0;
  for (int s = 0; s < S; ++s) {
    const Index a = static_cast<Index>(s) * (K + 1);
    const Index b = static_cast<Index>((s + 1) % S) * (K + 1);
    auto& set = sets[static_cast<std::size_t>(static_cast<long>(s) * prm.domains / S)];
    for (int i = 0; i < K; ++i) {
      const Index i0 = 1 + i, i1 = 1 + (i + 1) % K;
      for (std::array<Index, 4> tet : split_prism({a, a + i0, a + i1, b, b + i0, b + i1})) {
        Mat3 dm;
        for (int k = 0; k < 3; ++k)
          dm.col(k) =
              (mesh.vertices.row(tet[static_cast<std::size_t>(k) + 1]) - mesh.vertices.row(tet[0]))
                  .transpose();
        const double det = dm.determinant();
        const double h = std::max({dm.col(0).norm(), dm.col(1).norm(), dm.col(2).norm()});
        require(std::abs(det) > 1e-6 * h * h * h,
                fmt::format("a degenerate tet in segment {} (too few segments or sides for the "
                            "knot's curvature?)",
                            s));
        if (det < 0) std::swap(tet[2], tet[3]);
        for (int k = 0; k < 4; ++k) mesh.tets(e, k) = tet[static_cast<std::size_t>(k)];
        set.push_back(e++);
      }
    }
  }
  for (int d = 0; d < prm.domains; ++d)
    mesh.element_sets[fmt::format("domain{:0{}}", d, digits)] =
        std::move(sets[static_cast<std::size_t>(d)]);
  mesh.materials = {prm.material};
  mesh.element_material.assign(static_cast<std::size_t>(mesh.num_elements()), 0);

  if (fixed_vertices) {
    fixed_vertices->resize(static_cast<std::size_t>(K) + 1);
    std::iota(fixed_vertices->begin(), fixed_vertices->end(), static_cast<Index>(fixed) * (K + 1));
  }
  if (summary) {
    summary->length = length;
    summary->clearance = clearance;
    summary->min_curvature_radius = min_curvature_radius;
    summary->fixed_section = fixed;
    summary->opposite_section = (fixed + S / 2) % S;
  }
  return mesh;
}

}  // namespace substruct
