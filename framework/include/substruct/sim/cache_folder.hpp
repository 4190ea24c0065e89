// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Where a scene's precomputed models are cached when its [run] cache_dir is empty.
#include <filesystem>

namespace substruct {

/// The user's cache folder for models: $XDG_CACHE_HOME/substruct/models, else
/// $HOME/.cache/substruct/models, else `<temporary folder>/substruct/models`.
std::filesystem::path user_cache_dir();

/// The default cache folder of a scene in `scene_folder`: `.substruct-cache` beside it, unless
/// the scene is one of an installed program's (it lies in `installed_data`, that program's
/// `<prefix>/share/substruct`; empty for a program run from its build tree), writable or not, or
/// that folder cannot be written: then user_cache_dir(). An installed tree is not the user's to
/// fill.
std::filesystem::path default_cache_dir(const std::filesystem::path& scene_folder,
                                        const std::filesystem::path& installed_data);

}  // namespace substruct
