// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The record that a run's output files form one complete set: OUT.manifest beside the run's
/// output OUT.pvd (or OUT.csv), written last, after every exporter has published its files, and
/// removed before any of them starts to. A run killed while publishing thus leaves no manifest:
/// its files, possibly mixed with an earlier run's, do not claim to belong together.
///
///   # substruct run manifest 1
///   # scene flower
///   # method inertia
///   1958 flower.csv            (size in bytes, path relative to the manifest's folder)
///   …
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace substruct {

/// OUT.manifest for the run output OUT.pvd.
std::filesystem::path run_manifest_path(const std::filesystem::path& output);

/// Removes the manifest of `output`'s previous run, if any (before publishing a new set).
void withdraw_run_manifest(const std::filesystem::path& output);

/// Writes the manifest of `output` listing `files` (each with its size) after the `about` lines
/// ("scene", "flower"); through a StagedFile, flushed to disk. Returns its path.
std::filesystem::path write_run_manifest(
    const std::filesystem::path& output, const std::vector<std::filesystem::path>& files,
    const std::vector<std::pair<std::string, std::string>>& about);

/// What is wrong with the set a manifest describes: listed files missing or of another size,
/// an unreadable or malformed manifest (one line each; empty: the set is complete).
std::vector<std::string> check_run_manifest(const std::filesystem::path& manifest);

}  // namespace substruct
