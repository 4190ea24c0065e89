// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Constrained linear vibration modes of a domain: K φ = λ M φ with the domain's fixed DOFs
/// held at zero, or without the rigid-body modes for a free-flying domain.
#include <limits>

#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/reduction/domain_boundary.hpp"
#include "substruct/solvers/eigen_solver.hpp"

namespace substruct {

/// The default shift-invert target of the eigen solves: automatic, σ = −10⁻⁶ tr(K)/tr(M) on the
/// free DOFs, just below 0 relative to the stiffness scale of the domain, so that K − σM is
/// positive definite even with rigid modes and well conditioned for soft and stiff domains.
inline constexpr double kAutomaticShift = std::numeric_limits<double>::quiet_NaN();

/// The `count` lowest modes of K φ = λ M φ (K, M the 3N×3N stiffness at rest and mass matrix),
/// found by `solver` around `shift` (NaN: kAutomaticShift; otherwise it must lie below the
/// lowest eigenvalue). The three DOFs of each fixed vertex are removed before `solver` runs and
/// the vectors are returned full length, exactly zero there. With boundary.remove_rigid_modes,
/// count + 6 modes are computed and the 6 lowest are dropped; they must be zero
/// (|λ| ≤ 10⁻⁹ tr(K)/tr(M)) and the 7th must not, otherwise the domain does not have exactly 6
/// zero-energy modes and it throws Error. The solver's pairs are then refined by Rayleigh–Ritz
/// on their span (λ ascending, vectors M-orthonormal to rounding), and each vector's
/// largest-magnitude entry is made positive, so results are deterministic. count = 0 gives no
/// modes. Throws Error when the sizes do not match, count is negative or exceeds the free DOFs,
/// fixed vertices and remove_rigid_modes are both set, or the solver returns fewer pairs than
/// asked.
EigenPairs linear_modes(const SparseMatrix& K, const SparseMatrix& M,
                        const DomainBoundary& boundary, int count, EigenSolver& solver,
                        double shift = kAutomaticShift);

/// The same for a tet mesh: K is the stiffness at rest (linear elasticity = StVK at u = 0) and M
/// the consistent mass of the mesh's materials. A free-flying domain's modes are moreover
/// projected out of the exact rigid_body_modes of the rest shape before the Rayleigh–Ritz step,
/// so they are M-orthogonal to all 6 to rounding, not just to the solver's tolerance.
EigenPairs linear_modes(const TetMesh& mesh, const DomainBoundary& boundary, int count,
                        EigenSolver& solver, double shift = kAutomaticShift);

}  // namespace substruct
