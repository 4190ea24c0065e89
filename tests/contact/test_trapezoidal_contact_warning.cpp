// SPDX-License-Identifier: GPL-3.0-or-later
// The warning for contact under Newmark γ < 0.55 (config/contact_settings).
#include <gtest/gtest.h>

#include "substruct/config/contact_settings.hpp"

namespace substruct {
namespace {

ContactSettings with_ground() {
  ContactSettings s;
  s.ground = {0, 1, 0, -0.5};
  return s;
}

TEST(TrapezoidalContactWarning, NamesTheSectionAndTheFixUnderTheTrapezoidalRule) {
  const std::string w = trapezoidal_contact_warning(with_ground(), "full", 0.5);
  EXPECT_NE(w.find("[full] newmark_gamma = 0.5"), std::string::npos) << w;
  EXPECT_NE(w.find("--full.newmark_gamma=0.55"), std::string::npos) << w;
  EXPECT_FALSE(trapezoidal_contact_warning(with_ground(), "inertia", 0.54).empty());
}

TEST(TrapezoidalContactWarning, SilentWithoutObstaclesOrWithEnoughDamping) {
  EXPECT_TRUE(trapezoidal_contact_warning(ContactSettings{}, "full", 0.5).empty());
  EXPECT_TRUE(trapezoidal_contact_warning(with_ground(), "full", 0.55).empty());
  ContactSettings sphere;
  sphere.spheres = {0, 0, 0, 0.1};
  EXPECT_FALSE(trapezoidal_contact_warning(sphere, "inertia", 0.5).empty());
}

}  // namespace
}  // namespace substruct
