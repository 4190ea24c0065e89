// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The torus knot of Huang et al. 2006 (Table 2: 1,354 tets, 517 nodes, 6 sub-domains): a round
/// tube swept along a (p, q) torus knot, a closed loop whose domains form a cycle.
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"

namespace substruct {

/// The knot's centre line, for φ ∈ [0, 2π), with ρ(φ) = knot_radius + knot_minor_radius ·
/// cos(q φ):  x = −ρ sin(p φ),  y = ρ cos(p φ),  z = knot_minor_radius · sin(q φ)  — winding p
/// times round the z axis and q times round the core circle, in the x-y plane (vertical in a
/// scene with gravity along −y); φ = 0 is an outer point at the top, x = z = 0, y =
/// knot_radius + knot_minor_radius.
///
/// Defaults: the trefoil (2, 3), 0.1 m + 0.045 m radii (about 0.3 m across, centre line 1.53 m
/// long), a tube of radius 0.025 m, 54 segments of octagonal cross-section: 1,296 tets and 486
/// vertices (the paper's torus knot: 1,354 and 517), 6 domains of 9 segments. Material: rubber,
/// E = 1 MPa, ν = 0.3, ρ = 1000 kg/m³.
struct TorusKnotParameters {
  int p = 2;                         // turns round the z axis, ≥ 1, coprime to q
  int q = 3;                         // turns round the core circle, ≥ 0 (q = 0, p = 1: a ring)
  double knot_radius = 0.1;          // radius of the core circle [m]
  double knot_minor_radius = 0.045;  // distance of the centre line from the core circle [m]
  double tube_radius = 0.025;        // [m]
  int segments = 54;                 // cross-sections along the knot, ≥ 3 and ≥ 2 · domains
  int sides = 8;                     // vertices round a cross-section, ≥ 3
  int domains = 6;                   // element sets of equal arc length, ≥ 1
  Material material{"rubber", 1000.0, 1.0e6, 0.3};
};

/// What generate_torus_knot made, beyond the mesh.
struct TorusKnotSummary {
  double length = 0;                // of the centre line [m]
  double clearance = 0;             // smallest distance between far parts of the centre line [m]
  double min_curvature_radius = 0;  // of the centre line [m]
  int fixed_section = 0;            // the clamped cross-section (the middle of domain 0)
  int opposite_section = 0;         // the cross-section halfway round the loop from it
};

/// The tube as one conforming tet mesh. `segments` cross-sections at equal arc length along the
/// centre line, each a centre vertex and `sides` vertices on a circle of radius tube_radius in
/// the plane normal to the line, turned by a rotation-minimising frame (double reflection) whose
/// twist after the full loop is spread evenly, so the loop closes on itself. Section s is the
/// vertices s (sides + 1) (centre) … s (sides + 1) + sides. Between consecutive sections each of
/// the `sides` triangular prisms (centre, ring i, ring i+1) is split into 3 tets by global vertex
/// order (Dompierre et al. 1999: every quad face split on the diagonal through its lowest vertex),
/// so neighbouring prisms share faces exactly; every tet positively oriented. 3 · sides ·
/// segments tets, (sides + 1) · segments vertices; the boundary is one closed surface (a torus).
///
/// Section numbering starts at fixed_section = ⌊segments / (2 · domains)⌋ before φ = 0, so that the
/// clamped top cross-section lies in the middle of domain 0. Segment s (sections s → s+1, the last
/// one back to 0) goes to domain ⌊s · domains / segments⌋: element sets "domain0", … (zero-padded
/// when more than 10), in order round the loop, each touching the next along one cross-section
/// and the last touching the first: `[scene] domains = sets` gives a domain graph that is one
/// cycle (with domains ≥ 3).
///
/// `fixed_vertices` receives the vertices of section fixed_section (sorted). Throws Error for
/// invalid counts, radii, p and q not coprime, or a tube that would intersect itself (tube_radius
/// ≥ the centre line's smallest curvature radius, or ≥ half its clearance: the distance between
/// points more than π · tube_radius apart along it).
TetMesh generate_torus_knot(const TorusKnotParameters& parameters,
                            std::vector<Index>* fixed_vertices = nullptr,
                            TorusKnotSummary* summary = nullptr);

}  // namespace substruct
