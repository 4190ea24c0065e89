// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The [scene] section: what is simulated (mesh, fixed vertices, domains, root, tracked
/// vertices). load_scene (scene/scene.hpp) builds the Scene from it.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "substruct/core/types.hpp"
#include "substruct/options/options.hpp"

namespace substruct {

/// What a domain graph with loops does: stop with an error naming a loop, or drop edges to a
/// spanning tree (and report them).
enum class LoopPolicy { error, spanning_tree };
std::string_view to_string(LoopPolicy policy);  // "error", "spanning-tree"

struct SceneSettings {
  std::filesystem::path mesh;  // required
  std::filesystem::path render_mesh;
  std::filesystem::path fixed;  // a .bou file
  std::string fixed_set;
  std::string domains = "single";  // single | auto:N | sets | sets:a,b | FILE
  std::string root = "auto";       // a domain id or auto
  LoopPolicy resolve_loops = LoopPolicy::error;
  std::vector<Index> tracked_vertices;
  bool reorient_elements = false;  // swap two vertices of inverted tets instead of refusing them
};

const OptionSet<SceneSettings>& scene_options();

}  // namespace substruct
