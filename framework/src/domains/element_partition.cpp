// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/element_partition.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <string_view>
#include <unordered_set>

#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "domains_detail.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/input_file.hpp"
#include "substruct/core/trim.hpp"
#include "substruct/domains/band_partition.hpp"

namespace substruct {
namespace {

constexpr const char* kAcceptedSpecs =
    "single, auto:N, bands:N, sets, sets:NAME,NAME,… or a file of per-element domain ids";

std::string set_names_of(const TetMesh& mesh) {
  std::string s;
  for (const auto& [name, elements] : mesh.element_sets) {
    if (!s.empty()) s += ", ";
    s += fmt::format("{} ({} elements)", name, elements.size());
  }
  return s.empty() ? std::string("none") : s;
}

}  // namespace

void validate_element_partition(const ElementPartition& partition, Index num_elements) {
  const auto& dom = partition.domain_of_element;
  if (static_cast<Index>(dom.size()) != num_elements)
    throw Error(fmt::format("the element partition has {} entries but the mesh has {} elements",
                            dom.size(), num_elements));
  if (partition.num_domains < 1)
    throw Error(fmt::format("an element partition needs at least one domain, it has {}",
                            partition.num_domains));
  std::vector<Index> count(partition.num_domains, 0);
  for (Index e = 0; e < num_elements; ++e) {
    if (dom[e] < 0 || dom[e] >= partition.num_domains)
      throw Error(fmt::format("element {} is assigned to domain {}, outside 0…{}", e, dom[e],
                              partition.num_domains - 1));
    ++count[dom[e]];
  }
  std::vector<int> empty;
  for (int d = 0; d < partition.num_domains; ++d)
    if (count[d] == 0) empty.push_back(d);
  if (!empty.empty())
    throw Error(fmt::format("{} of the {} domains have no elements: {}", empty.size(),
                            partition.num_domains, detail::format_ids(empty)));
}

ElementPartition metis_element_partition(const TetMesh& mesh, int num_domains) {
  const std::string what = fmt::format("domains = auto:{}", num_domains);
  if (num_domains < 1 || num_domains > mesh.num_elements())
    throw Error(fmt::format("{}: the mesh has {} elements; ask for 1 to {} domains", what,
                            mesh.num_elements(), mesh.num_elements()));
  ElementPartition p;
  p.num_domains = num_domains;
  if (num_domains == 1) {
    p.domain_of_element.assign(mesh.num_elements(), 0);
    return p;
  }
  detail::require_valid_tets(mesh);
  p.domain_of_element = detail::metis_parts(detail::element_dual_graph(mesh), num_domains, what);
  return p;
}

ElementPartition element_partition_from_sets(const TetMesh& mesh,
                                             const std::vector<std::string>& set_names) {
  if (set_names.empty())
    throw Error(fmt::format("domains from element sets: no set named; the mesh's sets are: {}",
                            set_names_of(mesh)));
  const Index m = mesh.num_elements();
  ElementPartition p;
  p.num_domains = static_cast<int>(set_names.size());
  p.domain_of_element.assign(m, -1);
  // in_sets[e]: how many of the named sets hold e; second_set[e]: the second one that does.
  std::vector<int> in_sets(m, 0);
  std::vector<int> second_set(m, -1);
  std::unordered_set<std::string_view> named;  // a forest names 10⁵ sets: no pairwise check
  for (int d = 0; d < p.num_domains; ++d) {
    const std::string& name = set_names[d];
    if (!named.insert(name).second)
      throw Error(fmt::format("domains from element sets: set '{}' is named twice", name));
    const auto it = mesh.element_sets.find(name);
    if (it == mesh.element_sets.end())
      throw Error(
          fmt::format("domains from element sets: the mesh has no element set '{}'; "
                      "its sets are: {}",
                      name, set_names_of(mesh)));
    if (it->second.empty())
      throw Error(
          fmt::format("domains from element sets: set '{}' is empty, so domain {} would "
                      "have no elements",
                      name, d));
    for (const Index e : it->second) {
      if (e < 0 || e >= m)
        throw Error(
            fmt::format("domains from element sets: set '{}' holds element {}, but the "
                        "mesh has elements 0…{}",
                        name, e, m - 1));
      if (in_sets[e]++ == 0)
        p.domain_of_element[e] = d;
      else if (second_set[e] < 0)
        second_set[e] = d;
    }
  }
  std::vector<int> in_none;
  std::vector<int> in_many;
  for (Index e = 0; e < m; ++e) {
    if (in_sets[e] == 0) in_none.push_back(e);
    if (in_sets[e] > 1) in_many.push_back(e);
  }
  if (in_none.empty() && in_many.empty()) return p;

  std::string msg = fmt::format(
      "domains from element sets: every element must be in exactly one of the sets {{{}}}, but",
      fmt::join(set_names, ", "));
  if (!in_none.empty())
    msg += fmt::format(" {} of {} elements are in none (elements {})", in_none.size(), m,
                       detail::format_ids(in_none));
  if (!in_many.empty()) {
    if (!in_none.empty()) msg += " and";
    std::string examples;
    for (std::size_t i = 0; i < std::min<std::size_t>(in_many.size(), 5); ++i) {
      const int e = in_many[i];
      examples += fmt::format("{}element {} in '{}' and '{}'", i ? ", " : "", e,
                              set_names[p.domain_of_element[e]], set_names[second_set[e]]);
    }
    msg += fmt::format(" {} elements are in more than one ({}{})", in_many.size(), examples,
                       in_many.size() > 5 ? ", …" : "");
  }
  msg += " (element ids are 0-based)";
  throw Error(msg);
}

ElementPartition read_element_partition(const std::filesystem::path& file, Index num_elements) {
  std::istringstream in(read_input_file(file, "domain file"));
  ElementPartition p;
  p.domain_of_element.reserve(num_elements);
  std::string line;
  long line_no = 0;
  int max_id = -1;
  while (std::getline(in, line)) {
    ++line_no;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    const char* c = line.data();
    const char* end = c + line.size();
    while (true) {
      while (c < end && (*c == ' ' || *c == '\t' || *c == '\r')) ++c;
      if (c == end) break;
      const char* token_end = c;
      while (token_end < end && *token_end != ' ' && *token_end != '\t' && *token_end != '\r')
        ++token_end;
      int id = 0;
      const auto [ptr, ec] = std::from_chars(c, token_end, id);
      const std::string token(c, token_end);
      if (ec != std::errc() || ptr != token_end || id < 0)
        throw ParseError(file, line_no,
                         fmt::format("expected a domain id (an integer ≥ 0) for element {}, "
                                     "found '{}'",
                                     p.domain_of_element.size(), token));
      // Every domain needs an element: an id ≥ the element count cannot be valid, and refusing
      // it here keeps a stray huge id from sizing the per-domain arrays below.
      if (id >= num_elements)
        throw ParseError(file, line_no,
                         fmt::format("domain id {} for element {} is not below the number of "
                                     "elements ({}): ids must be 0…D−1 with every domain used",
                                     id, p.domain_of_element.size(), num_elements));
      if (static_cast<Index>(p.domain_of_element.size()) == num_elements)
        throw ParseError(file, line_no,
                         fmt::format("expected {} domain ids (one per element), found more "
                                     "(extra id '{}')",
                                     num_elements, token));
      p.domain_of_element.push_back(id);
      max_id = std::max(max_id, id);
      c = token_end;
    }
  }
  if (static_cast<Index>(p.domain_of_element.size()) != num_elements)
    throw ParseError(file, line_no,
                     fmt::format("expected {} domain ids (one per element), found {}", num_elements,
                                 p.domain_of_element.size()));
  p.num_domains = max_id + 1;
  std::vector<Index> count(p.num_domains, 0);
  for (const int d : p.domain_of_element) ++count[d];
  std::vector<int> unused;
  for (int d = 0; d < p.num_domains; ++d)
    if (count[d] == 0) unused.push_back(d);
  if (!unused.empty())
    throw ParseError(file, 0,
                     fmt::format("domain ids must be 0…D−1 with every id used (D = {} here), but "
                                 "{} {} {} no elements",
                                 p.num_domains, unused.size() == 1 ? "domain" : "domains",
                                 detail::format_ids(unused), unused.size() == 1 ? "has" : "have"));
  return p;
}

ElementPartition make_element_partition(const TetMesh& mesh, const std::string& spec_in,
                                        const std::filesystem::path& base_dir,
                                        const std::vector<Index>& fixed_vertices) {
  const std::string spec = trim(spec_in);
  if (mesh.num_elements() == 0)
    throw Error(fmt::format("domains = {}: the mesh has no elements", spec));
  if (spec.empty()) throw Error(fmt::format("domains is empty; expected {}", kAcceptedSpecs));

  ElementPartition p;
  if (spec == "single") {
    p.num_domains = 1;
    p.domain_of_element.assign(mesh.num_elements(), 0);
  } else if (spec.rfind("auto:", 0) == 0) {
    const std::string count = trim(spec.substr(5));
    int n = 0;
    const auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
    if (count.empty() || ec != std::errc() || ptr != count.data() + count.size() || n < 1)
      throw Error(fmt::format("domains = {}: expected auto:N with N a positive integer", spec));
    p = metis_element_partition(mesh, n);
  } else if (spec.rfind("bands:", 0) == 0) {
    const std::string count = trim(spec.substr(6));
    int n = 0;
    const auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
    if (count.empty() || ec != std::errc() || ptr != count.data() + count.size() || n < 1)
      throw Error(fmt::format("domains = {}: expected bands:N with N a positive integer", spec));
    p = geodesic_band_partition(mesh, fixed_vertices, n);
  } else if (spec == "sets") {
    std::vector<std::string> names;
    for (const auto& [name, elements] : mesh.element_sets)
      if (name != "allElements") names.push_back(name);
    if (names.empty())
      throw Error(
          fmt::format("domains = sets: the mesh has no element sets (besides "
                      "allElements); expected {}",
                      kAcceptedSpecs));
    p = element_partition_from_sets(mesh, names);
  } else if (spec.rfind("sets:", 0) == 0) {
    const auto names = split_trimmed(std::string_view(spec).substr(5), ',');
    for (const auto& name : names)
      if (name.empty())
        throw Error(
            fmt::format("domains = {}: expected sets:NAME,NAME,… with no empty name", spec));
    p = element_partition_from_sets(mesh, names);
  } else {
    std::filesystem::path file(spec);
    if (file.is_relative()) file = base_dir / file;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))  // what is there and no file: read_input_file says
      throw Error(fmt::format("domains = {}: no such file ({}); expected {}", spec, file.string(),
                              kAcceptedSpecs));
    p = read_element_partition(file, mesh.num_elements());
  }
  validate_element_partition(p, mesh.num_elements());
  return p;
}

}  // namespace substruct
