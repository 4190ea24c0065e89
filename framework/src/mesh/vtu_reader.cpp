// SPDX-License-Identifier: GPL-3.0-or-later
// VTK XML unstructured grids (.vtu): one <Piece> of points and cells, the arrays in ascii,
// inline base64 or appended (raw or base64) form, uncompressed or zlib-compressed. A small
// reader of our own rather than VTK's (Debian's libvtk9-dev is hundreds of megabytes for a format
// of five arrays) or a generic XML parser's (which holds no line numbers for the messages and
// cannot hold the raw bytes of <AppendedData>).
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "detail/line_reader.hpp"
#include "detail/vtk_cells.hpp"
#include "detail/vtu_arrays.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/input_file.hpp"
#include "substruct/mesh/mesh_io.hpp"

namespace substruct {

namespace {

using mesh_detail::VtuArray;
using mesh_detail::VtuEncoding;

// One start or end tag of the XML text.
struct Tag {
  std::string name;
  std::map<std::string, std::string> attributes;
  bool end = false;       // </name>
  bool self_end = false;  // <name …/>
  std::size_t after = 0;  // the offset just after '>'
  std::size_t begin = 0;  // the offset of '<'
};

class XmlScanner {
 public:
  XmlScanner(const std::filesystem::path& file, std::string_view text) : file_(file), text_(text) {}

  long line_at(std::size_t offset) const {
    return 1 + static_cast<long>(std::count(
                   text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
  }
  [[noreturn]] void fail(std::size_t offset, const std::string& expected,
                         const std::string& found) const {
    throw ParseError(file_, line_at(offset), fmt::format("expected {}, found {}", expected, found));
  }

  // The next tag, skipping text, comments, <?…?> and <!…>; false at the end.
  bool next(Tag& tag) {
    while (true) {
      const std::size_t lt = text_.find('<', pos_);
      if (lt == std::string_view::npos) return false;
      if (text_.compare(lt, 4, "<!--") == 0) {
        pos_ = skip_past(lt, "-->");
        continue;
      }
      if (text_.compare(lt, 2, "<?") == 0) {
        pos_ = skip_past(lt, "?>");
        continue;
      }
      if (text_.compare(lt, 2, "<!") == 0) {
        pos_ = skip_past(lt, ">");
        continue;
      }
      read_tag(lt, tag);
      return true;
    }
  }

 private:
  std::size_t skip_past(std::size_t from, std::string_view end) const {
    const std::size_t at = text_.find(end, from);
    if (at == std::string_view::npos) fail(from, fmt::format("'{}'", end), "end of file");
    return at + end.size();
  }

  static bool is_name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == ':' || c == '-' ||
           c == '.';
  }
  void skip_space(std::size_t& k) const {
    while (k < text_.size() && std::isspace(static_cast<unsigned char>(text_[k])) != 0) ++k;
  }

  void read_tag(std::size_t lt, Tag& tag) {
    tag = Tag{};
    tag.begin = lt;
    std::size_t k = lt + 1;
    if (k < text_.size() && text_[k] == '/') {
      tag.end = true;
      ++k;
    }
    const std::size_t name_begin = k;
    while (k < text_.size() && is_name_char(text_[k])) ++k;
    tag.name = std::string(text_.substr(name_begin, k - name_begin));
    if (tag.name.empty())
      fail(lt, "an XML tag name after '<'", mesh_detail::quoted(text_.substr(k, 10)));
    while (true) {
      skip_space(k);
      if (k >= text_.size())
        fail(lt, fmt::format("the end of the tag <{}>", tag.name), "end of file");
      if (text_[k] == '>') break;
      if (text_.compare(k, 2, "/>") == 0) {
        tag.self_end = true;
        ++k;
        break;
      }
      const std::size_t key_begin = k;
      while (k < text_.size() && is_name_char(text_[k])) ++k;
      const std::string key(text_.substr(key_begin, k - key_begin));
      skip_space(k);
      if (key.empty() || k >= text_.size() || text_[k] != '=')
        fail(k, fmt::format("an attribute NAME=\"VALUE\" in <{}>", tag.name),
             mesh_detail::quoted(text_.substr(key_begin, 10)));
      ++k;
      skip_space(k);
      if (k >= text_.size() || (text_[k] != '"' && text_[k] != '\''))
        fail(k, fmt::format("a quoted value of the attribute {}", key),
             mesh_detail::quoted(text_.substr(k, 10)));
      const char quote = text_[k];
      const std::size_t close = text_.find(quote, k + 1);
      if (close == std::string_view::npos)
        fail(k, fmt::format("the closing quote of the attribute {}", key), "end of file");
      tag.attributes[key] = std::string(text_.substr(k + 1, close - k - 1));
      k = close + 1;
    }
    tag.after = k + 1;
    pos_ = tag.after;
  }

  const std::filesystem::path& file_;
  std::string_view text_;
  std::size_t pos_ = 0;
};

std::string attribute(const Tag& tag, const std::string& key) {
  const auto it = tag.attributes.find(key);
  return it == tag.attributes.end() ? std::string() : it->second;
}

struct VtuContent {
  VtuEncoding encoding;
  int pieces = 0;
  long long num_points = -1, num_cells = -1;
  long piece_line = 1;
  std::map<std::string, VtuArray> arrays;  // "points", "connectivity", "offsets", "types"
};

// The file's <VTKFile> attributes.
void read_file_tag(const XmlScanner& s, const Tag& tag, VtuContent& c) {
  const std::string type = attribute(tag, "type");
  if (type != "UnstructuredGrid")
    s.fail(
        tag.begin, "a VTK file of type UnstructuredGrid",
        type.empty() ? std::string("no type") : fmt::format("type {}", mesh_detail::quoted(type)));
  const std::string order = attribute(tag, "byte_order");
  if (!order.empty() && order != "LittleEndian" && order != "BigEndian")
    s.fail(tag.begin, "the byte order LittleEndian or BigEndian", mesh_detail::quoted(order));
  c.encoding.big_endian = order == "BigEndian";
  const std::string header = attribute(tag, "header_type");
  if (!header.empty() && header != "UInt32" && header != "UInt64")
    s.fail(tag.begin, "the header type UInt32 or UInt64", mesh_detail::quoted(header));
  c.encoding.header_bytes = header == "UInt64" ? 8 : 4;
  const std::string compressor = attribute(tag, "compressor");
  if (!compressor.empty() && compressor != "vtkZLibDataCompressor")
    s.fail(tag.begin, "no compressor or vtkZLibDataCompressor",
           fmt::format("{} (re-save the file with zlib or no compression)",
                       mesh_detail::quoted(compressor)));
  c.encoding.zlib = !compressor.empty();
}

void read_tags(XmlScanner& s, std::string_view xml, VtuContent& c) {
  std::vector<std::string> open;
  Tag tag;
  bool seen_file = false;
  while (s.next(tag)) {
    if (tag.end) {
      if (open.empty() || open.back() != tag.name)
        s.fail(tag.begin,
               open.empty() ? std::string("no end tag")
                            : fmt::format("the end tag </{}>", open.back()),
               fmt::format("</{}>", tag.name));
      open.pop_back();
      continue;
    }
    const std::string parent = open.empty() ? std::string() : open.back();
    if (tag.name == "VTKFile") {
      if (seen_file) s.fail(tag.begin, "a single <VTKFile>", "a second one");
      seen_file = true;
      read_file_tag(s, tag, c);
    } else if (!seen_file) {
      s.fail(tag.begin, "<VTKFile type=\"UnstructuredGrid\" …>", fmt::format("<{}>", tag.name));
    } else if (tag.name == "Piece") {
      if (++c.pieces > 1)
        s.fail(tag.begin, "a single <Piece> (a .vtu of one piece)", "a second one");
      c.piece_line = s.line_at(tag.begin);
      long long value = 0;
      for (const char* key : {"NumberOfPoints", "NumberOfCells"}) {
        if (!mesh_detail::parse_integer(attribute(tag, key), value) || value < 0)
          s.fail(tag.begin, fmt::format("a count {}=\"N\" in <Piece>", key),
                 mesh_detail::quoted(attribute(tag, key)));
        (std::string_view(key) == "NumberOfPoints" ? c.num_points : c.num_cells) = value;
      }
    } else if (tag.name == "DataArray" && (parent == "Points" || parent == "Cells")) {
      const std::string name = parent == "Points" ? "points" : attribute(tag, "Name");
      if (name == "points" || name == "connectivity" || name == "offsets" || name == "types") {
        if (c.arrays.count(name) != 0)
          s.fail(tag.begin, fmt::format("a single DataArray '{}'", name), "a second one");
        VtuArray& a = c.arrays[name];
        a.attributes = tag.attributes;
        a.line = s.line_at(tag.begin);
        a.text_line = a.line;
        if (!tag.self_end) {
          const std::size_t close = xml.find("</DataArray", tag.after);
          if (close == std::string_view::npos) s.fail(tag.begin, "</DataArray>", "end of file");
          a.text = xml.substr(tag.after, close - tag.after);
        }
      }
    }
    if (!tag.self_end) open.push_back(tag.name);
  }
  if (!seen_file) s.fail(0, "<VTKFile type=\"UnstructuredGrid\" …>", "none");
}

// Finds <AppendedData>, whose raw bytes no XML scan may cross: the XML text before it, and the
// data after its '_'.
std::string_view split_appended(const std::filesystem::path& file, std::string_view text,
                                VtuEncoding& e) {
  const std::size_t at = text.find("<AppendedData");
  if (at == std::string_view::npos) return text;
  const XmlScanner s(file, text);
  const std::size_t close = text.find('>', at);
  if (close == std::string_view::npos)
    s.fail(at, "the end of the tag <AppendedData>", "end of file");
  const std::string_view tag = text.substr(at, close - at);
  if (tag.find("encoding=\"base64\"") != std::string_view::npos)
    e.appended_base64 = true;
  else if (tag.find("encoding=\"raw\"") == std::string_view::npos)
    s.fail(at, "<AppendedData encoding=\"raw\"> or encoding=\"base64\"", mesh_detail::quoted(tag));
  const std::size_t underscore = text.find('_', close);
  if (underscore == std::string_view::npos)
    s.fail(close, "'_' starting the appended data", "end of file");
  e.appended = text.substr(underscore + 1);
  return text.substr(0, at);
}

}  // namespace

TetMesh read_vtu(const std::filesystem::path& file) {
  const std::string text = read_input_file(file, "VTK XML file");
  VtuContent c;
  c.encoding.file = file;
  const std::string_view xml = split_appended(file, text, c.encoding);
  XmlScanner s(file, xml);
  read_tags(s, xml, c);
  const auto last_line = [&] { return s.line_at(xml.size()); };
  if (c.pieces == 0)
    throw ParseError(file, last_line(), "expected a <Piece> in <UnstructuredGrid>, found none");
  for (const char* name : {"points", "connectivity", "offsets", "types"})
    if (c.arrays.count(name) == 0)
      throw ParseError(
          file, c.piece_line,
          fmt::format("expected the DataArray {} in the <Piece>, found none",
                      std::string_view(name) == "points" ? "of <Points>"
                                                         : fmt::format("'{}' of <Cells>", name)));
  const VtuArray& points = c.arrays.at("points");
  if (points.attributes.count("NumberOfComponents") == 0 ||
      points.attributes.at("NumberOfComponents") != "3")
    throw ParseError(file, points.line,
                     "expected NumberOfComponents=\"3\" in the DataArray of <Points>, found " +
                         mesh_detail::quoted(points.attributes.count("NumberOfComponents") != 0
                                                 ? points.attributes.at("NumberOfComponents")
                                                 : std::string("none")));
  const std::vector<double> xyz = mesh_detail::vtu_doubles(c.encoding, points, "Points");
  const auto expect_count = [&](const VtuArray& a, std::string_view name, std::size_t got,
                                long long want) {
    if (static_cast<long long>(got) != want)
      throw ParseError(file, a.line,
                       fmt::format("expected {} values in the DataArray '{}' as <Piece> says, "
                                   "found {}",
                                   want, name, got));
  };
  expect_count(points, "Points", xyz.size(), 3 * c.num_points);
  mesh_detail::VtkCells cells;
  cells.connectivity =
      mesh_detail::vtu_integers(c.encoding, c.arrays.at("connectivity"), "connectivity");
  cells.offsets = mesh_detail::vtu_integers(c.encoding, c.arrays.at("offsets"), "offsets");
  cells.types = mesh_detail::vtu_integers(c.encoding, c.arrays.at("types"), "types");
  expect_count(c.arrays.at("offsets"), "offsets", cells.offsets.size(), c.num_cells);
  expect_count(c.arrays.at("types"), "types", cells.types.size(), c.num_cells);
  const long cells_line = c.arrays.at("types").line;
  return mesh_detail::tet_mesh_of_vtk_cells(file, xyz, cells,
                                            [&](std::size_t) { return cells_line; });
}

}  // namespace substruct
