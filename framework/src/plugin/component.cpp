// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/plugin/component.hpp"

namespace substruct {

// Defined here so that the type information of Component lives in libsubstruct and
// dynamic_cast across plugin libraries works.
Component::~Component() = default;

}  // namespace substruct
