#include "vtk_xml.hpp"

#include <bit>
#include <cstring>
#include <iterator>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::vtk {

namespace {

template <class T>
constexpr const char* vtk_type();
template <>
constexpr const char* vtk_type<double>() {
  return "Float64";
}
template <>
constexpr const char* vtk_type<std::int32_t>() {
  return "Int32";
}
template <>
constexpr const char* vtk_type<std::int64_t>() {
  return "Int64";
}
template <>
constexpr const char* vtk_type<std::uint8_t>() {
  return "UInt8";
}

template <class T>
void append_values(std::string& out, int components, std::span<const T> values, Encoding encoding,
                   int indent) {
  if (encoding == Encoding::binary) {
    const std::size_t bytes = values.size() * sizeof(T);
    if (bytes > std::numeric_limits<std::uint32_t>::max())
      throw Error(
          fmt::format("vtk: a data array of {} bytes is larger than the 4 GiB a binary "
                      "VTK header counts; use [vtk] format = ascii",
                      bytes));
    // One base64 stream: the UInt32 byte count, then the values.
    std::vector<unsigned char> raw(sizeof(std::uint32_t) + bytes);
    const auto count = static_cast<std::uint32_t>(bytes);
    std::memcpy(raw.data(), &count, sizeof count);
    if (bytes > 0) std::memcpy(raw.data() + sizeof count, values.data(), bytes);
    out += base64(raw.data(), raw.size());
    return;
  }
  // ASCII: one tuple per line (several scalars per line), indented below the tag.
  const std::size_t per_line = components > 1 ? static_cast<std::size_t>(components) : 12;
  auto sink = std::back_inserter(out);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i % per_line == 0) {
      out += '\n';
      out.append(static_cast<std::size_t>(indent + 2), ' ');
    } else {
      out += ' ';
    }
    if constexpr (std::is_same_v<T, std::uint8_t>)
      fmt::format_to(sink, "{}", static_cast<unsigned>(values[i]));
    else
      fmt::format_to(sink, "{}", values[i]);
  }
  out += '\n';
  out.append(static_cast<std::size_t>(indent), ' ');
}

template <class T>
void append_array(std::string& out, std::string_view name, int components,
                  std::span<const T> values, Encoding encoding, int indent) {
  out.append(static_cast<std::size_t>(indent), ' ');
  out += fmt::format("<DataArray type=\"{}\"", vtk_type<T>());
  if (!name.empty()) out += fmt::format(" Name=\"{}\"", xml_escape(name));
  out += fmt::format(" NumberOfComponents=\"{}\" format=\"{}\">", components,
                     encoding == Encoding::binary ? "binary" : "ascii");
  append_values(out, components, values, encoding, indent);
  out += "</DataArray>\n";
}

}  // namespace

const char* byte_order() {
  return std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";
}

std::string base64(const unsigned char* data, std::size_t size) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t n = (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8) |
                            std::uint32_t{data[i + 2]};
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  if (const std::size_t rest = size - i; rest > 0) {
    std::uint32_t n = std::uint32_t{data[i]} << 16;
    if (rest == 2) n |= std::uint32_t{data[i + 1]} << 8;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += rest == 2 ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void append_data_array(std::string& out, std::string_view name, int components,
                       std::span<const double> values, Encoding encoding, int indent) {
  append_array(out, name, components, values, encoding, indent);
}
void append_data_array(std::string& out, std::string_view name, int components,
                       std::span<const std::int32_t> values, Encoding encoding, int indent) {
  append_array(out, name, components, values, encoding, indent);
}
void append_data_array(std::string& out, std::string_view name, int components,
                       std::span<const std::int64_t> values, Encoding encoding, int indent) {
  append_array(out, name, components, values, encoding, indent);
}
void append_data_array(std::string& out, std::string_view name, int components,
                       std::span<const std::uint8_t> values, Encoding encoding, int indent) {
  append_array(out, name, components, values, encoding, indent);
}

}  // namespace substruct::vtk
