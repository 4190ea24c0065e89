// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/fem/elastic_force_model.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "detail/block_pattern.hpp"
#include "detail/material_checks.hpp"
#include "substruct/core/error.hpp"
#include "substruct/fem/element_kernels.hpp"

namespace substruct {

struct ElasticForceModel::Impl {
  MaterialModel model;
  Points rest;  // X
  Tets tets;
  TetGeometry geometry;
  std::vector<double> lambda, mu;  // per element
  detail::BlockPattern pattern;
  std::vector<double> K0;  // linear model: the constant stiffness values in `pattern`

  // E += Σ_e V_e Ψ_e, f += Σ_e f_e, values += Σ_e K_e (all optional), in element order.
  void assemble(const Eigen::VectorXd& u, double* energy, Eigen::VectorXd* force,
                double* values) const;
};

void ElasticForceModel::Impl::assemble(const Eigen::VectorXd& u, double* energy,
                                       Eigen::VectorXd* force, double* values) const {
  const int* outer = pattern.outer.data();
  double sum = 0;
  Vec12 x, f_e;
  Mat12 K_e;
  for (Index e = 0; e < tets.rows(); ++e) {
    const auto se = static_cast<std::size_t>(e);
    const Index* v = tets.data() + 4 * se;  // row-major: the 4 vertices of e
    for (int a = 0; a < 4; ++a)
      x.segment<3>(3 * a) = rest.row(v[a]).transpose() + u.segment<3>(3 * v[a]);  // x = X + u
    const ElementInput in{&x, &geometry.Dm_inv[se], geometry.volume[se], lambda[se], mu[se]};
    double E_e = 0;
    element_forces(model, in, energy ? &E_e : nullptr, force ? &f_e : nullptr,
                   values ? &K_e : nullptr);
    sum += E_e;
    if (force)
      for (int a = 0; a < 4; ++a) force->segment<3>(3 * v[a]) += f_e.segment<3>(3 * a);
    if (values) {
      // Entry (3v_a + i, 3v_b + j) is slot outer[3v_b + j] + local[4b + a] + i.
      const int* local = pattern.local.data() + 16 * se;
      for (int b = 0; b < 4; ++b)
        for (int j = 0; j < 3; ++j) {
          const int column = 3 * b + j;
          const double* K_col = K_e.data() + 12 * column;
          double* dst = values + outer[3 * v[b] + j];
          for (int a = 0; a < 4; ++a) {
            double* d = dst + local[4 * b + a];
            const double* s = K_col + 3 * a;
            d[0] += s[0];
            d[1] += s[1];
            d[2] += s[2];
          }
        }
    }
  }
  if (energy) *energy += sum;
}

ElasticForceModel::ElasticForceModel(const TetMesh& mesh, MaterialModel model)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.model = model;
  detail::check_materials(mesh, /*density=*/false, /*elasticity=*/true);
  m.geometry = TetGeometry::build(mesh);
  m.rest = mesh.vertices;
  m.tets = mesh.tets;
  const auto num_elements = static_cast<std::size_t>(mesh.num_elements());
  m.lambda.resize(num_elements);
  m.mu.resize(num_elements);
  for (std::size_t e = 0; e < num_elements; ++e) {
    const Material& material = mesh.material_of(static_cast<Index>(e));
    m.lambda[e] = material.lambda();
    m.mu[e] = material.mu();
  }
  m.pattern = detail::build_block_pattern(m.tets, mesh.num_vertices());
  if (model == MaterialModel::linear) {
    m.K0.assign(m.pattern.inner.size(), 0.0);
    const Eigen::VectorXd rest_u = Eigen::VectorXd::Zero(3 * mesh.num_vertices());
    m.assemble(rest_u, nullptr, nullptr, m.K0.data());
  }
}

ElasticForceModel::~ElasticForceModel() = default;
ElasticForceModel::ElasticForceModel(ElasticForceModel&&) noexcept = default;
ElasticForceModel& ElasticForceModel::operator=(ElasticForceModel&&) noexcept = default;

MaterialModel ElasticForceModel::model() const {
  return impl_->model;
}
Index ElasticForceModel::num_dofs() const {
  return impl_->pattern.num_dofs;
}
Index ElasticForceModel::num_elements() const {
  return static_cast<Index>(impl_->tets.rows());
}
const TetGeometry& ElasticForceModel::geometry() const {
  return impl_->geometry;
}

void ElasticForceModel::evaluate(const Eigen::VectorXd& u, double* energy,
                                 Eigen::VectorXd* internal_force, SparseMatrix* stiffness) const {
  const Impl& m = *impl_;
  const Index n = m.pattern.num_dofs;
  if (u.size() != n)
    throw Error(
        fmt::format("elastic force model: the displacement has {} entries, the mesh has "
                    "{} degrees of freedom (3 per vertex)",
                    u.size(), n));
  if (stiffness && !m.pattern.matches(*stiffness)) *stiffness = m.pattern.make_matrix();

  if (m.model == MaterialModel::linear) {
    if (stiffness) std::copy(m.K0.begin(), m.K0.end(), stiffness->valuePtr());
    if (energy || internal_force) {
      const Eigen::Map<const SparseMatrix> K0(n, n, m.pattern.nnz(), m.pattern.outer.data(),
                                              m.pattern.inner.data(), m.K0.data());
      Eigen::VectorXd f = K0 * u;            // f = K₀u
      if (energy) *energy = 0.5 * u.dot(f);  // E = ½uᵀK₀u
      if (internal_force) *internal_force = std::move(f);
    }
    return;
  }

  // The force is zeroed before u is read: work on a copy when they are the same vector.
  const Eigen::VectorXd u_copy = internal_force == &u ? u : Eigen::VectorXd();
  const Eigen::VectorXd& displacement = internal_force == &u ? u_copy : u;
  if (energy) *energy = 0;
  if (internal_force) {
    internal_force->resize(n);
    internal_force->setZero();
  }
  double* values = nullptr;
  if (stiffness) {
    values = stiffness->valuePtr();
    std::fill_n(values, stiffness->nonZeros(), 0.0);
  }
  m.assemble(displacement, energy, internal_force, values);
}

double ElasticForceModel::energy(const Eigen::VectorXd& u) const {
  double E = 0;
  evaluate(u, &E, nullptr, nullptr);
  return E;
}

Eigen::VectorXd ElasticForceModel::internal_force(const Eigen::VectorXd& u) const {
  Eigen::VectorXd f;
  evaluate(u, nullptr, &f, nullptr);
  return f;
}

SparseMatrix ElasticForceModel::stiffness(const Eigen::VectorXd& u) const {
  SparseMatrix K;
  evaluate(u, nullptr, nullptr, &K);
  return K;
}

}  // namespace substruct
