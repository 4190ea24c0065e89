// SPDX-License-Identifier: GPL-3.0-or-later
// spectra: the eigen-solver plugin for one process. K x = λ M x (K symmetric, M SPD) for the
// `count` eigenvalues closest to a shift σ, by Spectra's implicitly restarted Lanczos on the
// shift-and-invert operator (K − σM)⁻¹ M, K − σM factored by CHOLMOD (shifted_eigensolve.hpp).
// It needs neither MPI nor PETSc, so a command run as one process starts at once; it is what
// [solvers] eigen = auto chooses in a process no MPI launcher started (slepc under mpirun).
//
// The shift: the caller's `shift` argument, unless [spectra] shift is set, which then wins; a NaN
// shift (from the caller, with no spectra.shift) is chosen automatically, as slepc chooses it.
#include <memory>
#include <optional>

#include "shifted_eigensolve.hpp"
#include "substruct/config/config.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_descriptor.hpp"
#include "substruct/solvers/eigen_solver.hpp"

namespace substruct::spectra_plugin {
namespace {

// The [spectra] section: the solver's settings and the shift that replaces the caller's.
struct SpectraOptions : SpectraSettings {
  std::optional<double> shift;
};

const OptionSet<SpectraOptions>& spectra_options() {
  using S = SpectraOptions;
  static const auto options =
      OptionSet<S>("spectra",
                   "generalized symmetric eigensolver on one process (Spectra shift-and-invert "
                   "Lanczos on a CHOLMOD factor; no MPI)")
          .number("tolerance", &S::tolerance, "",
                  "convergence: relative accuracy of the eigenvalues θ = 1/(λ − σ) of the "
                  "shift-and-invert operator",
                  in_open_range(0, 1))
          .integer("max_iterations", &S::max_iterations, "", "Lanczos restarts before giving up",
                   at_least(1))
          .number("shift", &S::shift, "1/s²",
                  "shift σ: the eigenvalues nearest σ are found; when set, it replaces the shift "
                  "the caller asks for (default: the caller's; automatic −1e-6·tr(K)/tr(M) when "
                  "the caller leaves it open)")
          .integer("ncv", &S::ncv, "",
                   "Lanczos basis size, > count (0: min(DOFs, max(2·count + 1, count + 20)))",
                   non_negative);
  return options;
}

const OptionTable& options() {
  return spectra_options().table();
}

class SpectraEigenSolver final : public EigenSolver {
 public:
  explicit SpectraEigenSolver(const SpectraOptions& settings) : settings_(settings) {}

  EigenPairs solve(const SparseMatrix& K, const SparseMatrix& M, int count, double shift) override {
    return shifted_eigensolve(K, M, count, settings_.shift ? *settings_.shift : shift, settings_);
  }

 private:
  SpectraOptions settings_;
};

std::unique_ptr<Component> create(const PluginContext& context) {
  return std::make_unique<SpectraEigenSolver>(spectra_options().read(context.config));
}

}  // namespace

const PluginDescriptor& descriptor() {
  static const PluginDescriptor d{
      "spectra",
      PluginKind::eigen_solver,
      SUBSTRUCT_VERSION,
      "generalized symmetric eigenpairs K x = λ M x nearest a shift on one process: Spectra "
      "shift-and-invert Lanczos with a CHOLMOD (or UMFPACK) factorization; no MPI, instant start",
      &options,
      &create};
  return d;
}

}  // namespace substruct::spectra_plugin

SUBSTRUCT_PLUGIN(substruct::spectra_plugin::descriptor)
