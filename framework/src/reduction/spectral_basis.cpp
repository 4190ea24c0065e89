// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/reduction/spectral_basis.hpp"

#include <system_error>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/fnv1a.hpp"
#include "substruct/core/log.hpp"
#include "substruct/fem/mass.hpp"
#include "substruct/io/checked_record.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/mesh/mesh_hash.hpp"
#include "substruct/reduction/domain_boundary.hpp"
#include "substruct/reduction/linear_modes.hpp"

namespace substruct {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view kMagic = "SUBSTSPB";
constexpr std::uint32_t kFormatVersion = 1;
}  // namespace

SpectralBasis spectral_basis(const TetMesh& mesh, const std::vector<Index>& fixed, bool rigid,
                             int modes, EigenSolver& solver) {
  SpectralBasis b;
  const Index n = mesh.num_vertices();
  if (rigid) {
    if (!fixed.empty()) {  // held in place: no motion at all
      b.Phi.resize(3 * n, 0);
      return b;
    }
    b.Phi = rigid_body_modes(mesh.vertices, consistent_mass(mesh));  // Eq. 8
    b.Lambda = Eigen::VectorXd::Zero(6);
    b.rigid_modes = 6;
    return b;
  }
  if (modes < 1) throw Error(fmt::format("spectral basis: {} modes; at least 1", modes));
  DomainBoundary boundary;
  boundary.fixed_vertices = fixed;
  if (fixed.empty()) {
    if (modes < 6)
      throw Error(fmt::format(
          "spectral basis: a free deformable region needs at least its 6 rigid-body modes, "
          "{} asked",
          modes));
    boundary.remove_rigid_modes = true;
    const EigenPairs elastic = linear_modes(mesh, boundary, modes - 6, solver);
    b.Phi.resize(3 * n, modes);
    b.Phi.leftCols(6) = rigid_body_modes(mesh.vertices, consistent_mass(mesh));
    b.Phi.rightCols(modes - 6) = elastic.vectors;
    b.Lambda = Eigen::VectorXd::Zero(modes);
    b.Lambda.tail(modes - 6) = elastic.values;
    b.rigid_modes = 6;
    return b;
  }
  const EigenPairs pairs = linear_modes(mesh, boundary, modes, solver);
  b.Phi = pairs.vectors;
  b.Lambda = pairs.values;
  return b;
}

std::uint64_t spectral_basis_hash(const TetMesh& mesh, const std::vector<Index>& fixed, bool rigid,
                                  int modes, std::string_view solver_signature) {
  Fnv1a f;
  f.add_string("spectral basis");
  f.add_u64(kFormatVersion);
  add_mesh_to_hash(f, mesh);
  f.add_u64(fixed.size());
  for (Index v : fixed) f.add_i64(v);
  f.add_u64(rigid ? 1 : 0);
  f.add_i64(modes);
  f.add_string(solver_signature);
  return f.digest();
}

fs::path spectral_basis_file(const fs::path& dir, std::uint64_t hash) {
  return dir / fmt::format("spectral-{:016x}.sssb", hash);
}

std::string encode_spectral_basis(const SpectralBasis& basis, std::uint64_t hash) {
  RecordWriter w;
  w.i64(basis.Phi.rows());
  w.i64(basis.Phi.cols());
  w.i64(basis.rigid_modes);
  w.f64s(basis.Phi.data(), static_cast<std::size_t>(basis.Phi.size()));
  w.f64s(basis.Lambda.data(), static_cast<std::size_t>(basis.Lambda.size()));
  return encode_checked_record(kMagic, kFormatVersion, hash, w.bytes());
}

SpectralBasis decode_spectral_basis(std::string_view bytes, std::uint64_t hash) {
  RecordReader in(
      decode_checked_record(bytes, kMagic, "substruct spectral basis file", kFormatVersion, hash));
  SpectralBasis b;
  const std::int64_t rows = in.i64(), cols = in.i64(), rigid = in.i64();
  // (rows + 1) · cols doubles must fit what is left, compared without forming the product
  // (which a forged header could make wrap around).
  const std::uint64_t capacity = in.left() / 8;
  if (rows < 0 || cols < 0 || rigid < 0 || rigid > cols ||
      (cols > 0 &&
       static_cast<std::uint64_t>(rows) + 1 > capacity / static_cast<std::uint64_t>(cols)))
    throw Error("malformed: the basis does not fit the file");
  b.Phi.resize(rows, cols);
  b.Lambda.resize(cols);
  b.rigid_modes = static_cast<int>(rigid);
  in.f64s(b.Phi.data(), static_cast<std::size_t>(b.Phi.size()));
  in.f64s(b.Lambda.data(), static_cast<std::size_t>(cols));
  if (in.left() != 0) throw Error("malformed: bytes after the eigenvalues");
  return b;
}

SpectralBasis cached_spectral_basis(const fs::path& dir, const TetMesh& mesh,
                                    const std::vector<Index>& fixed, bool rigid, int modes,
                                    EigenSolver& solver, std::string_view solver_signature,
                                    bool* loaded) {
  if (loaded) *loaded = false;
  const std::uint64_t hash = spectral_basis_hash(mesh, fixed, rigid, modes, solver_signature);
  if (!dir.empty()) {
    const fs::path file = spectral_basis_file(dir, hash);
    std::error_code ec;
    if (fs::exists(file, ec)) {
      try {
        SpectralBasis b = decode_spectral_basis(read_file_bytes(file, "spectral basis file"), hash);
        if (b.Phi.rows() == 3 * mesh.num_vertices()) {
          if (loaded) *loaded = true;
          return b;
        }
        log::warn("cache: ignoring {}: its basis does not fit the mesh; recomputing",
                  file.string());
      } catch (const Error& e) {
        log::warn("cache: ignoring {}: {}; recomputing", file.string(), e.what());
      }
    }
  }
  SpectralBasis b = spectral_basis(mesh, fixed, rigid, modes, solver);
  if (!dir.empty()) {
    try {
      std::error_code ec;
      fs::create_directories(dir, ec);
      if (ec) throw Error(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
      write_file_atomically(spectral_basis_file(dir, hash), encode_spectral_basis(b, hash));
    } catch (const Error& e) {
      log::warn("cache: the spectral basis is not stored: {}", e.what());
    }
  }
  return b;
}

}  // namespace substruct
