// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Shared libraries opened from the folder of the library that asks: a plugin's engine, a module
/// of the framework, loaded when first needed and kept for the process.
#include <filesystem>
#include <string_view>

namespace substruct {

/// The folder of the shared library holding `anchor` (the address of a function compiled into
/// it). Throws Error naming `who` when the loader cannot tell.
std::filesystem::path library_folder(const void* anchor, std::string_view who);

/// Opens `file` (RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE: it stays loaded until the process ends)
/// and returns its handle. Throws Error "`who`: cannot load FILE: the loader's reason".
void* open_library(const std::filesystem::path& file, std::string_view who);

/// The address of `name` in `library` (from open_library). Throws Error "`who`: FILE has no
/// NAME".
void* library_symbol(void* library, const std::filesystem::path& file, const char* name,
                     std::string_view who);

}  // namespace substruct
