// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The values of one VTK XML <DataArray>, in any of its encodings: ascii text, inline base64
// ("binary") or the file's <AppendedData> (raw or base64), uncompressed or zlib-compressed, in
// either byte order, with a UInt32 or UInt64 header.
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace substruct::mesh_detail {

/// What every array of a file shares (the <VTKFile> attributes and the appended data).
struct VtuEncoding {
  std::filesystem::path file;
  bool big_endian = false;
  std::size_t header_bytes = 4;  // UInt32 or UInt64
  bool zlib = false;             // compressor="vtkZLibDataCompressor"
  std::string_view appended;     // after the '_' of <AppendedData>; empty when there is none
  bool appended_base64 = false;
};

/// One <DataArray>: its attributes, its text between the tags, and the line of its start tag.
struct VtuArray {
  std::map<std::string, std::string> attributes;
  std::string_view text;
  long line = 0;
  long text_line = 0;  // the line where the text starts
};

/// The values as doubles (floating-point arrays) or as integers. Bad data is a ParseError on
/// the array's line naming the array and what is wrong.
std::vector<double> vtu_doubles(const VtuEncoding& encoding, const VtuArray& array,
                                std::string_view name);
std::vector<long long> vtu_integers(const VtuEncoding& encoding, const VtuArray& array,
                                    std::string_view name);

}  // namespace substruct::mesh_detail
