// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/sim/recording_to_vtk.hpp"

#include <algorithm>
#include <cstdint>
#include <span>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/parse_number.hpp"
#include "substruct/core/trim.hpp"
#include "substruct/io/output_target.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/io/vtk_frame.hpp"

namespace substruct {

namespace fs = std::filesystem;

namespace {

int domain_number(const std::string& text, const std::string& part, int num_domains) {
  const std::optional<long> value = parse_integer(trim(text));
  if (!value || *value < 0 || *value >= num_domains)
    throw Error(
        fmt::format("domains '{}': expected domain numbers 0…{} (the run has {}), found "
                    "'{}'",
                    part, num_domains - 1, num_domains, trim(text)));
  return static_cast<int>(*value);
}

/// Rows `keep` of `points`.
Points rows_of(const Points& points, const std::vector<Index>& keep) {
  if (points.rows() == 0) return points;
  Points out(static_cast<Index>(keep.size()), 3);
  for (std::size_t i = 0; i < keep.size(); ++i) out.row(Index(i)) = points.row(keep[i]);
  return out;
}

}  // namespace

std::vector<int> parse_domain_ranges(const std::string& text, int num_domains) {
  std::vector<char> chosen(std::size_t(std::max(num_domains, 0)), 0);
  if (trim(text) == "all") {
    std::fill(chosen.begin(), chosen.end(), 1);
  } else {
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      const std::string part = text.substr(start, comma - start);
      const std::size_t dash = part.find('-');
      const int first = domain_number(part.substr(0, dash), part, num_domains);
      const int last = dash == std::string::npos
                           ? first
                           : domain_number(part.substr(dash + 1), part, num_domains);
      if (last < first)
        throw Error(fmt::format("domains '{}': the range ends before it starts", part));
      std::fill(chosen.begin() + first, chosen.begin() + last + 1, 1);
      start = comma + 1;
    }
  }
  std::vector<int> domains;
  for (int d = 0; d < num_domains; ++d)
    if (chosen[std::size_t(d)]) domains.push_back(d);
  return domains;
}

VtkExpansionSummary expand_to_vtk(Recording& recording, const VtkExpansion& what) {
  const RecordedRun& run = recording.run();
  const TetMesh& mesh = run.mesh;
  const Index n = mesh.num_vertices(), m = mesh.num_elements();
  const auto domain_of = [&](Index e) {
    return run.domain.empty() ? 0 : run.domain[std::size_t(e)];
  };

  // The chosen part: its tets, and the vertices they use (ascending, renumbered).
  const std::vector<int> all = parse_domain_ranges("all", run.num_domains());
  const bool whole = what.domains.empty() || what.domains == all;
  std::vector<char> chosen(std::size_t(run.num_domains()), whole ? 1 : 0);
  for (int d : what.domains) {
    if (d < 0 || d >= run.num_domains())
      throw Error(
          fmt::format("replay: domain {} is not one of the run's {}", d, run.num_domains()));
    chosen[std::size_t(d)] = 1;
  }
  std::vector<Index> tets_kept;
  for (Index e = 0; e < m; ++e)
    if (chosen[std::size_t(domain_of(e))]) tets_kept.push_back(e);
  if (tets_kept.empty())
    throw Error("replay: the chosen domains hold no tets (a rigid domain of the layout alone?)");
  std::vector<Index> new_id(std::size_t(n), -1), vertices_kept;
  for (Index e : tets_kept)
    for (int k = 0; k < 4; ++k) new_id[std::size_t(mesh.tets(e, k))] = 0;
  for (Index v = 0; v < n; ++v)
    if (new_id[std::size_t(v)] == 0 || whole) {
      new_id[std::size_t(v)] = Index(vertices_kept.size());
      vertices_kept.push_back(v);
    }
  Tets tets(Index(tets_kept.size()), 4);
  std::vector<std::int32_t> domains(tets_kept.size()), materials;
  const bool with_material = mesh.element_material.size() == std::size_t(m);
  for (std::size_t i = 0; i < tets_kept.size(); ++i) {
    const Index e = tets_kept[i];
    for (int k = 0; k < 4; ++k) tets(Index(i), k) = new_id[std::size_t(mesh.tets(e, k))];
    domains[i] = domain_of(e);
    if (with_material) materials.push_back(mesh.element_material[std::size_t(e)]);
  }

  std::vector<std::size_t> frames;
  for (std::size_t f = 0; f < recording.frames(); ++f)
    if (recording.time(f) >= what.from && recording.time(f) <= what.to) frames.push_back(f);
  if (frames.empty())
    throw Error(fmt::format(
        "replay: no frame lies in the window {} s … {} s (the recording has "
        "{} frames, {} s … {} s)",
        what.from, what.to, recording.frames(), recording.frames() ? recording.time(0) : 0.0,
        recording.frames() ? recording.time(recording.frames() - 1) : 0.0));

  VtkExpansionSummary summary;
  summary.pvd = what.dir / (what.stem + ".pvd");
  const fs::path frames_dir = what.dir / what.stem;
  create_output_folder(summary.pvd, "the series");
  check_output_target(frames_dir / "x.vtu", "the series' frames");
  fs::create_directories(frames_dir);
  const VtuWriter writer = run_frame_writer(tets, domains, materials, what.encoding);
  const Points rest = whole ? mesh.vertices : rows_of(mesh.vertices, vertices_kept);
  Points x, v;
  std::vector<VtkTimeStep> steps;
  for (std::size_t f : frames) {
    recording.state(f, x, &v);
    const std::string name = fmt::format("{}_{:06d}.vtu", what.stem, recording.step(f));
    const fs::path file = frames_dir / name;
    if (whole)
      write_run_frame(writer, file, rest, x, v, recording.time(f), recording.step(f),
                      Durability::deferred);
    else
      write_run_frame(writer, file, rest, rows_of(x, vertices_kept), rows_of(v, vertices_kept),
                      recording.time(f), recording.step(f), Durability::deferred);
    summary.vtu_bytes += fs::file_size(file);
    steps.push_back({recording.time(f), (fs::path(what.stem) / name).generic_string()});
  }
  sync_file_system(frames_dir);  // the frames are on disk before the series lists them
  write_file_atomically(summary.pvd, [&](std::ostream& out) { write_vtk_collection(out, steps); });
  summary.frames = frames.size();
  summary.vertices = Index(vertices_kept.size());
  summary.tets = Index(tets_kept.size());
  return summary;
}

}  // namespace substruct
