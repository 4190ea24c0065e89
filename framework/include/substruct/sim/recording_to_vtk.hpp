// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// A recording (sim/recording.hpp) expanded to a ParaView series for a chosen part of it: the
/// tets of a set of domains (e.g. a branch) over a time window. The series is laid out as the
/// vtk exporter lays out its own (DIR/STEM.pvd, DIR/STEM/STEM_NNNNNN.vtu, NNNNNN the step), and
/// with every domain chosen its files are the exporter's, byte for byte.
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "substruct/io/vtk_writer.hpp"
#include "substruct/sim/recording.hpp"

namespace substruct {

/// The domains `text` names, "3-40,57" or "all" (every domain), of a run with `num_domains`:
/// ascending, each once. Error naming the bad part otherwise.
std::vector<int> parse_domain_ranges(const std::string& text, int num_domains);

struct VtkExpansion {
  std::filesystem::path dir;  // the series goes to DIR/STEM.pvd and DIR/STEM/
  std::string stem;           // e.g. the recording's file stem
  std::vector<int> domains;   // ascending; empty: all
  double from = 0;            // the frames with from ≤ t ≤ to
  double to = std::numeric_limits<double>::infinity();
  VtkEncoding encoding = VtkEncoding::binary;
};

struct VtkExpansionSummary {
  std::filesystem::path pvd;
  std::size_t frames = 0;
  Index vertices = 0, tets = 0;  // of the chosen part
  std::uintmax_t vtu_bytes = 0;  // all frames' files
};

/// Writes the series. Every .vtu appears complete or not at all, and the .pvd last, after the
/// frames are on disk. Error when no frame lies in the window or no tet in the domains.
VtkExpansionSummary expand_to_vtk(Recording& recording, const VtkExpansion& what);

}  // namespace substruct
