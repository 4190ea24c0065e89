#pragma once
// The command line of `substruct view`: the scene and its overrides (as for `run`), plus the
// viewer's own options.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "substruct/core/types.hpp"

namespace substruct::viewer {

enum class Colouring { plain, domains, displacement };
const char* to_string(Colouring colouring);

struct PullOption {
  Index vertex = 0;
  Vec3 force = Vec3::Zero();
};

struct ViewerOptions {
  cli::SceneArguments scene;  // scene file, --section.key=value overrides, global options
  // Headless: render `frames` frames off-screen, write the last one and/or every one, exit.
  std::optional<long> frames;
  std::filesystem::path screenshot;      // PNG of the last frame
  std::filesystem::path frame_sequence;  // folder: frame_0000.png …
  int width = 1024, height = 768;
  int steps_per_frame = 0;         // 0: about real time at 60 frames per second
  std::optional<PullOption> pull;  // a constant point force from t = 0
  double drag_stiffness = 0;       // [N/m] of the mouse spring; 0: from the object's mass
  Colouring colouring = Colouring::domains;
  bool paused = false;
  std::optional<bool> show_interfaces;  // default: shown for up to 32 domains
  bool show_fixed = true;
  bool hud = true;

  bool headless() const {
    return frames.has_value() || !screenshot.empty() || !frame_sequence.empty();
  }
};

/// Parses the arguments after `view`; throws Error with the reason. `help` is set by --help.
ViewerOptions parse_viewer_options(const cli::Args& args);

/// The text of `substruct view --help`.
const char* viewer_usage();

}  // namespace substruct::viewer
