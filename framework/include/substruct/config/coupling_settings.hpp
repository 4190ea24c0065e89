// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The [coupling] section: which coupling plugin simulates the scene.
#include <string>

#include "substruct/options/options.hpp"

namespace substruct {

struct CouplingSettings {
  std::string plugin = "full";
};

const OptionSet<CouplingSettings>& coupling_options();

}  // namespace substruct
