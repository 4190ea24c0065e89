// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The benchmark's verdict in words, one paragraph per scene, for the reader who wants to know
/// which method to take: which is closest to the reference and which is fastest, at what error
/// and time per step; which are indistinguishable from the reference (an error below the
/// reference's own error at Δt against Δt/4 is not ranked); which could not run, stopped, or
/// came apart, and why; and that a quick run's figures are no measurement.
#include <string>

#include "substruct/bench/bench_report.hpp"

namespace substruct {

/// The verdict of every scene of `report`, in the order the scenes first appear: Markdown, one
/// paragraph a scene ("**beam**: …"), each sentence ending in a full stop. Errors are the table's
/// "error / motion", times the median step time in ms; two figures that print the same to
/// three significant digits are a tie, named together. Empty when the report has no case.
std::string bench_verdict(const BenchReport& report);

}  // namespace substruct
