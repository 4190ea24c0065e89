// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The options of `substruct import` (declared once in command_import.cpp's OptionSet), shared by
// its closed-surface and plant paths.
#include <filesystem>
#include <string>
#include <vector>

#include "substruct/core/types.hpp"

namespace substruct::cli {

struct ImportSettings {
  std::filesystem::path out;
  std::string as = "solid";
  std::string fix;
  double size = 0;
  int cells = 30;
  std::string name;
  // --as plant (Zhao 2014, §4.1, Steps 1–9)
  std::string pieces = "components";
  std::string rigid_materials = "leaf|leaves|needle|frond|billboard|card";
  double thin = 0.02;
  double small = 0.01;
  std::vector<Index> rigid_pieces;
  std::vector<Index> flexible_pieces;
  bool instances = true;
  double instance_tolerance = 1e-3;
  double contact = 0.5;
  std::string root = "lowest";
  int plant_cells = 100;
  std::string fill = "surface";
  std::string rigid_fill = "shell";
};

/// Steps 1–9 of the thesis on the model at `model`, the scene written to settings.out as NAME.*
/// (the scene file last); prints what each step did and how long it took.
void import_plant(const std::filesystem::path& model, const std::string& name,
                  const ImportSettings& settings);

}  // namespace substruct::cli
