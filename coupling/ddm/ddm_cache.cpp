// SPDX-License-Identifier: GPL-3.0-or-later
#include "ddm_cache.hpp"

#include <system_error>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/fnv1a.hpp"
#include "substruct/core/log.hpp"
#include "substruct/io/checked_record.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/mesh/mesh_hash.hpp"

namespace substruct::ddm {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view kMagic = "SUBSTDDM";
}

std::uint64_t compressed_inverse_hash(const TetMesh& mesh, const LinearDomain& domain, double alpha,
                                      double beta, double h, const DdmSettings& settings) {
  Fnv1a f;
  f.add_string("ddm compressed inverse");
  f.add_u64(kCompressedInverseFormatVersion);
  add_mesh_to_hash(f, mesh);
  f.add_u64(domain.dofs.free_dofs().size());
  for (Index d : domain.dofs.free_dofs()) f.add_i64(d);
  for (Index k = 0; k < domain.M.nonZeros(); ++k) f.add_f64(domain.M.valuePtr()[k]);
  f.add_f64(alpha);
  f.add_f64(beta);
  f.add_f64(h);
  f.add_i64(settings.clusters);
  f.add_f64(settings.floats_per_node);
  f.add_i64(settings.components);
  f.add_i64(settings.node_clusters);
  f.add_i64(settings.cpca_iterations);
  return f.digest();
}

fs::path compressed_inverse_file(const fs::path& dir, std::uint64_t hash) {
  return dir / fmt::format("ddm-{:016x}.ssdd", hash);
}

std::string encode_compressed_inverse(const CompressedInverse& g, std::uint64_t hash) {
  RecordWriter w;
  w.i64(g.size);
  w.i64(g.iterations);
  w.u64(g.cluster_of_group.size());
  for (int c : g.cluster_of_group) w.i64(c);
  w.u64(g.clusters.size());
  for (const auto& c : g.clusters) {
    w.u64(c.groups.size());
    for (Index group : c.groups) w.i64(group);
    for (const Eigen::MatrixXd* m : {&c.coefficients, &c.basis}) {
      w.i64(m->rows());
      w.i64(m->cols());
      w.f64s(m->data(), static_cast<std::size_t>(m->size()));
    }
  }
  return encode_checked_record(kMagic, kCompressedInverseFormatVersion, hash, w.bytes());
}

CompressedInverse decode_compressed_inverse(std::string_view bytes, std::uint64_t hash) {
  RecordReader in(decode_checked_record(bytes, kMagic, "substruct DDM file",
                                        kCompressedInverseFormatVersion, hash));
  CompressedInverse g;
  g.size = static_cast<Index>(in.i64());
  g.iterations = static_cast<int>(in.i64());
  g.cluster_of_group.resize(in.count(8));
  for (int& c : g.cluster_of_group) c = static_cast<int>(in.i64());
  g.clusters.resize(in.count(8));
  for (auto& c : g.clusters) {
    c.groups.resize(in.count(8));
    for (Index& group : c.groups) group = static_cast<Index>(in.i64());
    for (Eigen::MatrixXd* m : {&c.coefficients, &c.basis}) {
      const std::int64_t rows = in.i64(), cols = in.i64();
      if (rows < 0 || cols < 0 ||
          (cols > 0 && static_cast<std::uint64_t>(rows) >
                           in.left() / 8 / static_cast<std::uint64_t>(cols)))  // no wrap
        throw Error("malformed: a matrix does not fit the file");
      m->resize(rows, cols);
      in.f64s(m->data(), static_cast<std::size_t>(m->size()));
    }
    if (c.coefficients.rows() != 3 * static_cast<Index>(c.groups.size()) ||
        c.basis.rows() != g.size || c.basis.cols() != c.coefficients.cols())
      throw Error("malformed: a cluster's matrices do not fit its rows");
  }
  if (in.left() != 0) throw Error("malformed: bytes after the last cluster");
  if (static_cast<Index>(g.cluster_of_group.size()) * 3 != g.size)
    throw Error("malformed: the cluster assignment does not fit the matrix");
  return g;
}

std::optional<CompressedInverse> load_compressed_inverse(const fs::path& dir, std::uint64_t hash) {
  if (dir.empty()) return std::nullopt;
  const fs::path file = compressed_inverse_file(dir, hash);
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  try {
    return decode_compressed_inverse(read_file_bytes(file, "DDM file"), hash);
  } catch (const Error& e) {
    log::warn("cache: ignoring {}: {}; recomputing", file.string(), e.what());
    return std::nullopt;
  }
}

void store_compressed_inverse(const fs::path& dir, std::uint64_t hash, const CompressedInverse& g) {
  if (dir.empty()) return;
  try {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw Error(fmt::format("cannot create the folder {}: {}", dir.string(), ec.message()));
    write_file_atomically(compressed_inverse_file(dir, hash), encode_compressed_inverse(g, hash));
  } catch (const Error& e) {
    log::warn("cache: the compressed force-displacement matrices are not stored: {}", e.what());
  }
}

}  // namespace substruct::ddm
