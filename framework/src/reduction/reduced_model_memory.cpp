// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/reduced_model_memory.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace substruct {

namespace {
constexpr double kDouble = 8, kEntry = 12;  // a double; a sparse entry with its row index
}  // namespace

double eigenproblem_memory(double dofs) {
  // The factor at 15 times K: `generate bar --cells 24 24 96` in 3 domains of 20,000 vertices
  // peaked 690 MiB above the loaded scene, estimated 648 MiB.
  const double nnz = 45 * dofs;
  return 2 * nnz * kEntry + 15 * nnz * kEntry;
}

ModelMemory reduced_model_memory(Index vertices, Index elements, int r,
                                 const ReductionSettings& settings) {
  const double n = 3.0 * double(vertices);
  const double k = settings.linear_modes, rr = r;
  ModelMemory m;
  if (r == 0) return m;
  // Kept: U, and f(q) as polynomial coefficients (linear r², quadratic r·r(r+1)/2, cubic
  // r·r(r+1)(r+2)/6) or as cubature (per element: its weight and a 12 × r block of U).
  m.kept = n * rr * kDouble;
  double training = 0;
  if (settings.force_model == ForceModelKind::polynomial) {
    m.kept += rr * (rr + rr * (rr + 1) / 2 + rr * (rr + 1) * (rr + 2) / 6) * kDouble;
  } else {
    const double kept_elements = std::min<double>(double(settings.cubature_elements), elements);
    m.kept += kept_elements * (1 + 12 * rr) * kDouble;
    // Training: the poses (r each) and A, T·r rows × one column per element, with b.
    const double poses = double(settings.cubature_poses);
    training = poses * rr * (double(elements) + 2) * kDouble;
  }
  // Transient: the eigenproblem, the linear modes and derivatives, and their PCA copy.
  const double vectors = k + (settings.modal_derivatives ? k * (k + 1) / 2 : 0);
  const double eigen = eigenproblem_memory(n) + 2 * n * vectors * kDouble;
  m.transient = eigen + training;
  if (training > eigen && training > m.kept)
    m.advice = fmt::format(
        "lower [reduction] cubature_poses = {} (the training matrix: {} poses "
        "× r = {} × {} elements)",
        settings.cubature_poses, settings.cubature_poses, r, elements);
  else if (settings.modal_derivatives && k * (k + 1) / 2 * n * 2 * kDouble > eigenproblem_memory(n))
    m.advice = fmt::format("lower [reduction] linear_modes = {} (k(k + 1)/2 modal derivatives)",
                           settings.linear_modes);
  return m;
}

}  // namespace substruct
