// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A folder of reduced-model files keyed by the hash of everything a model depends on
/// (model_inputs_hash): a model whose inputs are unchanged is loaded instead of recomputed.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "substruct/reduction/reduced_model.hpp"

namespace substruct {

class ModelCache {
 public:
  /// Files live in `dir` (made on the first store()). An empty path gives a disabled cache:
  /// load() finds nothing, store() writes nothing.
  explicit ModelCache(std::filesystem::path dir);

  bool enabled() const { return !dir_.empty(); }
  const std::filesystem::path& dir() const { return dir_; }
  /// Where the model of `hash` is stored: DIR/model-<16 hex digits>.ssrm.
  std::filesystem::path file(std::uint64_t hash) const;

  /// The model stored under `hash`, or nothing when there is no such file or it cannot be
  /// trusted: a wrong magic or format version, other inputs (hash), a truncated or corrupt
  /// payload (checksum). A rejected file is never used: the reason is logged as a warning
  /// ("cache: ignoring FILE: …; recomputing") and, when `problem` is given, stored there.
  /// `mesh`, the domain's mesh, is needed to read cubature models (decode_reduced_model).
  std::optional<ReducedModel> load(std::uint64_t hash, const TetMesh* mesh = nullptr,
                                   std::string* problem = nullptr) const;

  /// Writes the model under `hash` (to a temporary name in the folder, then renamed, so readers
  /// never see half a file). Returns the file; throws Error when the folder or file cannot be
  /// written.
  std::filesystem::path store(std::uint64_t hash, const ReducedModel& model) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace substruct
