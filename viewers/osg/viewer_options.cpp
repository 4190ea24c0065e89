// SPDX-License-Identifier: GPL-3.0-or-later
#include "viewer_options.hpp"

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/parse_number.hpp"

namespace substruct::viewer {

const char* to_string(Colouring colouring) {
  switch (colouring) {
    case Colouring::plain:
      return "plain";
    case Colouring::domains:
      return "domains";
    case Colouring::displacement:
      return "displacement";
    case Colouring::error:
      return "error";
  }
  return "?";
}

std::string ViewerOptions::reference_method() const {
  if (!reference.empty()) return reference;
  if (compare.size() > 1) return compare.front();
  return ghost;
}

namespace {

long parse_long(const std::string& option, const std::string& text, long min) {
  const std::optional<long> value = parse_integer(text);
  if (!value || *value < min)
    throw Error(fmt::format("view: {} expects an integer ≥ {}, found '{}'", option, min, text));
  return *value;
}

double parse_double(const std::string& option, const std::string& text) {
  const std::optional<double> value = parse_number(text);
  if (!value || !std::isfinite(*value) || *value < 0)
    throw Error(fmt::format("view: {} expects a number ≥ 0, found '{}'", option, text));
  return *value;
}

Vec3 parse_vec3(const std::string& option, const std::string& text) {
  std::istringstream in(text);
  Vec3 v;
  if (!(in >> v[0] >> v[1] >> v[2]) || !(in >> std::ws).eof() || !v.allFinite())
    throw Error(fmt::format("view: {} expects a force \"fx fy fz\", found '{}'", option, text));
  return v;
}

// "a,b,c" → {a, b, c}; every name non-empty.
std::vector<std::string> parse_methods(const std::string& option, const std::string& text) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    std::string name = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (name.empty())
      throw Error(
          fmt::format("view: {} expects coupling methods separated by commas (e.g. "
                      "full,inertia,coupling-elements), found '{}'",
                      option, text));
    names.push_back(std::move(name));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (names.size() > 9)
    throw Error(fmt::format("view: {} compares at most 9 methods, found {}", option, names.size()));
  return names;
}

}  // namespace

ViewerOptions parse_viewer_options(const cli::Args& args) {
  ViewerOptions o;
  cli::Args rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* what) -> const std::string& {
      if (i + 1 >= args.size()) throw Error(fmt::format("view: {} needs {}", a, what));
      return args[++i];
    };
    if (a == "--frames") {
      o.frames = parse_long(a, value("a number of frames"), 0);
    } else if (a == "--screenshot") {
      o.screenshot = value("a PNG file");
      if (o.screenshot.extension() != ".png")
        throw Error(fmt::format("view: --screenshot writes PNG: name a .png file, found '{}'",
                                o.screenshot.string()));
    } else if (a == "--frame-sequence") {
      o.frame_sequence = value("a folder");
    } else if (a == "--size") {
      const std::string& s = value("WIDTHxHEIGHT");
      const auto x = s.find('x');
      if (x == std::string::npos)
        throw Error(fmt::format("view: --size expects WIDTHxHEIGHT, found '{}'", s));
      o.width = static_cast<int>(parse_long("--size", s.substr(0, x), 16));
      o.height = static_cast<int>(parse_long("--size", s.substr(x + 1), 16));
      if (o.width > 8192 || o.height > 8192)
        throw Error(fmt::format("view: --size {} is larger than 8192×8192", s));
    } else if (a == "--steps-per-frame") {
      o.steps_per_frame = static_cast<int>(parse_long(a, value("a number of steps"), 1));
    } else if (a == "--pull") {
      PullOption pull;
      pull.vertex = static_cast<Index>(parse_long(a, value("VERTEX \"fx fy fz\""), 0));
      pull.force = parse_vec3(a, value("a force \"fx fy fz\" after the vertex"));
      o.pull = pull;
    } else if (a == "--drag") {
      const std::string& text = value("\"FIRST LAST X0 Y0 X1 Y1\"");
      std::istringstream in(text);
      ScriptedDrag d;
      if (!(in >> d.first >> d.last >> d.from_x >> d.from_y >> d.to_x >> d.to_y) ||
          !(in >> std::ws).eof() || d.first < 0 || d.last <= d.first)
        throw Error(
            fmt::format("view: --drag expects \"FIRST LAST X0 Y0 X1 Y1\" (frames 0 ≤ "
                        "FIRST < LAST, window pixels from the lower left), found '{}'",
                        text));
      o.drag = d;
    } else if (a == "--drag-stiffness") {
      o.drag_stiffness = parse_double(a, value("a stiffness [N/m]"));
    } else if (a == "--colour" || a == "--color") {
      const std::string& c = value("plain, domains, displacement or error");
      if (c == "plain")
        o.colouring = Colouring::plain;
      else if (c == "domains")
        o.colouring = Colouring::domains;
      else if (c == "displacement")
        o.colouring = Colouring::displacement;
      else if (c == "error")
        o.colouring = Colouring::error;
      else
        throw Error(fmt::format(
            "view: --colour expects plain, domains, displacement or error, found '{}'", c));
    } else if (a == "--compare") {
      o.compare = parse_methods(a, value("coupling methods, e.g. full,inertia"));
    } else if (a == "--reference") {
      o.reference = value("a coupling method");
    } else if (a == "--ghost") {
      o.ghost = value("a coupling method");
    } else if (a == "--ghost-style") {
      const std::string& g = value("translucent or wireframe");
      if (g == "translucent")
        o.ghost_style = GhostStyle::translucent;
      else if (g == "wireframe")
        o.ghost_style = GhostStyle::wireframe;
      else
        throw Error(
            fmt::format("view: --ghost-style expects translucent or wireframe, found '{}'", g));
    } else if (a == "--record") {
      o.record = value("an .mp4 file");
      if (o.record.extension() != ".mp4")
        throw Error(fmt::format("view: --record writes MP4 video: name a .mp4 file, found '{}'",
                                o.record.string()));
    } else if (a == "--replay") {
      o.replay = value("a recording (.ssrec)");
    } else if (a == "--threads") {
      o.threads = static_cast<int>(parse_long(a, value("a number of threads"), 1));
    } else if (a == "--print-hud") {
      o.print_hud = true;
    } else if (a == "--check-geometry") {
      o.check_geometry = true;
    } else if (a == "--plain") {
      o.looks = false;
    } else if (a == "--still") {
      o.still = true;
    } else if (a == "--paused") {
      o.paused = true;
    } else if (a == "--interfaces") {
      o.show_interfaces = true;
    } else if (a == "--no-interfaces") {
      o.show_interfaces = false;
    } else if (a == "--no-fixed") {
      o.show_fixed = false;
    } else if (a == "--no-contacts") {
      o.show_contacts = false;
    } else if (a == "--no-hud") {
      o.hud = false;
    } else {
      rest.push_back(a);
    }
  }
  if (!o.replay.empty()) {  // a recording holds its scene: no scene file nor overrides
    if (!rest.empty() && rest.front() != "--help" && rest.front() != "-h")
      throw Error(
          fmt::format("view: --replay plays a recording; unexpected argument '{}' (a "
                      "replay takes no scene file or --section.key=value)",
                      rest.front()));
    o.scene.help = !rest.empty();
    return o;
  }
  o.scene = cli::parse_scene_arguments(
      "view", rest,
      {"--frames",     "--screenshot",     "--frame-sequence", "--size",       "--steps-per-frame",
       "--pull",       "--drag-stiffness", "--colour",         "--color",      "--paused",
       "--interfaces", "--no-interfaces",  "--no-fixed",       "--no-hud",     "--compare",
       "--reference",  "--ghost",          "--ghost-style",    "--record",     "--print-hud",
       "--plain",      "--still",          "--check-geometry", "--no-contacts"});
  if (o.compare.size() == 1) o.scene.overrides.push_back("--coupling.plugin=" + o.compare.front());
  return o;
}

const char* viewer_usage() {
  return R"(usage: substruct view SCENE.ini [options] [--section.key=value …]
       substruct view --replay FILE.ssrec [--frames N] [--screenshot FILE.png] [--size WxH] …
  Simulates the scene live with the coupling method it names (or --coupling.plugin=NAME) in an
  OpenSceneGraph window, or several methods side by side (--compare); left-drag on the object
  pulls it with a spring, the other mouse buttons move the camera. Keys (also shown with h):
    p pause/resume   n one step   r reset   g gravity   w wind   c colouring
    m next method (precompute or cache, shown on screen)   i interfaces   f fixed vertices
    k contacts   o ghost on/off   [ ] spring stiffness ÷2 ×2   h help   Esc quit
options:
  --frames N            headless: render N frames (frame 0 is the initial state) and exit
  --screenshot FILE.png headless: write the last frame as PNG
  --frame-sequence DIR  headless: write every frame as DIR/frame_0000.png …
  --size WxH            window or image size (default 1024x768)
  --steps-per-frame K   simulation steps per frame (default: about real time at 60 Hz)
  --pull V "fx fy fz"   a constant force [N] on vertex V from t = 0 (the pull load)
  --still               no default excitation. By default a scene whose loads are gravity alone
                        (or none), viewed without --pull or --drag, is pulled and let go: a
                        force of half the object's weight on its first tracked vertex ([scene]
                        tracked_vertices), across the object's thinner side in view, until
                        t = 0.5 s, so that the methods swing freely from the same state and
                        their differences show at once (r starts it again)
  --drag "F0 F1 X0 Y0 X1 Y1"   headless: a mouse drag from window point (X0, Y0) at frame F0
                        to (X1, Y1) at frame F1 (pixels from the lower left): the spring pulls
                        the picked vertex in every viewport
  --drag-stiffness K    mouse spring [N/m] (default: the object's mass × (2π·3 Hz)²)
  --compare A,B,…       one viewport per method, stepped in lockstep (same loads, time step and
                        mouse pull), linked cameras; each viewport is titled with its method,
                        and its HUD shows its time per step and its error against the
                        reference (up to 9 methods)
  --reference METHOD    the reference of the errors (default: the first of --compare, else the
                        ghost, else full): relative RMS error of the tracked vertices over the
                        reference's own motion, as in substruct bench
  --ghost METHOD        draw METHOD's surface over the viewed one (o toggles it)
  --ghost-style STYLE   translucent | wireframe (default translucent)
  --colour MODE         plain | domains | displacement | error (default domains); error: each
                        vertex's distance to the reference's over the reference's largest
                        displacement so far, with a legend
  --record FILE.mp4     a video of every frame (ffmpeg), interactive or headless
  --replay FILE.ssrec   play back a recording (--run.exporters=record) instead of running a
                        scene: in a window, looping in real time (space pauses), or headless
                        (--frames N: its first N + 1 frames, default all; --screenshot,
                        --frame-sequence, --record, --size, --plain, --colour plain|domains)
  --threads N           compared methods stepped side by side on N threads (default: one per
                        core; each method's results do not depend on it)
  --print-hud           headless: print every frame's HUD text on stdout
  --check-geometry      headless: after the last frame, read the vertices the GPU path drew
                        back (rendered into a float image) and print their largest distance to
                        the CPU path's ([view] geometry)
  --plain               no background gradient, ground or shadow (images compared by tests)
  --paused              start paused
  --interfaces, --no-interfaces   show / hide interface vertices (default: shown for up to 32
                        domains)
  --no-fixed            hide the fixed vertices
  --no-contacts         hide the [contact] obstacles and the touching vertices (red points)
  --no-hud              no on-screen panel (e.g. for images compared by tests)
Headless rendering needs an X server: set DISPLAY, or run under xvfb-run -a.
)";
}

}  // namespace substruct::viewer
