#pragma once
/// Pieces of VTK XML files (docs.vtk.org, "VTK XML file formats"): data arrays in ASCII or inline
/// base64, and attribute escaping.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace substruct::vtk {

/// `format` of a DataArray. binary: base64 of one stream [UInt32 byte count][raw values], the
/// values in the machine's byte order (declared by byte_order()); the layout VTK reads for
/// uncompressed inline data with header_type="UInt32".
enum class Encoding { ascii, binary };

/// "LittleEndian" or "BigEndian": the byte order of this machine.
const char* byte_order();

/// RFC 4648 base64 with '=' padding.
std::string base64(const unsigned char* data, std::size_t size);

/// Escapes &, <, >, " and ' for use in an XML attribute or text.
std::string xml_escape(std::string_view text);

/// Appends one line `<DataArray type=… Name=… NumberOfComponents=… format=…>…</DataArray>`
/// (Name omitted when empty), indented by `indent` spaces. ASCII values are written so that they
/// read back exactly (shortest round-trip form). Throws Error when a binary array exceeds the
/// 4 GiB that a UInt32 header counts.
void append_data_array(std::string& out, std::string_view name, int components,
                       std::span<const double> values, Encoding encoding, int indent);
void append_data_array(std::string& out, std::string_view name, int components,
                       std::span<const std::int32_t> values, Encoding encoding, int indent);
void append_data_array(std::string& out, std::string_view name, int components,
                       std::span<const std::int64_t> values, Encoding encoding, int indent);
void append_data_array(std::string& out, std::string_view name, int components,
                       std::span<const std::uint8_t> values, Encoding encoding, int indent);

}  // namespace substruct::vtk
