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

double add_coupling_terms(const std::vector<CouplingElement>& elements,
                          const std::vector<FloatingDomain>& domains,
                          const std::vector<DomainMotion>& motion, MaterialModel model, double dt,
                          BlockSystem* system) {
  double energy = 0;
  // The element's vertices grouped by domain: G_g stacks the Jacobians J_a of group g's
  // vertices (3k_g × unknowns), so each pair of groups costs two products instead of k_g k_h.
  struct Group {
    int domain = -1;
    std::array<int, 4> vertices{};
    int count = 0;
    Eigen::MatrixXd G;
    Eigen::VectorXd f, rows;
  };
  std::array<Group, 4> groups;
  Eigen::MatrixXd Kgh, KG;
  for (const CouplingElement& c : elements) {
    Vec12 x;
    for (int a = 0; a < 4; ++a) {
      const auto& d = domains[static_cast<std::size_t>(c.domain[static_cast<std::size_t>(a)])];
      x.segment<3>(3 * a) = vertex_position(d, motion[static_cast<std::size_t>(d.id)],
                                            c.local[static_cast<std::size_t>(a)]);
    }
    double e = 0;
    Vec12 f;
    Mat12 K;
    element_forces(model, ElementInput{&x, &c.Dm_inv, c.volume, c.lambda, c.mu}, &e,
                   system ? &f : nullptr, system ? &K : nullptr);
    energy += c.weight * e;
    if (!system) continue;
    if (!c.split && c.weight != 1) {
      f *= c.weight;
      K *= c.weight;
    }
    int ng = 0;
    for (int a = 0; a < 4; ++a) {
      const int d = c.domain[static_cast<std::size_t>(a)];
      int g = 0;
      while (g < ng && groups[static_cast<std::size_t>(g)].domain != d) ++g;
      if (g == ng) {
        groups[static_cast<std::size_t>(g)].domain = d;
        groups[static_cast<std::size_t>(g)].count = 0;
        ++ng;
      }
      Group& group = groups[static_cast<std::size_t>(g)];
      group.vertices[static_cast<std::size_t>(group.count++)] = a;
    }
    for (int g = 0; g < ng; ++g) {
      Group& group = groups[static_cast<std::size_t>(g)];
      const FloatingDomain& d = domains[static_cast<std::size_t>(group.domain)];
      const DomainMotion& m = motion[static_cast<std::size_t>(d.id)];
      group.G.resize(3 * group.count, d.unknowns());
      group.f.resize(3 * group.count);
      for (int k = 0; k < group.count; ++k) {
        const int a = group.vertices[static_cast<std::size_t>(k)];
        vertex_jacobian(d, m, c.local[static_cast<std::size_t>(a)], group.G.middleRows<3>(3 * k));
        group.f.segment<3>(3 * k) = f.segment<3>(3 * a);
      }
      // Row weights of this domain's unknowns: F rows, then f and τ (non-uniform cubature).
      group.rows = Eigen::VectorXd::Ones(d.unknowns());
      if (c.split) {
        group.rows.head(d.r()).setConstant(c.split->F[static_cast<std::size_t>(group.vertices[0])]);
        if (!d.anchored) {
          group.rows.segment<3>(d.r()).setConstant(c.split->f);
          group.rows.segment<3>(d.r() + 3).setConstant(c.split->tau);
        }
      }
      if (d.unknowns() > 0)
        system->b().segment(system->offset(d.id), d.unknowns()).noalias() -=
            dt * group.rows.cwiseProduct(group.G.transpose() * group.f);
    }
    for (int g = 0; g < ng; ++g) {
      const Group& gg = groups[static_cast<std::size_t>(g)];
      if (gg.G.cols() == 0) continue;
      for (int h = 0; h < ng; ++h) {
        const Group& hh = groups[static_cast<std::size_t>(h)];
        if (hh.G.cols() == 0) continue;
        Kgh.resize(3 * gg.count, 3 * hh.count);
        for (int k = 0; k < gg.count; ++k)
          for (int l = 0; l < hh.count; ++l)
            Kgh.block<3, 3>(3 * k, 3 * l) =
                K.block<3, 3>(3 * gg.vertices[static_cast<std::size_t>(k)],
                              3 * hh.vertices[static_cast<std::size_t>(l)]);
        KG.noalias() = Kgh * hh.G;
        if (c.split)
          system->block(gg.domain, hh.domain).noalias() +=
              (dt * dt) * gg.rows.asDiagonal() * (gg.G.transpose() * KG);
        else
          system->block(gg.domain, hh.domain).noalias() += (dt * dt) * (gg.G.transpose() * KG);
      }
    }
  }
  return energy;
}

}  // namespace substruct::coupling_elements
