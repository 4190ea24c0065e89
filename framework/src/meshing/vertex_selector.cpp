// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/meshing/vertex_selector.hpp"

#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/parse_number.hpp"

namespace substruct {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

[[noreturn]] void refuse(const std::string& selector, const std::string& what) {
  throw Error(
      fmt::format("fixed-vertex selector '{}': {}; expected 'AXIS OP VALUE' (AXIS x, y "
                  "or z; OP <, <=, > or >=; e.g. 'y < 0.02') or 'lowest'",
                  selector, what));
}

}  // namespace

std::vector<Index> select_vertices(const Points& x, const std::string& selector) {
  std::string_view s = trim(selector);
  std::vector<Index> chosen;
  if (s == "lowest") {
    const double lo = x.col(1).minCoeff(), hi = x.col(1).maxCoeff();
    const double top = lo + 0.02 * (hi - lo);
    for (Index v = 0; v < x.rows(); ++v)
      if (x(v, 1) <= top) chosen.push_back(v);
    return chosen;
  }
  if (s.empty()) refuse(selector, "it is empty");
  const char axis = s.front();
  if (axis != 'x' && axis != 'y' && axis != 'z')
    refuse(selector, fmt::format("'{}' is not an axis", s.front()));
  s = trim(s.substr(1));
  std::string_view op;
  for (const std::string_view candidate : {"<=", ">=", "<", ">"})
    if (s.substr(0, candidate.size()) == candidate) {
      op = candidate;
      break;
    }
  if (op.empty()) refuse(selector, fmt::format("no comparison after the axis {}", axis));
  const std::string_view number = trim(s.substr(op.size()));
  const std::optional<double> value = parse_number(std::string(number));
  if (!value || !std::isfinite(*value))
    refuse(selector, fmt::format("'{}' is not a finite number", number));
  const int d = axis - 'x';
  for (Index v = 0; v < x.rows(); ++v) {
    const double c = x(v, d);
    const bool in = op == "<"    ? c < *value
                    : op == "<=" ? c <= *value
                    : op == ">"  ? c > *value
                                 : c >= *value;
    if (in) chosen.push_back(v);
  }
  return chosen;
}

}  // namespace substruct
