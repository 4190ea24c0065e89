// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpu_geometry_layout.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>

#include <Eigen/LU>
#include <Eigen/SVD>

#include "substruct/core/error.hpp"

namespace substruct::viewer {
namespace {

// Weights of one vertex's embedding that agree to this are the same embedding.
constexpr double kSameWeight = 1e-9;

int chunks_of(Eigen::Index r) {
  return static_cast<int>((r + 3) / 4);
}

// One domain's part of a render vertex (see the header): α, X̃, Ũ and the rest normal ñ, in the
// axes of the domain's rest shape and basis.
struct Term {
  int domain = 0;
  double alpha = 0;
  Vec3 rest = Vec3::Zero();
  Eigen::MatrixXd basis;  // 3×r
  Vec3 normal = Vec3::Zero();
};
struct VertexTerms {
  Vec3 constant = Vec3::Zero();
  std::vector<Term> terms;  // ascending domain
};

// R'_0: the rotation taking domain d's source rest shape onto its world rest positions (Kabsch),
// the frame its rest normals are turned back by. Identity for fewer than three vertices.
Mat3 rest_rotation(const ReducedGeometry& geometry, std::size_t d) {
  const DomainLayout& own = geometry.domains[d];
  const DomainLayout& src = geometry.source(d);
  const auto n = static_cast<Index>(own.global_vertex.size());
  if (n < 3) return Mat3::Identity();
  Vec3 a = Vec3::Zero(), b = Vec3::Zero();
  for (Index l = 0; l < n; ++l) {
    a += src.rest.row(l).transpose();
    b += geometry.rest_positions.row(own.global_vertex[std::size_t(l)]).transpose();
  }
  a /= double(n);
  b /= double(n);
  Mat3 H = Mat3::Zero();
  for (Index l = 0; l < n; ++l)
    H += (src.rest.row(l).transpose() - a) *
         (geometry.rest_positions.row(own.global_vertex[std::size_t(l)]).transpose() - b)
             .transpose();
  const Eigen::JacobiSVD<Mat3> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 fix = Mat3::Identity();
  fix(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0 ? -1 : 1;
  return svd.matrixV() * fix * svd.matrixU().transpose();
}

struct Builder {
  const ReducedGeometry& geometry;
  const RenderSurface& surface;
  const Points& normals;
  std::vector<std::vector<std::pair<int, Index>>> covering;  // global vertex → (domain, local)
  std::vector<Mat3> rest_rotations;

  Builder(const ReducedGeometry& g, const RenderSurface& s, const Points& n)
      : geometry(g), surface(s), normals(n) {
    covering.resize(std::size_t(g.num_vertices()));
    for (std::size_t d = 0; d < g.domains.size(); ++d) {
      const auto& ids = g.domains[d].global_vertex;
      for (std::size_t l = 0; l < ids.size(); ++l)
        covering[std::size_t(ids[l])].emplace_back(int(d), Index(l));
      rest_rotations.push_back(rest_rotation(g, d));
    }
  }

  VertexTerms terms(Index k) const {
    VertexTerms vt;
    for (int a = 0; a < 4; ++a) {
      const double w = surface.embedding.weights(k, a);
      if (w == 0) continue;
      const Index g = surface.embedding.vertices(k, a);
      const double c = geometry.inverse_count[g];
      if (c == 0) {
        vt.constant += w * geometry.rest_positions.row(g).transpose();
        continue;
      }
      for (const auto& [d, l] : covering[std::size_t(g)]) {
        auto it = std::find_if(vt.terms.begin(), vt.terms.end(),
                               [d = d](const Term& t) { return t.domain == d; });
        if (it == vt.terms.end()) {
          Term t;
          t.domain = d;
          t.basis = Eigen::MatrixXd::Zero(3, geometry.r(std::size_t(d)));
          it = vt.terms.insert(std::upper_bound(vt.terms.begin(), vt.terms.end(), d,
                                                [](int x, const Term& u) { return x < u.domain; }),
                               std::move(t));
        }
        const DomainLayout& src = geometry.source(std::size_t(d));
        it->alpha += w * c;
        it->rest += w * c * src.rest.row(l).transpose();
        if (src.U.cols() > 0) it->basis += w * c * src.U.block(3 * l, 0, 3, src.U.cols());
      }
    }
    for (Term& t : vt.terms)
      t.normal =
          t.alpha * rest_rotations[std::size_t(t.domain)].transpose() * normals.row(k).transpose();
    return vt;
  }

  // A vertex of one domain alone: its tet vertices in that domain's local numbering with their
  // weights (merged, ascending), the key that finds the same vertex of a copy.
  std::vector<std::pair<Index, double>> signature(Index k, int d) const {
    const auto& ids = geometry.domains[std::size_t(d)].global_vertex;
    std::vector<std::pair<Index, double>> sig;
    for (int a = 0; a < 4; ++a) {
      const double w = surface.embedding.weights(k, a);
      if (w == 0) continue;
      const Index g = surface.embedding.vertices(k, a);
      const auto l = Index(std::lower_bound(ids.begin(), ids.end(), g) - ids.begin());
      auto it = std::find_if(sig.begin(), sig.end(), [&](const auto& s) { return s.first == l; });
      if (it == sig.end())
        sig.emplace_back(l, w);
      else
        it->second += w;
    }
    std::sort(sig.begin(), sig.end());
    return sig;
  }
};

// Appends a vertex's entries to the model buffer; returns (first texel, count). `frame` < 0:
// every entry's frame is the drawn copy's.
std::pair<float, float> append_entries(const VertexTerms& vt, const std::vector<int>& frame_offset,
                                       bool copy_frame, std::vector<float>& model) {
  const auto first = float(model.size() / 4);
  for (const Term& t : vt.terms) {
    const int nc = chunks_of(t.basis.cols());
    const float frame = copy_frame ? -1.f : float(frame_offset[std::size_t(t.domain)]);
    for (float v :
         {frame, float(nc), 0.f, 0.f, float(t.rest.x()), float(t.rest.y()), float(t.rest.z()),
          float(t.alpha), float(t.normal.x()), float(t.normal.y()), float(t.normal.z()), 0.f})
      model.push_back(v);
    for (int row = 0; row < 3; ++row)
      for (int j = 0; j < 4 * nc; ++j)
        model.push_back(j < t.basis.cols() ? float(t.basis(row, j)) : 0.f);
  }
  return {first, float(vt.terms.size())};
}

std::array<Index, 3> canonical(std::array<Index, 3> t) {
  std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
  return t;
}

}  // namespace

GpuGeometryLayout gpu_geometry_layout(const ReducedGeometry& geometry, const RenderSurface& surface,
                                      const Points& normals) {
  for (std::size_t d = 0; d < geometry.domains.size(); ++d)
    if (geometry.source(d).Psi.size() != 0)
      throw Error(fmt::format(
          "domain {} is drawn with modal warping (a rotation basis Ψ), which the shader does "
          "not evaluate",
          d));
  const Builder b(geometry, surface, normals);
  const Index nk = surface.num_vertices();
  const std::size_t nd = geometry.domains.size();
  std::vector<VertexTerms> terms(static_cast<std::size_t>(nk));
  std::vector<int> pure(static_cast<std::size_t>(nk), -1);  // the one domain it belongs to
  for (Index k = 0; k < nk; ++k) {
    terms[std::size_t(k)] = b.terms(k);
    const VertexTerms& vt = terms[std::size_t(k)];
    if (vt.constant.isZero() && vt.terms.size() == 1) pure[std::size_t(k)] = vt.terms[0].domain;
  }
  const auto holder = [&](int d) {
    return geometry.domains[std::size_t(d)].instance_of >= 0
               ? geometry.domains[std::size_t(d)].instance_of
               : d;
  };

  // Triangles of one instanced domain alone, per domain; the others go to the common draw.
  std::vector<std::vector<std::array<Index, 3>>> own(nd);
  std::vector<std::array<Index, 3>> common;
  for (Index t = 0; t < surface.triangles.rows(); ++t) {
    const std::array<Index, 3> tri{surface.triangles(t, 0), surface.triangles(t, 1),
                                   surface.triangles(t, 2)};
    const int d = pure[std::size_t(tri[0])];
    if (d >= 0 && geometry.shares_basis[std::size_t(d)] && pure[std::size_t(tri[1])] == d &&
        pure[std::size_t(tri[2])] == d)
      own[std::size_t(d)].push_back(tri);
    else
      common.push_back(tri);
  }

  // Per representative: the copies whose triangles are its own, vertex for vertex.
  struct Instanced {
    int model = 0;
    std::vector<Index> vertices;              // the representative's render vertices drawn
    std::vector<unsigned> triangles;          // over `vertices`
    std::vector<int> domains;                 // matched copies (the representative first)
    std::vector<std::vector<Index>> renders;  // per copy: render vertex of each of `vertices`
  };
  std::vector<Instanced> instanced;
  for (std::size_t h = 0; h < nd; ++h) {
    if (geometry.domains[h].instance_of >= 0 || !geometry.shares_basis[h] || own[h].empty())
      continue;
    Instanced group;
    group.model = int(h);
    std::map<std::vector<Index>, std::vector<std::pair<Index, std::vector<double>>>> by_locals;
    std::map<Index, unsigned> local;  // representative's render vertex → group vertex
    std::vector<std::array<Index, 3>> reference;
    for (const auto& tri : own[h]) {
      for (Index k : tri)
        if (local.emplace(k, unsigned(group.vertices.size())).second) {
          group.vertices.push_back(k);
          std::vector<Index> locals;
          std::vector<double> weights;
          for (const auto& [l, w] : b.signature(k, int(h))) {
            locals.push_back(l);
            weights.push_back(w);
          }
          by_locals[locals].emplace_back(k, weights);
        }
      group.triangles.insert(group.triangles.end(), {local[tri[0]], local[tri[1]], local[tri[2]]});
      reference.push_back(canonical(tri));
    }
    std::sort(reference.begin(), reference.end());
    for (std::size_t d = h; d < nd; ++d) {
      if (holder(int(d)) != int(h)) continue;
      std::map<Index, Index> to_reference;  // copy's render vertex → representative's
      bool matched = !own[d].empty();
      std::vector<std::array<Index, 3>> mapped;
      for (const auto& tri : own[d]) {
        std::array<Index, 3> m{};
        for (int c = 0; c < 3 && matched; ++c) {
          const auto sig = b.signature(tri[std::size_t(c)], int(d));
          std::vector<Index> locals;
          for (const auto& s : sig) locals.push_back(s.first);
          const auto found = by_locals.find(locals);
          matched = false;
          if (found == by_locals.end()) break;
          for (const auto& [k, weights] : found->second) {
            bool same = true;
            for (std::size_t s = 0; s < sig.size(); ++s)
              same = same && std::abs(sig[s].second - weights[s]) <= kSameWeight;
            if (!same) continue;
            m[std::size_t(c)] = k;
            to_reference[tri[std::size_t(c)]] = k;
            matched = true;
            break;
          }
        }
        if (!matched) break;
        mapped.push_back(canonical(m));
      }
      if (matched) {
        std::sort(mapped.begin(), mapped.end());
        matched = mapped == reference;
      }
      if (!matched) {
        common.insert(common.end(), own[d].begin(), own[d].end());
        continue;
      }
      std::map<Index, Index> from_reference;
      for (const auto& [mine, ref] : to_reference) from_reference.emplace(ref, mine);
      std::vector<Index> render;
      for (Index k : group.vertices) render.push_back(from_reference.at(k));
      group.domains.push_back(int(d));
      group.renders.push_back(std::move(render));
    }
    if (!group.domains.empty()) instanced.push_back(std::move(group));
  }

  GpuGeometryLayout layout;
  layout.frame_offset.assign(nd, -1);
  layout.chunks.resize(nd);
  for (std::size_t d = 0; d < nd; ++d) layout.chunks[d] = chunks_of(geometry.r(d));
  std::size_t next = 0;
  const auto place = [&](int d) {
    layout.frame_offset[std::size_t(d)] = int(next);
    next += std::size_t(kFrameHeader + layout.chunks[std::size_t(d)]);
  };
  for (const Instanced& g : instanced)
    for (int d : g.domains) place(d);
  for (std::size_t d = 0; d < nd; ++d)
    if (layout.frame_offset[d] < 0) place(int(d));
  layout.frame_texels = next;
  layout.model_domains = instanced.size();

  // The common draw first: every entry names its domain's frame.
  GpuDrawGroup first;
  std::map<Index, unsigned> local;
  for (const auto& tri : common)
    for (Index k : tri) {
      const auto [it, added] = local.emplace(k, unsigned(first.render_vertex.size()));
      if (added) {
        first.render_vertex.push_back(k);
        const VertexTerms& vt = terms[std::size_t(k)];
        const auto [e, n] = append_entries(vt, layout.frame_offset, false, layout.model);
        first.entries.insert(first.entries.end(), {e, n});
        first.constant.insert(first.constant.end(), {float(vt.constant.x()), float(vt.constant.y()),
                                                     float(vt.constant.z())});
      }
      first.triangles.push_back(it->second);
    }
  layout.groups.push_back(std::move(first));
  for (const Instanced& g : instanced) {
    GpuDrawGroup group;
    group.instanced = true;
    group.triangles = g.triangles;
    group.domains = g.domains;
    group.frame_base = layout.frame_offset[std::size_t(g.domains[0])];
    group.frame_stride = kFrameHeader + layout.chunks[std::size_t(g.model)];
    for (Index k : g.vertices) {
      const auto [e, n] =
          append_entries(terms[std::size_t(k)], layout.frame_offset, true, layout.model);
      group.entries.insert(group.entries.end(), {e, n});
      group.constant.insert(group.constant.end(), {0.f, 0.f, 0.f});
    }
    for (const auto& render : g.renders)
      group.render_vertex.insert(group.render_vertex.end(), render.begin(), render.end());
    layout.groups.push_back(std::move(group));
  }
  return layout;
}

void pack_frames(const GpuGeometryLayout& layout, const ReducedGeometry& geometry,
                 std::span<const DomainPose> poses, std::span<const float> colours,
                 std::vector<float>& texels) {
  if (poses.size() != geometry.domains.size())
    throw Error(fmt::format("gpu geometry: {} poses for {} domains", poses.size(),
                            geometry.domains.size()));
  texels.assign(4 * layout.frame_texels, 0.f);
  for (std::size_t d = 0; d < poses.size(); ++d) {
    const DomainLayout& own = geometry.domains[d];
    const DomainPose& pose = poses[d];
    // The frame in the axes of the rest shape and basis (an instance's representative's).
    const Mat3 R = own.instance_of >= 0 ? Mat3(pose.R * own.rotation) : pose.R;
    const Vec3 p = own.instance_of >= 0 ? Vec3(pose.p + pose.R * own.offset) : pose.p;
    float* f = texels.data() + 4 * std::size_t(layout.frame_offset[d]);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) f[4 * i + j] = float(R(i, j));
      f[4 * i + 3] = float(p[i]);
    }
    for (int c = 0; c < 4; ++c) f[12 + c] = colours[4 * d + std::size_t(c)];
    const Index r = geometry.r(d);
    if (pose.q.size() != r)
      throw Error(
          fmt::format("gpu geometry: domain {} has r = {} but its pose {} q", d, r, pose.q.size()));
    for (Index j = 0; j < r; ++j) f[4 * kFrameHeader + j] = float(pose.q[j]);
  }
}

}  // namespace substruct::viewer
