// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Linearly dependent constraint rows, found offline. A constraint matrix J whose rows are
/// dependent (the same node constrained twice, a rotation row that is a combination of
/// displacement rows once a domain is reduced to few modes: the "over-constrained" system of Yang
/// et al. 2010, Fig. 2(c)) makes J M⁻¹ Jᵀ singular; keeping a maximal independent subset of the
/// rows keeps the same constraints (up to the tolerance) with a regular system.
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

/// The rows of J (rows × n) to keep, ascending: a maximal linearly independent subset chosen
/// greedily in row order, so row i is kept exactly when it is independent of the rows kept before
/// it — the first rows of a group of dependent ones win.
///
/// The tolerance: row i is kept when the part of it orthogonal to the rows kept before it has a
/// norm above tolerance · max_k ‖J_k‖ (the largest row norm of J), i.e. when its distance to their
/// span is more than `tolerance` relative to J's scale. Consequences:
/// - zero rows, and rows of norm at most tolerance · max_k ‖J_k‖, are never kept;
/// - the result does not change when J is multiplied by a non-zero number, but does when single
///   rows are: normalise the rows first to judge by angle alone (then a row is dropped when the
///   sine of its angle to the span of the kept rows is at most `tolerance`);
/// - tolerance = 0 drops only rows that are dependent in floating point, which rounding hardly
///   ever makes exact: use a tolerance well above the rounding error of J's entries (the default
///   1e-10 suits entries computed to near double precision, ε ≈ 2.2e-16).
/// At most n rows are kept. An empty or all-zero J gives none.
///
/// Incremental Gram–Schmidt, each projection done twice ("twice is enough": the kept basis stays
/// orthonormal to rounding), O(rows · r · n) for r kept rows. Throws Error when J has an entry
/// that is not finite or the tolerance is negative or not finite.
std::vector<Eigen::Index> independent_rows(const Eigen::Ref<const Eigen::MatrixXd>& J,
                                           double tolerance = 1e-10);

}  // namespace substruct
