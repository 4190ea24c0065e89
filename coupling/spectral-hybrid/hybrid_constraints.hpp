// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The constraint rows of a hybrid solid (Yang et al. 2010, Eq. 10, 11, 14, 15): at each chosen
// boundary node the deformable and the rigid copy agree, and target vertices follow the user.
// One row per scalar equation J q = c on the stacked spectral coordinates q of all regions.
#include <string>
#include <vector>

#include "region_model.hpp"
#include "spectral_hybrid_settings.hpp"
#include "substruct/core/types.hpp"
#include "substruct/domains/hybrid_regions.hpp"

namespace substruct::spectral_hybrid {

struct ConstraintRow {
  enum class Kind {
    displacement,     // Eq. 11: (Φ_a q_a − Φ_b q_b)_v,c = 0
    rotation,         // Eq. 11: (Ψ_a q_a − Ψ_b q_b)_v,c = 0
    warped_position,  // Eq. 10: (R̃_a Φ_a q_a − R̃_b Φ_b q_b)_v,c = 0, R̃ of the last step
    target_position,  // Eq. 15 E^p: (Φ_a q_a)_v,c = (R̃ᵀ (x* − X_v))_c
    target_rotation,  // Eq. 15 E^o: (Ψ_a q_a)_v,c = w*_c
  };
  Kind kind = Kind::displacement;
  Index vertex = 0;  // global
  int component = 0;
  int region_a = 0;
  Index local_a = 0;
  int region_b = -1;  // the rigid side of a boundary row; −1 for target rows
  Index local_b = -1;
};

struct HybridConstraints {
  std::vector<ConstraintRow> rows;       // the kept rows, in J's order
  Eigen::MatrixXd J;                     // rows × Σ r: at rest (R̃ = I) for warped rows
  std::vector<Index> constrained_nodes;  // global ids, every boundary's chosen nodes
  int dropped = 0;                       // dependent rows removed
  Index boundary_rows() const;           // rows that are not target rows
};

/// The rows of `settings` (boundary_nodes, constraint, target_*): per boundary its chosen nodes
/// (farthest-point selection, domains/boundary_node_selection.hpp), per target vertex one row set
/// per region that holds it; rows that depend linearly on earlier ones (angle sine at most
/// settings.dependent_tolerance once every row is normalised) dropped, boundary rows first, so a
/// target never displaces a boundary row. Logs each boundary's choice and the dropped count.
HybridConstraints hybrid_constraints(const TetMesh& mesh, const HybridRegions& regions,
                                     const std::vector<RegionModel>& models,
                                     const SpectralHybridSettings& settings);

/// The warped rows of Eq. 10 for the current state: row = e_cᵀ (R̃(w_a) Φ_a)_v − e_cᵀ (R̃(w_b) Φ_b)_v
/// with w = Ψ q of each side. Other rows are left as they are.
void update_warped_rows(const std::vector<RegionModel>& models, const Eigen::VectorXd& q,
                        HybridConstraints& constraints);

}  // namespace substruct::spectral_hybrid
