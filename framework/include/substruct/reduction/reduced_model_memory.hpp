// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// About how much memory a domain's reduced model takes, for the memory budget
/// (core/memory_budget.hpp): what is kept while the method runs, and what computing it needs
/// on top, for a while.
#include <string>

#include "substruct/config/reduction_settings.hpp"
#include "substruct/core/types.hpp"

namespace substruct {

struct ModelMemory {
  double kept = 0;       // [bytes] the basis U (3n × r) and the reduced force model
  double transient = 0;  // [bytes] while computing it: M and K, the eigensolver's factor, the k
                         // linear modes and k(k+1)/2 modal derivatives, the mass-PCA's copy, the
                         // cubature's training matrix
  /// The count that sizes the largest part when it is one of [reduction]'s, as advice for the
  /// memory budget ("lower [reduction] cubature_poses = 100000"); empty otherwise.
  std::string advice;
};

/// About how much the sparse generalized eigenproblem K x = λ M x of `dofs` unknowns takes in
/// shift-invert: M, K and the factor of K − σM (45 entries per row, the factor at 15 times K).
double eigenproblem_memory(double dofs);

/// The estimate for a domain of `vertices` vertices and basis size r under `settings`. The sparse
/// matrices are counted at 45 entries per row (a tet mesh's vertex has about 15 neighbours) and
/// the factor at 15 times K: estimates, not bounds.
/// Cubature counts the elements it keeps as min(cubature_elements, `elements`) and its training
/// matrix (cubature_poses · r rows, one column per element).
ModelMemory reduced_model_memory(Index vertices, Index elements, int r,
                                 const ReductionSettings& settings);

}  // namespace substruct
