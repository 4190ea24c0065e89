// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The [reduction] section of a scene: how each domain's reduced model is built (basis size,
/// modal derivatives, force model, boundary condition) and whether models are cached and shared
/// between instanced domains. `substruct help reduction` lists the keys with their help text.
#include <cstdint>
#include <string>
#include <string_view>

#include "substruct/options/options.hpp"

namespace substruct {

class Config;

/// How many modes each domain gets.
/// fixed: every deformable domain gets `modes`.
/// adaptive: Zhao 2014, §4.1 step 10: r = max(5, ⌊r_max log e / log e_max⌋) for a domain of e
/// elements, e_max the element count of the largest domain.
enum class ModeCountPolicy { fixed, adaptive };

/// The reduced internal forces: the exact cubic polynomials of reduced StVK (Barbič–James 2005)
/// or an optimized cubature (An et al. 2008) that any material model can use.
enum class ForceModelKind { polynomial, cubature };

/// Which vertices of a domain are held at zero displacement while its basis is computed.
/// parent-interface: the vertices it shares with its parent in the domain tree rooted at the
///   scene's root, plus the scene's fixed vertices inside it (Barbič–Zhao 2011, §3: a child
///   deforms in the frame of its parent interface); the root keeps only the scene's fixed
///   vertices, and is free-flying when it has none.
/// free: nothing fixed; the 6 rigid-body modes are removed from the basis (free-flying domains).
/// fixed-vertices: only the scene's fixed vertices inside the domain (free when there are none).
enum class BoundaryPolicy { parent_interface, free, fixed_vertices };

struct ReductionSettings {
  int modes = 20;                 // r, the basis size of each deformable domain (fixed policy)
  int linear_modes = 10;          // k linear modes the basis is built from
  bool modal_derivatives = true;  // add the k(k+1)/2 modal derivatives before the mass-PCA
  ModeCountPolicy mode_count = ModeCountPolicy::fixed;
  int r_max = 20;  // adaptive policy: the largest domain's r
  ForceModelKind force_model = ForceModelKind::polynomial;
  int cubature_elements = 200;       // cubature: at most this many weighted elements
  int cubature_poses = 100;          // cubature: training poses
  double cubature_tolerance = 0.01;  // cubature: relative force error that stops the greedy fit
  std::uint64_t cubature_seed = 1;   // cubature: seed of the random training forces
  BoundaryPolicy boundary = BoundaryPolicy::parent_interface;
  bool cache = true;       // load/store models in the cache folder ([run] cache_dir)
  bool instancing = true;  // share one model between domains equal up to rotation and scale
  /// Domains with more free DOFs than this (0: none) have their eigenproblem solved by a solver
  /// that can share a solve over the ranks of an MPI job (`auto`: slepc), alone or under mpirun;
  /// a distributed precompute solves them with every rank together.
  int shared_solve_dofs = 0;

  /// The solvers whose results the models depend on, with every option of their sections, in a
  /// canonical "solvers.eigen=slepc;slepc.tolerance=1e-10;…" form (part of the cache key).
  std::string solver_signature;
  /// The same for the domains above shared_solve_dofs (their eigen solver resolved as shared).
  std::string shared_solver_signature;

  /// reduction_options().read(config), checked across keys (a basis no larger than its linear
  /// modes and their derivatives give), with the solver signature. Throws Error naming where a
  /// value was set.
  static ReductionSettings from_config(const Config& config);
};

/// The [reduction] options (every field above but solver_signature).
const OptionSet<ReductionSettings>& reduction_options();

/// The eigen and linear solvers a config selects with their options, in the canonical form that
/// keys cached bases ("solvers.eigen=slepc;slepc.tolerance=1e-10;…").
/// `shared`: `auto` resolved for a solve the ranks of an MPI job can share.
std::string reduction_solver_signature(const Config& config, bool shared = false);

/// "fixed" | "adaptive", "polynomial" | "cubature", "parent-interface" | "free" |
/// "fixed-vertices".
std::string_view to_string(ModeCountPolicy policy);
std::string_view to_string(ForceModelKind kind);
std::string_view to_string(BoundaryPolicy policy);
/// The force model named `name` (as to_string writes it, e.g. in a cached model); throws Error
/// otherwise.
ForceModelKind parse_force_model_kind(std::string_view name);

}  // namespace substruct
