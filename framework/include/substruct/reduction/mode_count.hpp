// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The adaptive basis size of a domain (Zhao 2014, thesis §4.1 step 10).
#include "substruct/core/types.hpp"

namespace substruct {

/// The number of modes of a domain of `elements` tets when the largest domain has
/// `max_elements` and gets `max_modes` (r_max):
///   r = max(5, ⌊r_max log(e) / log(e_max)⌋),
/// so smaller domains get smaller bases. The result is never more than r_max (r_max < 5 gives
/// r_max), and a domain as large as the largest gets r_max (also when e_max = 1). The floor
/// allows 1e-9 of rounding, so exact ratios such as log 100 / log 10⁴ = ½ give their value.
/// Throws Error unless 1 ≤ elements ≤ max_elements and max_modes ≥ 0.
int mode_count(Index elements, Index max_elements, int max_modes);

}  // namespace substruct
