// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/fem/material_model.hpp"

#include <string>

#include "substruct/core/error.hpp"

namespace substruct {

MaterialModel parse_material_model(std::string_view name) {
  if (name == "linear") return MaterialModel::linear;
  if (name == "stvk") return MaterialModel::stvk;
  if (name == "corotational") return MaterialModel::corotational;
  if (name == "neohookean") return MaterialModel::neohookean;
  throw Error("unknown material model '" + std::string(name) +
              "'; valid models are: linear, stvk, corotational, neohookean");
}

std::string_view to_string(MaterialModel model) {
  switch (model) {
    case MaterialModel::linear:
      return "linear";
    case MaterialModel::stvk:
      return "stvk";
    case MaterialModel::corotational:
      return "corotational";
    case MaterialModel::neohookean:
      return "neohookean";
  }
  throw Error("invalid MaterialModel value " + std::to_string(static_cast<int>(model)));
}

}  // namespace substruct
