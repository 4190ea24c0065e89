// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The spectral basis of one region of a hybrid solid (Yang et al. 2010, Eq. 2–4 and 8): linear
/// vibration modes, M-orthonormal, so that the region's reduced mass is M̂ = I and its reduced
/// stiffness K̂ = Λ (diagonal); its damping Ĉ = ξI + ζΛ follows from Rayleigh's α, β. A linear
/// basis needs no modal derivatives and no force model.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/solvers/eigen_solver.hpp"

namespace substruct {

struct SpectralBasis {
  Eigen::MatrixXd Phi;     // Φ, 3N × r, ΦᵀMΦ = I (consistent mass of the region's mesh)
  Eigen::VectorXd Lambda;  // the r eigenvalues, ascending; 0 for rigid-body modes
  int rigid_modes = 0;     // the first rigid_modes columns are exact rigid-body modes
};

/// A rigid region (Eq. 8): the 6 exact rigid-body modes, Λ = 0 — none when the region holds fixed
/// vertices (it cannot move). A deformable region: with the scene's `fixed` vertices (global ids
/// of `mesh`, here the region's own numbering) inside it, the `modes` lowest constrained modes;
/// without, the 6 rigid-body modes then the `modes` − 6 lowest others (modes ≥ 6). Throws Error
/// for modes < 1 (deformable), fewer than 6 for a free deformable region, or more modes than free
/// DOFs, or when the eigen solve fails.
SpectralBasis spectral_basis(const TetMesh& mesh, const std::vector<Index>& fixed, bool rigid,
                             int modes, EigenSolver& solver);

/// The hash of everything spectral_basis's result depends on (rest positions bit for bit, tets,
/// materials, fixed vertices, rigid, modes, `solver_signature`, the format version), distinct from
/// every reduced model's hash ("spectral basis" is hashed first).
std::uint64_t spectral_basis_hash(const TetMesh& mesh, const std::vector<Index>& fixed, bool rigid,
                                  int modes, std::string_view solver_signature);

/// The file of the basis of `hash` in a cache folder: DIR/spectral-<16 hex digits>.sssb.
std::filesystem::path spectral_basis_file(const std::filesystem::path& dir, std::uint64_t hash);
std::string encode_spectral_basis(const SpectralBasis& basis, std::uint64_t hash);
/// Throws Error saying why the bytes are rejected (io/checked_record.hpp), or "malformed".
SpectralBasis decode_spectral_basis(std::string_view bytes, std::uint64_t hash);

/// From the cache folder `dir` when a trusted file of `hash` is there (a rejected one is logged as
/// a warning and recomputed), else computed and stored (a folder that cannot be written is logged,
/// not an error). `dir` empty: no cache. `loaded`, when given, says which happened.
SpectralBasis cached_spectral_basis(const std::filesystem::path& dir, const TetMesh& mesh,
                                    const std::vector<Index>& fixed, bool rigid, int modes,
                                    EigenSolver& solver, std::string_view solver_signature,
                                    bool* loaded = nullptr);

}  // namespace substruct
