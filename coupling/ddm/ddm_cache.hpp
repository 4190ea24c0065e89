// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The clustering solver's compressed force–displacement matrices in the cache folder, one file per
// domain, keyed by the hash of everything they depend on (io/checked_record.hpp's format: a file
// from other inputs, truncated or corrupt is rejected and recomputed).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "ddm_settings.hpp"
#include "force_displacement.hpp"
#include "linear_domain.hpp"
#include "substruct/mesh/tet_mesh.hpp"

namespace substruct::ddm {

inline constexpr std::uint32_t kCompressedInverseFormatVersion = 1;

/// The hash of the domain's mesh (rest positions bit for bit, tets, each element's material), its
/// fixed vertices, α, β, h and the CPCA settings.
std::uint64_t compressed_inverse_hash(const TetMesh& mesh, const LinearDomain& domain, double alpha,
                                      double beta, double h, const DdmSettings& settings);

/// DIR/ddm-<16 hex digits>.ssdd
std::filesystem::path compressed_inverse_file(const std::filesystem::path& dir, std::uint64_t hash);

std::string encode_compressed_inverse(const CompressedInverse& g, std::uint64_t hash);
/// Throws Error saying why the bytes are rejected (see decode_checked_record), or "malformed".
CompressedInverse decode_compressed_inverse(std::string_view bytes, std::uint64_t hash);

/// The stored matrices, or nothing (a rejected file is logged as a warning and ignored).
std::optional<CompressedInverse> load_compressed_inverse(const std::filesystem::path& dir,
                                                         std::uint64_t hash);
/// Writes them atomically (the folder is made when missing); a folder that cannot be written
/// is logged as a warning, and nothing is stored.
void store_compressed_inverse(const std::filesystem::path& dir, std::uint64_t hash,
                              const CompressedInverse& g);

}  // namespace substruct::ddm
