// SPDX-License-Identifier: GPL-3.0-or-later
#include "detail/vtu_arrays.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "detail/line_reader.hpp"
#include "substruct/core/error.hpp"

namespace substruct::mesh_detail {

namespace {

struct ValueType {
  const char* name;
  std::size_t size;
  char kind;  // 'i' signed, 'u' unsigned, 'f' floating point
};
constexpr std::array<ValueType, 10> kTypes = {{
    {"Int8", 1, 'i'},
    {"UInt8", 1, 'u'},
    {"Int16", 2, 'i'},
    {"UInt16", 2, 'u'},
    {"Int32", 4, 'i'},
    {"UInt32", 4, 'u'},
    {"Int64", 8, 'i'},
    {"UInt64", 8, 'u'},
    {"Float32", 4, 'f'},
    {"Float64", 8, 'f'},
}};
// zlib expands at most ~1032-fold: a header promising more is not a zlib stream of that size.
constexpr std::size_t kMaxZlibRatio = 1032;

using Bytes = std::vector<unsigned char>;

std::string attribute(const VtuArray& a, const std::string& key) {
  const auto it = a.attributes.find(key);
  return it == a.attributes.end() ? std::string() : it->second;
}

[[noreturn]] void fail(const VtuEncoding& e, long line, std::string_view name,
                       const std::string& expected, const std::string& found) {
  throw ParseError(
      e.file, line,
      fmt::format("expected {} in the DataArray '{}', found {}", expected, name, found));
}

const ValueType& value_type(const VtuEncoding& e, const VtuArray& a, std::string_view name) {
  const std::string type = attribute(a, "type");
  for (const ValueType& t : kTypes)
    if (type == t.name) return t;
  fail(e, a.line, name, "a type of Int8 … Int64, UInt8 … UInt64, Float32 or Float64",
       type.empty() ? std::string("no type attribute") : mesh_detail::quoted(type));
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// RFC 4648 base64, group by group, so that streams encoded one after another (VTK encodes a
// compressed array's header apart from its data) decode to their bytes one after another.
// Stops at '<'. False on a character that is not base64.
bool decode_base64(std::string_view text, Bytes& out) {
  std::array<int, 4> group{};
  int n = 0, pad = 0;
  const auto flush = [&] {
    const std::uint32_t bits = (static_cast<std::uint32_t>(group[0]) << 18) |
                               (static_cast<std::uint32_t>(group[1]) << 12) |
                               (static_cast<std::uint32_t>(group[2]) << 6) |
                               static_cast<std::uint32_t>(group[3]);
    const int bytes = n - 1;  // 4 characters: 3 bytes; 3: 2; 2: 1
    for (int k = 0; k < bytes; ++k) out.push_back(static_cast<unsigned char>(bits >> (16 - 8 * k)));
    group = {};
    n = pad = 0;
  };
  for (const char c : text) {
    if (c == '<') break;
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      if (n < 2) return false;
      ++pad;
      if (n + pad == 4) flush();
      continue;
    }
    const int v = base64_value(c);
    if (v < 0 || pad > 0) return false;
    group[static_cast<std::size_t>(n++)] = v;
    if (n == 4) flush();
  }
  if (n == 1) return false;
  if (n > 1) flush();
  return true;
}

std::uint64_t read_unsigned(const unsigned char* p, std::size_t size, bool big_endian) {
  std::uint64_t v = 0;
  for (std::size_t k = 0; k < size; ++k) {
    const std::size_t byte = big_endian ? k : size - 1 - k;
    v = (v << 8) | p[byte];
  }
  return v;
}

// The array's payload: its header read, decompressed when the file says so.
Bytes payload(const VtuEncoding& e, const VtuArray& a, std::string_view name,
              std::string_view stored) {
  const auto* p = reinterpret_cast<const unsigned char*>(stored.data());
  const std::size_t size = stored.size();
  const std::size_t hb = e.header_bytes;
  const auto header = [&](std::size_t k) {
    if ((k + 1) * hb > size)
      fail(e, a.line, name, fmt::format("a {}-byte header", (k + 1) * hb),
           fmt::format("{} bytes of data", size));
    return read_unsigned(p + k * hb, hb, e.big_endian);
  };
  if (!e.zlib) {
    const std::uint64_t bytes = header(0);
    if (bytes > size - hb)
      fail(e, a.line, name, fmt::format("the {} bytes its header counts", bytes),
           fmt::format("{} bytes (the file is truncated?)", size - hb));
    return Bytes(p + hb, p + hb + bytes);
  }
  const std::uint64_t blocks = header(0);
  const std::uint64_t block_size = header(1);
  const std::uint64_t last_size = header(2);
  if (blocks > size / hb) fail(e, a.line, name, "a zlib block count", std::to_string(blocks));
  std::size_t at = (3 + blocks) * hb;
  header(2 + blocks);  // the block sizes are all there
  Bytes out;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t compressed = header(3 + b);
    const std::uint64_t expected = (b + 1 == blocks && last_size != 0) ? last_size : block_size;
    if (compressed > size - at || expected > kMaxZlibRatio * (compressed + 64))
      fail(e, a.line, name, fmt::format("zlib block {} of {} bytes", b, compressed),
           fmt::format("{} bytes left (the file is truncated?)", size - at));
    const std::size_t start = out.size();
    out.resize(start + expected);
    uLongf length = static_cast<uLongf>(expected);
    if (uncompress(out.data() + start, &length, p + at, static_cast<uLong>(compressed)) != Z_OK ||
        length != expected)
      fail(e, a.line, name, fmt::format("zlib block {} to inflate to {} bytes", b, expected),
           "a broken zlib stream");
    at += compressed;
  }
  return out;
}

// The stored bytes of a binary or appended array.
Bytes binary_values(const VtuEncoding& e, const VtuArray& a, std::string_view name) {
  const std::string format = attribute(a, "format");
  Bytes decoded;
  if (format == "binary") {
    if (!decode_base64(a.text, decoded))
      fail(e, a.text_line, name, "base64 text", "a character outside the base64 alphabet");
    return payload(e, a, name, {reinterpret_cast<const char*>(decoded.data()), decoded.size()});
  }
  if (e.appended.empty()) fail(e, a.line, name, "an <AppendedData> section", "none in the file");
  long long offset = 0;
  if (!parse_integer(attribute(a, "offset"), offset) || offset < 0 ||
      static_cast<std::size_t>(offset) >= e.appended.size())
    fail(e, a.line, name,
         fmt::format("an offset in [0, {}) into the appended data", e.appended.size()),
         mesh_detail::quoted(attribute(a, "offset")));
  const std::string_view stored = e.appended.substr(static_cast<std::size_t>(offset));
  if (!e.appended_base64) return payload(e, a, name, stored);
  if (!decode_base64(stored, decoded))
    fail(e, a.line, name, "base64 appended data", "a character outside the base64 alphabet");
  return payload(e, a, name, {reinterpret_cast<const char*>(decoded.data()), decoded.size()});
}

// Every value of the array through `take(index, bytes of one value, type)`, or through
// `take_text(index, token, line)` for ascii.
template <class TakeBinary, class TakeText>
void for_each_value(const VtuEncoding& e, const VtuArray& a, std::string_view name,
                    const TakeBinary& take, const TakeText& take_text) {
  const std::string format = attribute(a, "format");
  const ValueType& type = value_type(e, a, name);
  if (format == "ascii") {
    long line = a.text_line;
    std::size_t i = 0, k = 0;
    const std::string_view t = a.text;
    while (k < t.size()) {
      if (t[k] == '\n') ++line;
      if (t[k] == ' ' || t[k] == '\n' || t[k] == '\r' || t[k] == '\t') {
        ++k;
        continue;
      }
      const std::size_t begin = k;
      while (k < t.size() && t[k] != ' ' && t[k] != '\n' && t[k] != '\r' && t[k] != '\t') ++k;
      take_text(i++, t.substr(begin, k - begin), line);
    }
    return;
  }
  if (format != "binary" && format != "appended")
    fail(e, a.line, name, "the format ascii, binary or appended", mesh_detail::quoted(format));
  const Bytes bytes = binary_values(e, a, name);
  if (bytes.size() % type.size != 0)
    fail(e, a.line, name, fmt::format("a whole number of {}-byte values", type.size),
         fmt::format("{} bytes", bytes.size()));
  std::array<unsigned char, 8> value{};
  for (std::size_t i = 0; i * type.size < bytes.size(); ++i) {
    for (std::size_t k = 0; k < type.size; ++k)
      value[k] = bytes[i * type.size + (e.big_endian ? type.size - 1 - k : k)];
    take(i, value.data(), type);
  }
}

double as_double(const unsigned char* v, const ValueType& type) {
  if (type.kind == 'f') {
    if (type.size == 4) {
      float f;
      std::memcpy(&f, v, 4);
      return f;
    }
    double d;
    std::memcpy(&d, v, 8);
    return d;
  }
  std::uint64_t u = 0;
  std::memcpy(&u, v, type.size);  // little-endian after the swap above
  if (type.kind == 'i' && type.size < 8 && (u >> (8 * type.size - 1)) != 0)
    u |= ~std::uint64_t{0} << (8 * type.size);  // sign extension
  return type.kind == 'i' ? static_cast<double>(static_cast<std::int64_t>(u))
                          : static_cast<double>(u);
}

}  // namespace

std::vector<double> vtu_doubles(const VtuEncoding& e, const VtuArray& a, std::string_view name) {
  std::vector<double> out;
  for_each_value(
      e, a, name,
      [&](std::size_t i, const unsigned char* v, const ValueType& type) {
        const double x = as_double(v, type);
        if (!std::isfinite(x))
          fail(e, a.line, name, "finite values", fmt::format("{} at value {} (0-based)", x, i));
        out.push_back(x);
      },
      [&](std::size_t i, std::string_view token, long line) {
        double x = 0;
        if (!parse_double(token, x))
          fail(e, line, name, fmt::format("value {} (0-based) a finite number", i),
               mesh_detail::quoted(token));
        out.push_back(x);
      });
  return out;
}

std::vector<long long> vtu_integers(const VtuEncoding& e, const VtuArray& a,
                                    std::string_view name) {
  if (value_type(e, a, name).kind == 'f')
    fail(e, a.line, name, "an integer type", mesh_detail::quoted(attribute(a, "type")));
  std::vector<long long> out;
  for_each_value(
      e, a, name,
      [&](std::size_t i, const unsigned char* v, const ValueType& type) {
        std::uint64_t u = 0;
        std::memcpy(&u, v, type.size);
        if (type.kind == 'i' && type.size < 8 && (u >> (8 * type.size - 1)) != 0)
          u |= ~std::uint64_t{0} << (8 * type.size);
        if (type.kind == 'u' &&
            u > static_cast<std::uint64_t>(std::numeric_limits<long long>::max()))
          fail(e, a.line, name, "values below 2⁶³", fmt::format("{} at value {}", u, i));
        out.push_back(static_cast<long long>(u));
      },
      [&](std::size_t i, std::string_view token, long line) {
        long long x = 0;
        if (!parse_integer(token, x))
          fail(e, line, name, fmt::format("value {} (0-based) an integer", i),
               mesh_detail::quoted(token));
        out.push_back(x);
      });
  return out;
}

}  // namespace substruct::mesh_detail
