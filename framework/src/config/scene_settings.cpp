// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/scene_settings.hpp"

namespace substruct {

std::string_view to_string(LoopPolicy policy) {
  return policy == LoopPolicy::error ? "error" : "spanning-tree";
}

const OptionSet<SceneSettings>& scene_options() {
  using S = SceneSettings;
  static const auto options =
      OptionSet<S>("scene", "what is simulated")
          .path("mesh", &S::mesh,
                "tet mesh: .veg, .node/.ele (TetGen), .msh (Gmsh), .vtu or .vtk (VTK); required")
          .path("render_mesh", &S::render_mesh,
                "surface mesh (.obj) embedded in the tets for rendering")
          .path("fixed", &S::fixed,
                "fixed vertices: a .bou file of 1-based vertex indices (its 1 is the mesh's first "
                "vertex; tracked_vertices and the other vertex keys count from 0)")
          .text("fixed_set", &S::fixed_set, "fixed vertices: a named vertex set of the mesh")
          .text("domains", &S::domains,
                "domains: single | auto:N (METIS) | bands:N (geodesic bands from the fixed "
                "vertices: a tree of domains) | sets | sets:a,b,… (element sets) | FILE (an id per "
                "element)")
          .text("root", &S::root,
                "root domain id, or auto (the domain with most fixed vertices, else a graph "
                "centre)")
          .choice("resolve_loops", &S::resolve_loops,
                  {LoopPolicy::error, LoopPolicy::spanning_tree},
                  "a domain graph with loops: error, or spanning-tree (drop edges to a spanning "
                  "tree, reported)")
          .indices(
              "tracked_vertices", &S::tracked_vertices,
              "0-based vertices (0 is the mesh's first; a .bou file's index k is vertex k − 1) "
              "whose positions are written to CSV and compared between methods; default: "
              "the free vertex farthest (along the mesh) from its nearest fixed one")
          .flag("reorient_elements", &S::reorient_elements,
                "accept inverted (negatively oriented) tetrahedra by swapping two of their "
                "vertices, as for a mesh made with the other vertex order; otherwise they are "
                "an error naming the first one");
  return options;
}

}  // namespace substruct
