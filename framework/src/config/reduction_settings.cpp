// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/reduction_settings.hpp"

#include "substruct/plugin/eigen_plugin_name.hpp"

#include <string>

#include <fmt/format.h>

#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"

namespace substruct {

namespace {

/// "solvers.K=NAME;NAME.a=…;NAME.b=…;" with the options of the solver's section in key order
/// (values in their canonical text, so that "1e-9" and "1.0e-9" give the same signature).
std::string solver_entry(const Config& config, const std::string& key, bool shared) {
  if (!config.has(key)) return "";
  // The plugin that solves, not `auto`: models from slepc and from spectra are not confused.
  const std::string name = key == "solvers.eigen"
                               ? eigen_plugin_name(nullptr, config.text(key), shared)
                               : config.text(key);
  std::string entry = fmt::format("{}={};", key, name);
  for (const auto& [option, value] : config.values())  // std::map: sorted by key
    if (option.starts_with(name + ".")) entry += fmt::format("{}={};", option, config.text(option));
  return entry;
}

}  // namespace

const OptionSet<ReductionSettings>& reduction_options() {
  using S = ReductionSettings;
  static const auto options =
      OptionSet<S>("reduction", "reduced model of each domain")
          .integer("modes", &S::modes, "",
                   "basis size r of each deformable domain (mode_count = fixed); 0 makes every "
                   "domain rigid",
                   non_negative)
          .integer("linear_modes", &S::linear_modes, "",
                   "linear modes k (lowest eigenpairs of K x = λ M x under the domain's boundary "
                   "condition)",
                   at_least(1))
          .flag("modal_derivatives", &S::modal_derivatives,
                "add the k(k+1)/2 modal derivatives to the linear modes before the mass-PCA "
                "down to r")
          .choice("mode_count", &S::mode_count, {ModeCountPolicy::fixed, ModeCountPolicy::adaptive},
                  "fixed: every domain gets `modes`; adaptive: r = max(5, ⌊r_max log e / log "
                  "e_max⌋) for a domain of e elements, e_max of the largest domain")
          .integer("r_max", &S::r_max, "",
                   "mode_count = adaptive: the basis size of the largest domain", non_negative)
          .choice("force_model", &S::force_model,
                  {ForceModelKind::polynomial, ForceModelKind::cubature},
                  "reduced internal forces: polynomial (exact cubic polynomials of reduced StVK) "
                  "or cubature (weighted elements trained on random poses, any material)")
          .integer("cubature_elements", &S::cubature_elements, "",
                   "force_model = cubature: the most elements the cubature may use", at_least(1))
          .integer("cubature_poses", &S::cubature_poses, "",
                   "force_model = cubature: training poses (deformations under random forces)",
                   at_least(1))
          .number("cubature_tolerance", &S::cubature_tolerance, "",
                  "force_model = cubature: relative training error at which element selection "
                  "stops",
                  positive)
          .integer("cubature_seed", &S::cubature_seed, "",
                   "force_model = cubature: seed of the random training forces")
          .choice("boundary", &S::boundary,
                  {BoundaryPolicy::parent_interface, BoundaryPolicy::free,
                   BoundaryPolicy::fixed_vertices},
                  "vertices fixed while a domain's basis is computed: parent-interface (the "
                  "interface to the parent domain plus the scene's fixed vertices), free "
                  "(free-flying, rigid modes removed) or fixed-vertices (only the scene's fixed "
                  "vertices)")
          .flag("cache", &S::cache,
                "keep reduced models in the folder [run] cache_dir; reuse those whose inputs are "
                "unchanged")
          .flag("instancing", &S::instancing,
                "domains equal up to rotation, translation and uniform scale share one reduced "
                "model")
          .integer("shared_solve_dofs", &S::shared_solve_dofs, "DOFs",
                   "a domain with more free DOFs than this (0: none) is a large domain: its "
                   "eigenproblem goes to a solver that can share one solve over MPI ranks "
                   "([solvers] eigen = auto: slepc) and its modal derivatives to [solvers] "
                   "shared_linear (mumps), also in one process; under mpirun precompute computes "
                   "it with every rank together: the eigen solve, the derivatives and the "
                   "polynomial's terms are shared out",
                   non_negative);
  return options;
}

ReductionSettings ReductionSettings::from_config(const Config& config) {
  ReductionSettings s = reduction_options().read(config);
  const bool fixed = s.mode_count == ModeCountPolicy::fixed;
  const std::string r_key = fixed ? "reduction.modes" : "reduction.r_max";
  const int r = fixed ? s.modes : s.r_max;
  const int derivatives = s.linear_modes * (s.linear_modes + 1) / 2;
  if (!s.modal_derivatives && r > s.linear_modes)
    throw config.value_error(
        r_key, fmt::format("needs modal_derivatives = true or linear_modes ≥ {} (found "
                           "linear_modes = {}): without derivatives the basis is the linear modes",
                           r, s.linear_modes));
  if (s.modal_derivatives && r > s.linear_modes + derivatives)
    throw config.value_error(
        r_key, fmt::format("more than the {} linear modes and their {} modal derivatives give; "
                           "raise linear_modes",
                           s.linear_modes, derivatives));
  s.solver_signature = reduction_solver_signature(config);
  s.shared_solver_signature = reduction_solver_signature(config, true);
  return s;
}

std::string reduction_solver_signature(const Config& config, bool shared) {
  // A large domain's derivatives: [solvers] shared_linear unless it is none.
  const bool shared_linear = shared && config.has("solvers.shared_linear") &&
                             config.text("solvers.shared_linear") != "none";
  return solver_entry(config, "solvers.eigen", shared) +
         solver_entry(config, shared_linear ? "solvers.shared_linear" : "solvers.linear", shared);
}

std::string_view to_string(ModeCountPolicy policy) {
  return policy == ModeCountPolicy::fixed ? "fixed" : "adaptive";
}

std::string_view to_string(ForceModelKind kind) {
  return kind == ForceModelKind::polynomial ? "polynomial" : "cubature";
}

std::string_view to_string(BoundaryPolicy policy) {
  switch (policy) {
    case BoundaryPolicy::parent_interface:
      return "parent-interface";
    case BoundaryPolicy::free:
      return "free";
    case BoundaryPolicy::fixed_vertices:
      return "fixed-vertices";
  }
  return "parent-interface";
}

ForceModelKind parse_force_model_kind(std::string_view name) {
  for (ForceModelKind kind : {ForceModelKind::polynomial, ForceModelKind::cubature})
    if (to_string(kind) == name) return kind;
  throw Error(fmt::format("unknown force model '{}': expected polynomial or cubature", name));
}

}  // namespace substruct
