// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/coupling_settings.hpp"

namespace substruct {

const OptionSet<CouplingSettings>& coupling_options() {
  static const auto options = OptionSet<CouplingSettings>("coupling", "the method")
                                  .text("plugin", &CouplingSettings::plugin,
                                        "coupling plugin (substruct plugins lists them)");
  return options;
}

}  // namespace substruct
