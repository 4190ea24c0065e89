#include "coupling_layer.hpp"

#include <algorithm>

#include "substruct/fem/element_kernels.hpp"
#include "substruct/fem/tet_geometry.hpp"
#include "substruct/kinematics/skew.hpp"

namespace substruct::coupling_elements {

std::vector<CouplingElement> find_coupling_elements(const TetMesh& mesh,
                                                    const std::vector<CeDomain>& domains,
                                                    std::vector<std::pair<int, int>>& pairs) {
  std::vector<int> domain_of(static_cast<std::size_t>(mesh.num_vertices()), -1);
  for (const CeDomain& d : domains)
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

Vec3 vertex_position(const CeDomain& d, const DomainMotion& m, Index l) {
  Vec3 x = d.rest.row(l).transpose();
  if (d.r() > 0) x.noalias() += d.U.middleRows<3>(3 * l) * m.q;
  return m.c + m.R * x;
}

Eigen::MatrixXd vertex_jacobian(const CeDomain& d, const DomainMotion& m, Index l) {
  const int r = d.r();
  Eigen::MatrixXd J(3, d.unknowns());
  if (r > 0) J.leftCols(r).noalias() = m.R * d.U.middleRows<3>(3 * l);
  if (!d.anchored) {
    Vec3 x = d.rest.row(l).transpose();
    if (r > 0) x.noalias() += d.U.middleRows<3>(3 * l) * m.q;
    J.middleCols<3>(r) = Mat3::Identity();   // ∂ẋ/∂v
    J.middleCols<3>(r + 3) = -hat(m.R * x);  // ω × (R x̃) = −(R x̃)~ ω
  }
  return J;
}

double add_coupling_terms(const std::vector<CouplingElement>& elements,
                          const std::vector<CeDomain>& domains,
                          const std::vector<DomainMotion>& motion, MaterialModel model, double dt,
                          BlockSystem* system) {
  double energy = 0;
  std::array<Eigen::MatrixXd, 4> J;
  for (const CouplingElement& c : elements) {
    Vec12 x;
    for (int a = 0; a < 4; ++a) {
      const auto& d = domains[static_cast<std::size_t>(c.domain[static_cast<std::size_t>(a)])];
      const auto& m = motion[static_cast<std::size_t>(d.id)];
      x.segment<3>(3 * a) = vertex_position(d, m, c.local[static_cast<std::size_t>(a)]);
      if (system)
        J[static_cast<std::size_t>(a)] =
            vertex_jacobian(d, m, c.local[static_cast<std::size_t>(a)]);
    }
    double e = 0;
    Vec12 f;
    Mat12 K;
    element_forces(model, ElementInput{&x, &c.Dm_inv, c.volume, c.lambda, c.mu}, &e,
                   system ? &f : nullptr, system ? &K : nullptr);
    energy += e;
    if (!system) continue;
    for (int a = 0; a < 4; ++a) {
      const int da = c.domain[static_cast<std::size_t>(a)];
      const Eigen::MatrixXd& Ja = J[static_cast<std::size_t>(a)];
      if (Ja.cols() == 0) continue;
      system->b().segment(system->offset(da), Ja.cols()).noalias() -=
          dt * (Ja.transpose() * f.segment<3>(3 * a));
      for (int b = 0; b < 4; ++b) {
        const int db = c.domain[static_cast<std::size_t>(b)];
        const Eigen::MatrixXd& Jb = J[static_cast<std::size_t>(b)];
        if (Jb.cols() == 0) continue;
        const Eigen::Matrix<double, 3, Eigen::Dynamic> KJ = K.block<3, 3>(3 * a, 3 * b) * Jb;
        system->block(da, db).noalias() += (dt * dt) * (Ja.transpose() * KJ);
      }
    }
  }
  return energy;
}

}  // namespace substruct::coupling_elements
