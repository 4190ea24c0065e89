// SPDX-License-Identifier: GPL-3.0-or-later
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

enum class Colouring { plain, domains, displacement, error };
const char* to_string(Colouring colouring);

enum class GhostStyle { translucent, wireframe };

struct PullOption {
  Index vertex = 0;
  Vec3 force = Vec3::Zero();
};

/// A scripted mouse drag (headless): the left button pressed at window point `from` at frame
/// `first`, moved in a straight line, released at `to` at frame `last` [pixels from the lower
/// left].
struct ScriptedDrag {
  long first = 0, last = 0;
  double from_x = 0, from_y = 0, to_x = 0, to_y = 0;
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
  std::optional<ScriptedDrag> drag;
  double drag_stiffness = 0;  // [N/m] of the mouse spring; 0: from the object's mass
  bool still = false;         // no default excitation (excitation.hpp)
  Colouring colouring = Colouring::domains;
  bool paused = false;
  std::optional<bool> show_interfaces;  // default: shown for up to 32 domains
  bool show_fixed = true;
  bool show_contacts = true;  // the [contact] obstacles and touching vertices
  bool hud = true;
  bool print_hud = false;       // every frame's HUD text on stdout too
  bool check_geometry = false;  // the GPU path's vertices read back and compared with the CPU's
  bool looks = true;            // background gradient, ground plane and soft shadow

  // Comparison: one viewport per method, stepped in lockstep with the same loads and mouse pull.
  std::vector<std::string> compare;  // empty: the scene's method alone (m switches it)
  std::string reference;             // the errors' reference method; empty: see reference_method()
  std::string ghost;                 // drawn over every viewport; empty: none
  GhostStyle ghost_style = GhostStyle::translucent;
  std::filesystem::path record;  // an .mp4 of every frame (ffmpeg)
  std::filesystem::path replay;  // a recording (.ssrec) played back instead of a scene run
  int threads = 0;               // lanes stepped side by side; 0: one per core

  /// The method the errors are measured against: --reference, else the first of --compare, else
  /// the ghost; empty when none of them is given (then full for --colour error).
  std::string reference_method() const;

  bool headless() const {
    return frames.has_value() || !screenshot.empty() || !frame_sequence.empty() || print_hud ||
           check_geometry;
  }
};

/// Parses the arguments after `view`; throws Error with the reason. `help` is set by --help.
ViewerOptions parse_viewer_options(const cli::Args& args);

/// The text of `substruct view --help`.
const char* viewer_usage();

}  // namespace substruct::viewer
