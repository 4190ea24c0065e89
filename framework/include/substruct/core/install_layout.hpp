// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Where a substruct program finds what is installed with it, relative to the program itself, so
/// that no path of the source or build tree is compiled in. Installed under a prefix:
/// `<prefix>/bin` (programs), `<prefix>/lib` (the framework's libraries),
/// `<prefix>/lib/substruct/plugins` and `<prefix>/share/substruct` (scenes, meshes, benchmarks,
/// plot_bench.py). A build tree has the same bin/ and share/substruct/, the latter made of links
/// into the sources at configure time.
#include <filesystem>
#include <optional>

namespace substruct {

/// The folder of the running program (/proc/self/exe); empty when it cannot be read.
std::filesystem::path program_dir();

/// `<program_dir>/../share/substruct`: the data the commands read (it may not exist).
std::filesystem::path data_dir();

/// The source tree the program was built from, when it runs from a build tree (whose
/// share/substruct/scenes links to `<source>/share/scenes`); none for an installed program.
std::optional<std::filesystem::path> source_dir();

}  // namespace substruct
