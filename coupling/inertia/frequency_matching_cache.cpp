// SPDX-License-Identifier: GPL-3.0-or-later
#include "frequency_matching_cache.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "inertia_system.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/fnv1a.hpp"
#include "substruct/core/log.hpp"
#include "substruct/io/checked_record.hpp"
#include "substruct/io/staged_file.hpp"

namespace substruct::inertia {
namespace {

constexpr const char* kMatchingMagic = "SSFMATCH";
constexpr std::uint32_t kMatchingVersion = 1;

}  // namespace

std::uint64_t frequency_matching_hash(const InertiaSystem& system, const PrecomputeContext& context,
                                      const std::vector<DomainModel>& models) {
  const InertiaSettings& settings = system.settings;
  Fnv1a h;
  h.add_string("inertia frequency matching 2");
  for (const DomainModel& m : models) h.add_u64(m.inputs_hash);
  for (int p : system.tree.tree.parent) h.add_i64(p);
  for (Index v : context.scene.fixed_vertices) h.add_i64(v);
  for (const InertiaDomain& dom : system.tree.domains) h.add_i64(dom.r());
  h.add_i64(static_cast<int>(settings.lumping));
  h.add_i64(static_cast<int>(system.root_kind));
  h.add_i64(settings.newton_iterations);
  h.add_f64(settings.newmark_gamma);
  h.add_f64(settings.planar_epsilon);
  h.add_f64(context.scene.rayleigh_mass);
  h.add_f64(context.scene.rayleigh_stiffness);
  // Procedural materials, when used (older cache files stay valid without them).
  const bool procedural_stiffness =
      std::any_of(system.states.begin(), system.states.end(),
                  [](const DomainState& s) { return s.stiffness != 1; });
  if (procedural_stiffness)
    for (const DomainState& s : system.states) h.add_f64(s.stiffness);
  if (settings.damping == DampingMode::procedural)
    for (const DomainState& s : system.states)
      if (s.newmark) {
        h.add_f64(s.newmark->settings().mass_damping);
        h.add_f64(s.newmark->settings().stiffness_damping);
      }
  return h.digest();
}

std::filesystem::path frequency_matching_file(const std::filesystem::path& cache_dir,
                                              std::uint64_t hash) {
  if (cache_dir.empty()) return {};
  return cache_dir / fmt::format("inertia-frequency-matching-{:016x}.ssfm", hash);
}

bool read_matching_factors(const std::filesystem::path& file, std::uint64_t hash,
                           std::vector<double>& factor) {
  if (file.empty() || !std::filesystem::exists(file)) return false;
  try {
    const std::string bytes = read_file_bytes(file, "frequency matching factors");
    RecordReader in(decode_checked_record(bytes, kMatchingMagic, "frequency matching record",
                                          kMatchingVersion, hash));
    std::vector<double> read(in.count(sizeof(double)));
    in.f64s(read.data(), read.size());
    if (read.size() != factor.size()) return false;
    for (double f : read)
      if (!(f > 0) || !std::isfinite(f)) return false;
    factor = read;
    return true;
  } catch (const Error& e) {
    log::warn("inertia: frequency matching: {} not used: {}", file.string(), e.what());
    return false;
  }
}

void write_matching_factors(const std::filesystem::path& file, std::uint64_t hash,
                            const std::vector<double>& factor) {
  if (file.empty()) return;
  try {
    RecordWriter out;
    out.u64(factor.size());
    out.f64s(factor.data(), factor.size());
    std::filesystem::create_directories(file.parent_path());
    write_file_atomically(
        file, encode_checked_record(kMatchingMagic, kMatchingVersion, hash, out.bytes()));
  } catch (const std::exception& e) {
    log::warn("inertia: frequency matching: cannot store the factors in {}: {}", file.string(),
              e.what());
  }
}

}  // namespace substruct::inertia
