// SPDX-License-Identifier: GPL-3.0-or-later
// substruct replay FILE.ssrec [--to-vtk DIR] [--domains 3-40,57] [--from T] [--to T]: says what
// a recording (written by the record exporter) holds, and expands a part of it, a set of
// domains over a time window, to a ParaView series (sim/recording_to_vtk.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/options/option_docs.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/sim/recording.hpp"
#include "substruct/sim/recording_to_vtk.hpp"

namespace substruct::cli {
namespace {

namespace fs = std::filesystem;

struct ReplaySettings {
  fs::path to_vtk;  // empty: only the summary
  std::string domains = "all";
  double from = 0;
  std::optional<double> to;
  VtkEncoding format = VtkEncoding::binary;
};

// The command's options, given as --KEY VALUE or --KEY=VALUE.
const OptionSet<ReplaySettings>& replay_options() {
  using S = ReplaySettings;
  static const auto options =
      OptionSet<S>("replay", "a recording (.ssrec) described, or expanded to a ParaView series")
          .path("to-vtk", &S::to_vtk,
                "write the chosen part as DIR/STEM.pvd and DIR/STEM/STEM_NNNNNN.vtu (STEM: the "
                "recording's file name without .ssrec); without it only the summary")
          .text("domains", &S::domains,
                "the domains to expand, e.g. 3-40,57 (numbers as the run's domain cell data "
                "shows them), or all")
          .number("from", &S::from, "s", "the first time expanded (frames at t ≥ from)",
                  non_negative)
          .number("to", &S::to, "s", "the last time expanded (frames at t ≤ to); default: the end",
                  non_negative)
          .choice("format", &S::format,
                  {{"binary", VtkEncoding::binary}, {"ascii", VtkEncoding::ascii}},
                  "the .vtu arrays: binary (base64) or ascii");
  return options;
}

const OptionTable& replay_option_table() {
  return replay_options().table();
}
// On the reference page (framework/docs/options.md) with the other commands' options.
const bool replay_options_registered = register_command_options({"replay", replay_option_table});

void print_help() {
  std::printf(
      "usage: substruct replay FILE.ssrec [--to-vtk DIR] [--domains LIST] [--from T] [--to T]\n"
      "                        [--format binary|ascii]\n"
      "  Prints what a recording holds (record it with --run.exporters=record, see\n"
      "  substruct help record) and, with --to-vtk, expands the chosen domains over the chosen\n"
      "  window to a ParaView series. With every domain the series' files are those the vtk\n"
      "  exporter writes for the same run, byte for byte.\n"
      "  Options, as --KEY VALUE:\n%s\n",
      options_text(replay_options().table()).c_str());
}

}  // namespace

int command_replay(const Args& raw_args) {
  GlobalOptions global;
  const Args args = take_global_options(raw_args, global);
  std::vector<Setting> settings;
  fs::path file;
  OptionArguments a("replay", args);
  while (a.next()) {
    bool taken = false;
    for (const OptionInfo& option : replay_options().table().options)
      if (a.is("--" + option.key)) {
        settings.push_back({"replay." + option.key, a.value("--" + option.key), "command line"});
        taken = true;
        break;
      }
    if (taken) continue;
    if (a.is("--help") || a.current() == "-h") {
      print_help();
      return 0;
    }
    if (a.current().starts_with("--")) throw a.unknown();
    if (!file.empty())
      throw Error(fmt::format("replay: unexpected argument '{}' (one recording)", a.current()));
    file = a.current();
  }
  if (file.empty()) throw Error("replay: which recording? usage: substruct replay FILE.ssrec");
  PluginHost host(global.plugin_paths);
  const ReplaySettings o = replay_options().read(
      Config::from_settings(settings, fs::current_path(), host, {&replay_options().table()}));

  Recording recording(file);
  const RecordedRun& run = recording.run();
  std::uint64_t frame_bytes = 0;
  for (std::size_t f = 0; f < recording.frames(); ++f) frame_bytes += recording.frame_bytes(f);
  const std::size_t frames = recording.frames();
  std::printf("recording  %s: scene %s, method %s, %d domain%s, %d vertices, %d tets\n",
              file.c_str(), run.scene.c_str(), run.method.c_str(), run.num_domains(),
              run.num_domains() == 1 ? "" : "s", run.mesh.num_vertices(), run.mesh.num_elements());
  std::printf("frames     %zu, t = %.6g … %.6g s%s\n", frames, frames ? recording.time(0) : 0.0,
              frames ? recording.time(frames - 1) : 0.0,
              run.layout ? ", poses and reduced coordinates" : ", positions");
  std::printf("bytes      %llu of models, %.0f per frame (%llu in all)\n",
              static_cast<unsigned long long>(recording.header_bytes()),
              frames ? double(frame_bytes) / double(frames) : 0.0,
              static_cast<unsigned long long>(recording.header_bytes() + frame_bytes));
  if (o.to_vtk.empty()) return 0;

  VtkExpansion what;
  what.dir = o.to_vtk;
  what.stem = file.stem().string();
  what.domains = parse_domain_ranges(o.domains, run.num_domains());
  what.from = o.from;
  what.to = o.to.value_or(std::numeric_limits<double>::infinity());
  what.encoding = o.format;
  const auto start = Clock::now();
  const VtkExpansionSummary s = expand_to_vtk(recording, what);
  const double seconds = seconds_since(start);
  std::printf(
      "vtk        %s: %zu frame%s of %d tets, %d vertices (%zu domain%s), %.0f bytes "
      "per frame, %.3f s\n",
      s.pvd.c_str(), s.frames, s.frames == 1 ? "" : "s", s.tets, s.vertices, what.domains.size(),
      what.domains.size() == 1 ? "" : "s", double(s.vtu_bytes) / double(s.frames), seconds);
  return 0;
}

SUBSTRUCT_COMMAND("replay", "FILE.ssrec [--to-vtk DIR] [--domains 3-40] [--from T] [--to T]",
                  "describe a recording, or expand a part of it to a ParaView series",
                  command_replay);

}  // namespace substruct::cli
