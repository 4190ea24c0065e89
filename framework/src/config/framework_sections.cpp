// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/framework_sections.hpp"

#include "substruct/config/contact_settings.hpp"
#include "substruct/config/coupling_settings.hpp"
#include "substruct/config/material_settings.hpp"
#include "substruct/config/reduction_settings.hpp"
#include "substruct/config/run_settings.hpp"
#include "substruct/config/scene_settings.hpp"
#include "substruct/config/solver_settings.hpp"
#include "substruct/config/view_settings.hpp"

namespace substruct {

const std::vector<const OptionTable*>& framework_sections() {
  static const std::vector<const OptionTable*> sections = {
      &scene_options().table(),  &material_options().table(),  &coupling_options().table(),
      &solver_options().table(), &reduction_options().table(), &run_options().table(),
      &view_options().table(),   &contact_options().table()};
  return sections;
}

}  // namespace substruct
