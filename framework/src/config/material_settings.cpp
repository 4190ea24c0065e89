// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/material_settings.hpp"

namespace substruct {

const OptionSet<MaterialSettings>& material_options() {
  using S = MaterialSettings;
  static const auto options =
      OptionSet<S>("material", "constitutive model (overrides the mesh's)")
          .choice("model", &S::model, {"stvk", "linear", "corotational", "neohookean"},
                  "constitutive model of every element: StVK (the papers' model; it softens "
                  "under strong compression and can collapse), small-strain linear elasticity, "
                  "corotational linear elasticity, or invertible compressible neo-Hookean with a "
                  "positive semi-definite tangent per element (stable under large compression "
                  "and inversion)")
          .number("youngs_modulus", &S::youngs_modulus, "Pa", "E for every element", positive)
          .number("poisson_ratio", &S::poisson_ratio, "", "ν for every element",
                  in_open_range(-1, 0.5))
          .number("density", &S::density, "kg/m³", "ρ for every element", positive)
          .number("rayleigh_mass", &S::rayleigh_mass, "1/s", "Rayleigh damping α in D = αM + βK",
                  non_negative)
          .number("rayleigh_stiffness", &S::rayleigh_stiffness, "s",
                  "Rayleigh damping β in D = αM + βK", non_negative);
  return options;
}

}  // namespace substruct
