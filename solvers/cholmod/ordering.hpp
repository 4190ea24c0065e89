// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The fill-reducing orderings the cholmod plugin offers (for CHOLMOD and UMFPACK alike).
#include <string_view>

namespace substruct::cholmod_plugin {

enum class Ordering { amd, metis, natural };

std::string_view to_string(Ordering ordering);  // "AMD", "METIS", "natural"

}  // namespace substruct::cholmod_plugin
