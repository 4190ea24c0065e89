// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Vertices chosen by a short expression, for the fixed vertices of an imported model.
#include <string>
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct {

/// The vertices of `x` (sorted, 0-based) that `selector` picks:
///   "AXIS OP VALUE"  AXIS x, y or z; OP <, <=, >, >=; VALUE a number in the model's units,
///                    e.g. "y < 0.02" (blanks optional);
///   "lowest"         the vertices within 2 % of the model's height (along y) of its lowest one.
/// Throws Error naming the selector and what was expected when it does not parse.
std::vector<Index> select_vertices(const Points& x, const std::string& selector);

}  // namespace substruct
