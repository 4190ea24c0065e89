// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The [material] section: the constitutive model and the material values that override the
/// mesh's, and Rayleigh damping.
#include <optional>
#include <string>

#include "substruct/options/options.hpp"

namespace substruct {

struct MaterialSettings {
  std::string model = "stvk";            // a MaterialModel's name (fem/material_model.hpp)
  std::optional<double> youngs_modulus;  // E [Pa]; unset: the mesh's
  std::optional<double> poisson_ratio;   // ν; unset: the mesh's
  std::optional<double> density;         // ρ [kg/m³]; unset: the mesh's
  double rayleigh_mass = 0;              // α [1/s] in D = αM + βK
  double rayleigh_stiffness = 0;         // β [s]
};

const OptionSet<MaterialSettings>& material_options();

}  // namespace substruct
