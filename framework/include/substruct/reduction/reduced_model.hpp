// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A domain's reduced model: its basis, its reduced internal forces and what it was built from,
/// with a versioned binary file format (little-endian, checksummed) for the model cache.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "substruct/config/reduction_settings.hpp"
#include "substruct/core/fnv1a.hpp"
#include "substruct/core/types.hpp"
#include "substruct/fem/material_model.hpp"
#include "substruct/mesh/tet_mesh.hpp"
#include "substruct/reduction/basis_builder.hpp"
#include "substruct/reduction/domain_boundary.hpp"
#include "substruct/reduction/reduced_force_model.hpp"

namespace substruct {

struct ReducedModel {
  ReducedBasis basis;  // U (3N×r, UᵀMU = I, local vertex numbering), λ of the linear modes, timings
  ForceModelKind force_kind = ForceModelKind::polynomial;
  std::shared_ptr<const ReducedForceModel> forces;  // f(q) = Uᵀ f_int(Uq); null when r = 0
  double seconds_force_model = 0;                   // polynomial coefficients or cubature training

  // What it was built from.
  Index vertices = 0;
  Index elements = 0;
  double size = 0;  // bounding-box diagonal of the rest shape [m]
  MaterialModel material_model = MaterialModel::stvk;
  std::vector<Material> materials;  // the distinct materials of its elements, in order of first use
  DomainBoundary boundary;          // fixed vertices sorted, without repeats

  /// The basis size; 0 for a rigid domain.
  int r() const { return static_cast<int>(basis.U.cols()); }
  /// Basis stages plus the force model [s].
  double seconds_total() const;
};

/// Builds the reduced model of a domain: build_basis(mesh, boundary, basis settings, solvers)
/// with r modes, then the force model `settings` asks for (reduced StVK polynomials, or a
/// cubature trained on the mesh). r = 0 gives a rigid model (U 3N×0, no forces) without any
/// solve. Long stages show progress labelled "<label>: modal derivatives" etc. Throws Error when
/// the polynomial force model is asked for a material model other than StVK, or the basis/force
/// model errors.
ReducedModel compute_reduced_model(const TetMesh& mesh, MaterialModel material_model,
                                   const DomainBoundary& boundary, int r,
                                   const ReductionSettings& settings, const SolverProvider& solvers,
                                   std::string_view label = "reduced model");

/// The 64-bit hash of everything compute_reduced_model's result depends on: the rest positions
/// (bit for bit) and tetrahedra of the domain's mesh, each element's material (ρ, E, ν), the
/// material model, the boundary (fixed vertices as a set, free-flying or not), r, the basis and
/// force-model settings (linear modes, modal derivatives, eigen shift, force model, cubature
/// settings when used), the solvers and their options (settings.solver_signature), and the
/// file format version. Equal inputs give equal hashes on every machine.
std::uint64_t model_inputs_hash(const TetMesh& mesh, MaterialModel material_model,
                                const DomainBoundary& boundary, int r,
                                const ReductionSettings& settings);

/// The model file format. Header (40 bytes): magic "SUBSTMDL", u32 format version, u32 header
/// size (40), u64 inputs hash, u64 payload size, u64 FNV-1a checksum of the payload. Payload:
/// metadata, U (column-major), eigenvalues, force model (kind, then polynomial coefficients, or
/// cubature material, elements and weights). Integers and doubles little-endian. No timings or
/// other run-dependent values: two runs on the same inputs write byte-identical files (version
/// 1 stored the stage timings; its files are recomputed).
inline constexpr std::uint32_t kModelFormatVersion = 2;

/// The bytes of a model file made from inputs of hash `inputs_hash`.
std::string encode_reduced_model(const ReducedModel& model, std::uint64_t inputs_hash);

/// The model in `bytes`, checked before it is trusted. Throws Error saying why it is rejected:
/// "not a substruct model file" (magic), "format version V, expected W", "built from other
/// inputs" (hash), "truncated" / "trailing bytes" (payload size), "corrupt" (checksum), or
/// "malformed". A cubature model evaluates element forces, so it needs the domain's `mesh` (the
/// one its hash was made from; Error when it is missing or its size differs).
ReducedModel decode_reduced_model(std::string_view bytes, std::uint64_t expected_hash,
                                  const TetMesh* mesh = nullptr);

/// Writes encode_reduced_model's bytes to `file`, replacing it in one step (through a temporary
/// file beside it, see io/staged_file.hpp). Throws Error when it cannot.
void write_reduced_model(const std::filesystem::path& file, const ReducedModel& model,
                         std::uint64_t inputs_hash);
/// Reads and decodes `file`; throws Error (as decode_reduced_model, or when it cannot be read).
ReducedModel read_reduced_model(const std::filesystem::path& file, std::uint64_t expected_hash,
                                const TetMesh* mesh = nullptr);

}  // namespace substruct
