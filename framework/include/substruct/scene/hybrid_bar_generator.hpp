// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The hybrid bar of Yang et al. 2010 (Fig. 2, Table 1 "Bar1": 323 tets; "Bar2": 5,372 tets): a
/// box beam clamped at x = 0 and cut into domains along it, some of them rigid.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// Defaults: 0.9 m × 0.15 m × 0.05 m in 18 × 3 × 1 cells (324 tets, the paper's 323; a cross-
/// section of 2 × 4 = 8 vertices, the "eight boundary nodes" of Fig. 2c), 3 domains of 6 cell
/// layers, the middle one rigid: deformable at the clamp, rigid, deformable at the free end.
/// Soft rubber E = 3 MPa, ν = 0.3, ρ = 1000 kg/m³ (a uniform bar's linear tip sag under gravity
/// would be 0.14 m). The larger bar: --cells 30 6 5 (5,400 tets, the paper's 5,372).
struct HybridBarParameters {
  double length = 0.9;   // along x [m]
  double height = 0.15;  // along y, the direction of gravity [m]
  double width = 0.05;   // along z [m]
  int cells_x = 18;
  int cells_y = 3;
  int cells_z = 1;
  int domains = 3;                    // element sets domain0… of equal length along x
  std::vector<int> rigid_domains{1};  // which of them are rigid
  Material soft{"soft", 1000.0, 3.0e6, 0.3};
  /// E of the rigid domains' materials / E of "soft" (same ρ and ν), so that an
  /// unreduced method sees nearly rigid parts where the hybrid method has rigid regions.
  double rigid_stiffness_ratio = 1000;
};

/// generate_bar's mesh and element sets "domain0"… with materials[0] the soft one and one more
/// per rigid domain, in the order of rigid_domains ("rigid", or "rigid<d>" when there are
/// several: E · rigid_stiffness_ratio, ρ and ν of the soft one). `fixed_vertices` receives the
/// clamped face x = 0, `tip_corners` the free end's four corners, `free_end` every vertex of the
/// face x = length (all sorted). Throws Error for the sizes generate_bar refuses, a rigid domain
/// out of range or a ratio ≤ 0.
TetMesh generate_hybrid_bar(const HybridBarParameters& parameters,
                            std::vector<Index>* fixed_vertices = nullptr,
                            std::vector<Index>* tip_corners = nullptr,
                            std::vector<Index>* free_end = nullptr);

}  // namespace substruct
