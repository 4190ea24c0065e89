// SPDX-License-Identifier: GPL-3.0-or-later
#include "spectral_hybrid_settings.hpp"

#include <charconv>

#include "substruct/config/config.hpp"

namespace substruct::spectral_hybrid {

const OptionSet<SpectralHybridSettings>& spectral_hybrid_options() {
  using S = SpectralHybridSettings;
  static const auto options =
      OptionSet<S>("spectral-hybrid",
                   "rigid and deformable regions as linear modal models with modal warping, "
                   "glued at a few boundary nodes (Yang et al. 2010)")
          .indices("rigid_domains", &S::rigid_domains,
                   "scene domains simulated as rigid (6 rigid-body modes); the others are "
                   "deformable. Face-adjacent domains of the same type form one region")
          .integer("modes", &S::modes, "",
                   "linear modes of each deformable region (Eq. 2), its 6 rigid-body modes "
                   "included when it holds no fixed vertex; at most its free DOFs",
                   at_least(1))
          .flag("warping", &S::warping,
                "modal warping (Eq. 5–7): each node's linear displacement turned by the "
                "integrated rotation R̃(Ψq) and its forces into the frame R(Ψq); off: plain "
                "linear modal models (u = Φq), which grow and shear under large rotations")
          .text("boundary_nodes", &S::boundary_nodes_text,
                "constrained nodes per deformable–rigid boundary, chosen by farthest-point "
                "sampling over hop distances (Fig. 4), or all (Fig. 2c: over-constrains a "
                "reduced model; the dependent rows are dropped)")
          .choice("boundary_constraint", &S::constraint,
                  {{"displacement-and-rotation", BoundaryConstraint::displacement_and_rotation},
                   {"warped-position", BoundaryConstraint::warped_position}},
                  "displacement-and-rotation (Eq. 11: equal linear displacement Φq and rotation "
                  "vector Ψq at each constrained node, a constant J) or warped-position (Eq. 10: "
                  "equal warped displacements R̃Φq, R̃ taken from the last step, J rebuilt and "
                  "refactored every step; the variant the paper shows failing in Fig. 2b)")
          .choice("stabilisation", &S::stabilisation,
                  {{"exact", Stabilisation::exact}, {"damped", Stabilisation::damped}},
                  "exact: the constraint rows ask J q = c at the end of each Newmark step (no "
                  "drift, no parameter); damped: the paper's damped second-order form "
                  "J q̈ = −2 p1 Ċ − p2² C (Eq. 16) with C, Ċ the violation at the step's start")
          .number("p1", &S::p1, "1/s", "damped: the velocity factor p₁ of Eq. 16", non_negative)
          .number("p2", &S::p2, "1/s", "damped: the position factor p₂ of Eq. 16", non_negative)
          .number("dependent_tolerance", &S::dependent_tolerance, "",
                  "a constraint row whose angle to the span of the rows kept before it has a "
                  "sine at most this is dropped offline as dependent (core/independent_rows.hpp); "
                  "nearly dependent rows make the multiplier system ill-conditioned (1e-6 lets a "
                  "fully constrained 5,400-tet bar diverge)",
                  positive)
          .indices("target_vertices", &S::target_vertices,
                   "user manipulation (Eq. 14–15): these vertices are driven to their rest "
                   "position turned by target_rotation about their centroid and moved by "
                   "target_offset")
          .choice("target_kind", &S::target_kind,
                  {{"both", TargetKind::both},
                   {"position", TargetKind::position},
                   {"orientation", TargetKind::orientation}},
                  "which rows each target vertex gets: position (E^p rows, 3), orientation (E^o "
                  "rows: its rotation vector Ψq, 3) or both")
          .vec3("target_offset", &S::target_offset, "m",
                "translation of the target vertices (world)")
          .vec3("target_rotation", &S::target_rotation, "rad",
                "rotation vector of the target vertices about their rest centroid, e.g. "
                "3.14 0 0 twists them half a turn about x")
          .number("target_ramp", &S::target_ramp, "s",
                  "the target offset and rotation grow linearly from 0 over this time (0: at "
                  "once)",
                  non_negative)
          .flag("cache", &S::cache,
                "store each region's spectral basis in the folder [run] cache_dir (content-"
                "hashed) and reuse it when nothing it depends on changed");
  return options;
}

SpectralHybridSettings read_spectral_hybrid_settings(const Config& config) {
  SpectralHybridSettings s = spectral_hybrid_options().read(config);
  const std::string& text = s.boundary_nodes_text;
  if (text == "all") {
    s.boundary_nodes = -1;
    return s;
  }
  int count = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (ec != std::errc() || end != text.data() + text.size() || count < 1)
    throw config.value_error("spectral-hybrid.boundary_nodes",
                             "expected a count of nodes ≥ 1 per boundary, or all");
  s.boundary_nodes = count;
  return s;
}

}  // namespace substruct::spectral_hybrid
