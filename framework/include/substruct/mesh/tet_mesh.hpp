// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The volumetric tetrahedral mesh and its materials, as read from .veg/.node+.ele/.msh.
#include <map>
#include <string>
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

/// Isotropic elastic material (Vega's ENU: density, Young's modulus, Poisson's ratio; SI units).
struct Material {
  std::string name = "default";
  double density = 1000.0;        // ρ  [kg/m³]
  double youngs_modulus = 1.0e6;  // E  [Pa]
  double poisson_ratio = 0.45;    // ν  [-]

  /// Lamé parameters: λ = Eν / ((1+ν)(1−2ν)),  μ = E / (2(1+ν)).
  double lambda() const {
    return youngs_modulus * poisson_ratio / ((1 + poisson_ratio) * (1 - 2 * poisson_ratio));
  }
  double mu() const { return youngs_modulus / (2 * (1 + poisson_ratio)); }
};

/// A linear tetrahedral mesh. Vertices and elements are 0-based.
struct TetMesh {
  Points vertices;  // rest positions X, N×3
  Tets tets;        // M×4 vertex indices

  /// Materials and the material of each element (index into `materials`). When the file
  /// names no material, `materials` holds one default and every element uses it.
  std::vector<Material> materials;
  std::vector<Index> element_material;

  /// Named element sets (0-based element ids, sorted), e.g. Vega *SET; "allElements" is implicit.
  std::map<std::string, std::vector<Index>> element_sets;
  /// Named vertex sets (0-based vertex ids, sorted), e.g. Gmsh physical groups of points.
  std::map<std::string, std::vector<Index>> vertex_sets;

  Index num_vertices() const { return static_cast<Index>(vertices.rows()); }
  Index num_elements() const { return static_cast<Index>(tets.rows()); }
  const Material& material_of(Index element) const {
    return materials[static_cast<std::size_t>(element_material[static_cast<std::size_t>(element)])];
  }
};

/// A triangle surface mesh (render mesh, .obj).
struct SurfaceMesh {
  Points vertices;
  Triangles triangles;  // polygons from .obj are fan-triangulated
};

}  // namespace substruct
