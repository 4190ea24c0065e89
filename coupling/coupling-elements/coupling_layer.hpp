// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The coupling elements (Wu, Mukherjee, Wang 2015, §4.2): elements whose vertices lie in more
// than one domain. Each is simulated through the domains' own coordinates: its vertices move
// with their domains, x = c + R (X̄ + U q), and its elastic force acts on each domain's
// deformation (Eq. 5), linear motion and rotation (Eq. 8).
#include <array>
#include <optional>
#include <vector>

#include "substruct/core/parallel_tasks.hpp"
#include "substruct/fem/element_kernels.hpp"
#include "substruct/fem/material_model.hpp"
#include "substruct/multidomain/block_system.hpp"
#include "substruct/multidomain/floating_domain.hpp"

namespace substruct::coupling_elements {

struct CouplingElement {
  Index element = 0;
  std::array<int, 4> domain{};   // of each vertex
  std::array<Index, 4> local{};  // each vertex's index in its domain's X_i
  Mat3 Dm_inv = Mat3::Identity();
  double volume = 0, lambda = 0, mu = 0;
  double weight = 1;  // cubature weight (interface_cubature.hpp); 1 when every element is kept
  /// Non-uniform cubature (§5): separate weights for the reduced forces F on each vertex's domain
  /// (indexed by vertex), the linear forces f and the torques τ; empty when uniform.
  struct Split {
    std::array<double, 4> F{1, 1, 1, 1};
    double f = 1, tau = 1;
  };
  std::optional<Split> split;
};

/// The coupling elements of the mesh for the vertex partition the domains hold, and the pairs of
/// domains they join (i < j, sorted, unique).
std::vector<CouplingElement> find_coupling_elements(const TetMesh& mesh,
                                                    const std::vector<FloatingDomain>& domains,
                                                    std::vector<std::pair<int, int>>& pairs);

// One element's share, at the current positions: its energy, its weighted f and K, and its
// vertices grouped by domain: G_g stacks the Jacobians J_a of group g's vertices (3k_g ×
// unknowns), so each pair of groups costs two products instead of k_g k_h.
struct CouplingElementTerms {
  struct Group {
    int domain = -1;
    std::array<int, 4> vertices{};
    int count = 0;
    Eigen::MatrixXd G;
    Eigen::VectorXd rows;  // weights of the domain's unknowns: F rows, then f and τ
  };
  double energy = 0;
  Vec12 f;
  Mat12 K;
  std::array<Group, 4> groups;
  int ng = 0;
};

/// Adds the coupling elements' terms of one backward Euler step in velocities (Eq. 9–10, App. B)
/// to `system` (when not null): b_d −= Δt J_aᵀ f_a and A_(d_a, d_b) += Δt² J_aᵀ K_ab J_b, for the
/// internal forces f and the tangent K = ∂f/∂x of each element (times its weight; with split
/// weights, each domain's F, f and τ rows by their own, which makes A unsymmetric) at the current
/// positions, J_a the vertex_jacobian of its vertex a. Returns their elastic energy.
///
/// On several threads: the elements' forces and Jacobians first, one element per task; then each
/// domain's rows of A and b, one domain per task, adding its elements in element order. Every sum
/// is thus formed in the same order for any thread count. The workspace is kept between calls.
class CouplingAssembler {
 public:
  explicit CouplingAssembler(const ParallelTasks* tasks = nullptr) : tasks_(tasks) {}

  double add(const std::vector<CouplingElement>& elements,
             const std::vector<FloatingDomain>& domains, const std::vector<DomainMotion>& motion,
             MaterialModel model, double dt, BlockSystem* system);

 private:
  const ParallelTasks* tasks_;
  std::vector<CouplingElementTerms> terms_;
  std::vector<std::vector<int>> by_domain_;  // the elements with a vertex in each domain
};

/// The same on the calling thread, with a workspace of its own.
double add_coupling_terms(const std::vector<CouplingElement>& elements,
                          const std::vector<FloatingDomain>& domains,
                          const std::vector<DomainMotion>& motion, MaterialModel model, double dt,
                          BlockSystem* system);

}  // namespace substruct::coupling_elements
