// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// What a writer may replace or remove: only regular files. Every writer (StagedFile, hence the
/// CSV and VTK exporters, the run's manifest, `modes` and `static` outputs, the caches) checks
/// its target here, and a run checks all its targets before it starts (sim/simulation.hpp), so
/// that `[csv] file = /dev/null` or a FIFO in the output's place is refused, not replaced.
#include <filesystem>
#include <string_view>

namespace substruct {

/// Throws Error "cannot write WHAT 'FILE': it is a character device (only a regular file is
/// replaced)" when something other than a regular file (or a link to one) is at `file`, and
/// "cannot write WHAT 'FILE': Not a directory ('DIR' is a file)" when a folder on its path is a
/// file. An empty `what` leaves it out of the messages. Creates nothing.
void check_output_target(const std::filesystem::path& file, std::string_view what);

/// check_output_target, then creates the folder that will hold `file` (with its parents).
void create_output_folder(const std::filesystem::path& file, std::string_view what);

/// Removes `file` when it is a regular file (what a writer published), and leaves anything
/// else there as it is. Returns whether something was removed.
bool remove_output_file(const std::filesystem::path& file) noexcept;

}  // namespace substruct
