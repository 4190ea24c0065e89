// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The framework's own config sections, in the order `substruct help scene` shows them:
/// [scene] [material] [coupling] [solvers] [reduction] [run] [view] [contact]. Config validates a
/// scene against them and the installed plugins' sections.
#include <vector>

#include "substruct/options/option_table.hpp"

namespace substruct {

const std::vector<const OptionTable*>& framework_sections();

}  // namespace substruct
