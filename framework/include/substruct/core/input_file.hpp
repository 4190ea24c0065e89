// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Reading a file the user named (a scene, a mesh, fixed vertices, a render mesh, a cache entry):
/// it must be a regular file, or a link to one. A folder, a device (/dev/zero, /dev/urandom), a
/// FIFO or a socket is refused before a byte is read, so that no reader blocks forever or reads
/// until memory runs out. Every top-level reader opens its file here.
///
///   const std::string text = read_input_file(path, "fixed-vertex file");
#include <filesystem>
#include <string>
#include <string_view>

namespace substruct {

/// The whole content of `file`. Throws Error:
///   "cannot open WHAT 'FILE': No such file or directory" (and other reasons to refuse an open),
///   "cannot read WHAT 'FILE': it is a directory" (a character device, a block device, a FIFO,
///   a socket: what is there instead of a regular file),
///   "cannot read WHAT 'FILE': <the read error>".
std::string read_input_file(const std::filesystem::path& file, std::string_view what);

/// The same checks without reading: throws as read_input_file does unless `file` is a regular
/// file that can be opened for reading.
void require_input_file(const std::filesystem::path& file, std::string_view what);

/// What is at `file` in words when it is not a regular file ("a directory", "a character
/// device", "a FIFO", …); empty for a regular file or nothing. Links are followed.
std::string non_regular_kind(const std::filesystem::path& file);

}  // namespace substruct
