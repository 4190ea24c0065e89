// SPDX-License-Identifier: GPL-3.0-or-later
#include "coupling_layer.hpp"

#include <algorithm>

#include "substruct/fem/element_kernels.hpp"
#include "substruct/fem/tet_geometry.hpp"

namespace substruct::coupling_elements {

std::vector<CouplingElement> find_coupling_elements(const TetMesh& mesh,
                                                    const std::vector<FloatingDomain>& domains,
                                                    std::vector<std::pair<int, int>>& pairs) {
  std::vector<int> domain_of(static_cast<std::size_t>(mesh.num_vertices()), -1);
  for (const FloatingDomain& d : domains)
    for (Index g : d.global_vertex) domain_of[static_cast<std::size_t>(g)] = d.id;
  const TetGeometry geometry = TetGeometry::build(mesh);
  std::vector<CouplingElement> elements;
  pairs.clear();
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    CouplingElement c;
    c.element = e;
    for (int a = 0; a < 4; ++a) {
      const Index g = mesh.tets(e, a);
      c.domain[static_cast<std::size_t>(a)] = domain_of[static_cast<std::size_t>(g)];
      c.local[static_cast<std::size_t>(a)] =
          domains[static_cast<std::size_t>(c.domain[static_cast<std::size_t>(a)])].local(g);
    }
    if (std::all_of(c.domain.begin(), c.domain.end(), [&](int d) { return d == c.domain[0]; }))
      continue;
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) {
        const int i = c.domain[static_cast<std::size_t>(a)],
                  j = c.domain[static_cast<std::size_t>(b)];
        if (i != j) pairs.emplace_back(std::min(i, j), std::max(i, j));
      }
    c.Dm_inv = geometry.Dm_inv[static_cast<std::size_t>(e)];
    c.volume = geometry.volume[static_cast<std::size_t>(e)];
    const Material& material = mesh.materials[static_cast<std::size_t>(
        mesh.element_material[static_cast<std::size_t>(e)])];
    c.lambda = material.lambda();
    c.mu = material.mu();
    elements.push_back(c);
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return elements;
}

namespace {

void element_terms(const CouplingElement& c, const std::vector<FloatingDomain>& domains,
                   const std::vector<DomainMotion>& motion, MaterialModel model, bool tangent,
                   CouplingElementTerms& t) {
  Vec12 x;
  for (int a = 0; a < 4; ++a) {
    const auto& d = domains[static_cast<std::size_t>(c.domain[static_cast<std::size_t>(a)])];
    x.segment<3>(3 * a) = vertex_position(d, motion[static_cast<std::size_t>(d.id)],
                                          c.local[static_cast<std::size_t>(a)]);
  }
  t.energy = 0;
  element_forces(model, ElementInput{&x, &c.Dm_inv, c.volume, c.lambda, c.mu}, &t.energy,
                 tangent ? &t.f : nullptr, tangent ? &t.K : nullptr);
  t.energy *= c.weight;
  if (!tangent) return;
  if (!c.split && c.weight != 1) {
    t.f *= c.weight;
    t.K *= c.weight;
  }
  t.ng = 0;
  for (int a = 0; a < 4; ++a) {
    const int d = c.domain[static_cast<std::size_t>(a)];
    int g = 0;
    while (g < t.ng && t.groups[static_cast<std::size_t>(g)].domain != d) ++g;
    if (g == t.ng) {
      t.groups[static_cast<std::size_t>(g)].domain = d;
      t.groups[static_cast<std::size_t>(g)].count = 0;
      ++t.ng;
    }
    auto& group = t.groups[static_cast<std::size_t>(g)];
    group.vertices[static_cast<std::size_t>(group.count++)] = a;
  }
  for (int g = 0; g < t.ng; ++g) {
    auto& group = t.groups[static_cast<std::size_t>(g)];
    const FloatingDomain& d = domains[static_cast<std::size_t>(group.domain)];
    const DomainMotion& m = motion[static_cast<std::size_t>(d.id)];
    group.G.resize(3 * group.count, d.unknowns());
    for (int k = 0; k < group.count; ++k)
      vertex_jacobian(
          d, m, c.local[static_cast<std::size_t>(group.vertices[static_cast<std::size_t>(k)])],
          group.G.middleRows<3>(3 * k));
    group.rows = Eigen::VectorXd::Ones(d.unknowns());
    if (c.split) {
      group.rows.head(d.r()).setConstant(c.split->F[static_cast<std::size_t>(group.vertices[0])]);
      if (!d.anchored) {
        group.rows.segment<3>(d.r()).setConstant(c.split->f);
        group.rows.segment<3>(d.r() + 3).setConstant(c.split->tau);
      }
    }
  }
}

}  // namespace

double CouplingAssembler::add(const std::vector<CouplingElement>& elements,
                              const std::vector<FloatingDomain>& domains,
                              const std::vector<DomainMotion>& motion, MaterialModel model,
                              double dt, BlockSystem* system) {
  const ParallelTasks serial;
  const ParallelTasks& tasks = tasks_ ? *tasks_ : serial;
  terms_.resize(elements.size());
  tasks.for_each(elements.size(), [&](std::size_t k) {
    element_terms(elements[k], domains, motion, model, system != nullptr, terms_[k]);
  });
  double energy = 0;
  for (const CouplingElementTerms& t : terms_) energy += t.energy;  // in element order
  if (!system) return energy;

  by_domain_.resize(domains.size());
  for (std::vector<int>& list : by_domain_) list.clear();  // kept allocated between steps
  for (std::size_t k = 0; k < elements.size(); ++k)
    for (int g = 0; g < terms_[k].ng; ++g)
      by_domain_[static_cast<std::size_t>(terms_[k].groups[static_cast<std::size_t>(g)].domain)]
          .push_back(static_cast<int>(k));
  // Domain g's rows: b_g −= Δt rows ∘ G_gᵀ f_g and A_(g, h) += Δt² rows ∘ G_gᵀ K_gh G_h.
  tasks.for_each(domains.size(), [&](std::size_t dg) {
    thread_local Eigen::MatrixXd Kgh, KG;
    thread_local Eigen::VectorXd fg;
    for (int k : by_domain_[dg]) {
      const CouplingElementTerms& t = terms_[static_cast<std::size_t>(k)];
      const bool split = elements[static_cast<std::size_t>(k)].split.has_value();
      int g = 0;
      while (t.groups[static_cast<std::size_t>(g)].domain != static_cast<int>(dg)) ++g;
      const auto& gg = t.groups[static_cast<std::size_t>(g)];
      if (gg.G.cols() == 0) continue;
      fg.resize(3 * gg.count);
      for (int a = 0; a < gg.count; ++a)
        fg.segment<3>(3 * a) = t.f.segment<3>(3 * gg.vertices[static_cast<std::size_t>(a)]);
      system->b().segment(system->offset(gg.domain), gg.G.cols()).noalias() -=
          dt * gg.rows.cwiseProduct(gg.G.transpose() * fg);
      for (int h = 0; h < t.ng; ++h) {
        const auto& hh = t.groups[static_cast<std::size_t>(h)];
        if (hh.G.cols() == 0) continue;
        Kgh.resize(3 * gg.count, 3 * hh.count);
        for (int a = 0; a < gg.count; ++a)
          for (int b = 0; b < hh.count; ++b)
            Kgh.block<3, 3>(3 * a, 3 * b) =
                t.K.block<3, 3>(3 * gg.vertices[static_cast<std::size_t>(a)],
                                3 * hh.vertices[static_cast<std::size_t>(b)]);
        KG.noalias() = Kgh * hh.G;
        if (split)
          system->block(gg.domain, hh.domain).noalias() +=
              (dt * dt) * gg.rows.asDiagonal() * (gg.G.transpose() * KG);
        else
          system->block(gg.domain, hh.domain).noalias() += (dt * dt) * (gg.G.transpose() * KG);
      }
    }
  });
  return energy;
}

double add_coupling_terms(const std::vector<CouplingElement>& elements,
                          const std::vector<FloatingDomain>& domains,
                          const std::vector<DomainMotion>& motion, MaterialModel model, double dt,
                          BlockSystem* system) {
  CouplingAssembler assembler;
  return assembler.add(elements, domains, motion, model, dt, system);
}

}  // namespace substruct::coupling_elements
