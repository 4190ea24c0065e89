// SPDX-License-Identifier: GPL-3.0-or-later
// substruct check-plugin NAME_OR_PATH [--scene SCENE.ini] [--steps N] [--reference-steps N]
//                        [--max-error E] [--section.key=value …]
//
// Puts a coupling plugin, found by name or given as its library file, through the coupling
// contract (conformance/coupling_conformance.hpp): each rule prints PASS or FAIL with its name
// and what was measured; the exit status is 1 when any rule fails.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "substruct/config/config.hpp"
#include "substruct/conformance/coupling_conformance.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/install_layout.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/progress.hpp"
#include "substruct/options/option_docs.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct::cli {

namespace {

namespace fs = std::filesystem;

struct CheckPluginSettings {
  fs::path scene;  // empty: the shipped beam in two domains
  long steps = 5;
  long reference_steps = 50;
  double max_error = 1;
};

// The command's options, given as --KEY VALUE or --KEY=VALUE.
const OptionSet<CheckPluginSettings>& check_plugin_options() {
  using S = CheckPluginSettings;
  static const auto options =
      OptionSet<S>("check-plugin", "the coupling contract run on one plugin")
          .path("scene", &S::scene,
                "the scene the rules run on; default: the shipped beam "
                "(share/substruct/scenes/beam.ini) cut in two domains")
          .integer("steps", &S::steps, "", "steps of each run of the contract's rules",
                   in_range(1, 10000))
          .integer("reference-steps", &S::reference_steps, "",
                   "steps of the run beside the full ground truth", in_range(1, 100000))
          .number("max-error", &S::max_error, "",
                  "the largest trajectory error of that run, relative to the reference's own "
                  "motion (0 exact, 1 as far off as standing still)",
                  positive);
  return options;
}

const OptionTable& check_plugin_option_table() {
  return check_plugin_options().table();
}
// On the reference page (framework/docs/options.md) with the other commands' options.
const bool check_plugin_options_registered =
    register_command_options({"check-plugin", check_plugin_option_table});

std::string option_name(const std::string& key) {
  return "--" + key;
}

struct CheckPluginArguments {
  GlobalOptions global;
  std::string plugin;                  // a name or a library file
  std::vector<Setting> options;        // check-plugin.KEY
  std::vector<std::string> overrides;  // --section.key=value for the scene
  bool help = false;
};

CheckPluginArguments parse_check_plugin_arguments(const Args& raw_args) {
  CheckPluginArguments parsed;
  const Args args = take_global_options(raw_args, parsed.global);
  OptionArguments a("check-plugin", args);
  while (a.next()) {
    const std::string& arg = a.current();
    bool taken = false;
    for (const OptionInfo& option : check_plugin_options().table().options)
      if (a.is(option_name(option.key))) {
        parsed.options.push_back(
            {"check-plugin." + option.key, a.value(option_name(option.key)), "command line"});
        taken = true;
        break;
      }
    if (taken) continue;
    if (a.is("--help") || arg == "-h") {
      parsed.help = true;
    } else if (arg.starts_with("--")) {
      const auto eq = arg.find('=');
      if (eq == std::string::npos || arg.find('.') > eq) throw a.unknown();
      parsed.overrides.push_back(arg);
    } else if (parsed.plugin.empty()) {
      parsed.plugin = arg;
    } else {
      throw Error(
          fmt::format("check-plugin: unexpected argument '{}' (one plugin; scene settings as "
                      "--section.key=value)",
                      arg));
    }
  }
  if (parsed.plugin.empty() && !parsed.help)
    throw Error("check-plugin: which plugin? usage: substruct check-plugin NAME_OR_PATH");
  return parsed;
}

void print_help() {
  std::printf(
      "usage: substruct check-plugin NAME_OR_PATH [--scene SCENE.ini] [--steps N]\n"
      "                              [--reference-steps N] [--max-error E] "
      "[--section.key=value …]\n"
      "  Puts a coupling plugin (a name the host finds, or its libsubstruct-NAME.so) through\n"
      "  the coupling contract, on the scene with the plugin as its method. Each rule prints\n"
      "  PASS or FAIL, its name and what was measured; the exit status is 1 when one fails.\n"
      "  The methods' own log is shown with --verbose. The rules, in order:\n");
  for (const std::string& rule : coupling_rules()) std::printf("    %s\n", rule.c_str());
  std::printf("  Options, as --KEY VALUE (--scene, --steps, --reference-steps, --max-error):\n%s\n",
              options_text(check_plugin_options().table()).c_str());
}

// A plugin given by its library file: the file, absolute; empty for a plugin given by name.
fs::path plugin_file(const std::string& argument) {
  std::error_code ec;
  if (!fs::is_regular_file(argument, ec)) return {};
  return fs::absolute(argument).lexically_normal();
}

// The name of the plugin in `file`, which `host` searched first: Error when it does not load or
// another plugin of that name is found before it.
std::string plugin_in_file(PluginHost& host, const fs::path& file) {
  const PluginInfo* info = nullptr;
  std::error_code ec;
  for (const PluginInfo& found : host.plugins())
    if (fs::equivalent(found.file, file, ec)) info = &found;
  if (info == nullptr) info = &host.load_file(file);
  if (info->descriptor == nullptr)
    throw Error(fmt::format("check-plugin: {}: {}", file.string(), info->problem));
  const std::string name = info->descriptor->name;
  if (host.try_find(name) != info->descriptor)
    throw Error(fmt::format("check-plugin: {}: another plugin called {} is found before it",
                            file.string(), name));
  return name;
}

}  // namespace

int command_check_plugin(const Args& raw_args) {
  const CheckPluginArguments args = parse_check_plugin_arguments(raw_args);
  if (args.help) {
    print_help();
    return 0;
  }
  // A plugin given by its file: its folder is searched first, for the plugins it may need.
  const fs::path file = plugin_file(args.plugin);
  std::vector<fs::path> plugin_paths = args.global.plugin_paths;
  if (!file.empty()) plugin_paths.insert(plugin_paths.begin(), file.parent_path());
  PluginHost host(plugin_paths);
  const std::string plugin = file.empty() ? args.plugin : plugin_in_file(host, file);
  const PluginDescriptor& descriptor = host.find(plugin, PluginKind::coupling);
  const CheckPluginSettings settings = check_plugin_options().read(Config::from_settings(
      args.options, fs::current_path(), host, {&check_plugin_options().table()}));
  std::vector<std::string> overrides = args.overrides;
  fs::path scene_file = settings.scene;
  if (scene_file.empty()) {
    scene_file = data_dir() / "scenes" / "beam.ini";
    overrides.insert(overrides.begin(), "--scene.domains=auto:2");
  }
  const Config scene_config = Config::load(scene_file, overrides, host);

  ConformanceScene scene{scene_config.settings(),    scene_config.base_dir(),
                         scene_file.stem().string(), settings.steps,
                         settings.reference_steps,   settings.max_error};
  std::string library;
  for (const PluginInfo& info : host.plugins())
    if (info.descriptor == &descriptor) library = info.file.string();
  std::printf("check-plugin %s %s (%s)\n", plugin.c_str(), descriptor.version, library.c_str());
  std::printf("scene        %s%s; %ld steps per contract run, %ld beside full\n",
              fs::absolute(scene_file).lexically_normal().c_str(),
              settings.scene.empty() ? " in two domains" : "", settings.steps,
              settings.reference_steps);
  std::fflush(stdout);
  // What the methods log on the way (their precomputes, the bench runs) only with --verbose.
  if (log::level() < log::Level::verbose) {
    log::set_level(log::Level::quiet);
    Progress::set_enabled(false);
  }
  int failed = 0;
  const std::size_t width =
      std::max_element(coupling_rules().begin(), coupling_rules().end(),
                       [](const auto& a, const auto& b) { return a.size() < b.size(); })
          ->size();
  check_coupling_plugin(host, plugin, scene, [&](const RuleOutcome& outcome) {
    if (!outcome.passed) ++failed;
    fmt::print("{}  {:<{}}  {}\n", outcome.passed ? "PASS" : "FAIL", outcome.rule, width,
               outcome.detail);
    std::fflush(stdout);
  });
  const std::size_t rules = coupling_rules().size();
  fmt::print("{}: {} of {} rules passed\n", plugin, rules - static_cast<std::size_t>(failed),
             rules);
  return failed == 0 ? 0 : 1;
}

SUBSTRUCT_COMMAND("check-plugin", "NAME_OR_PATH [--scene SCENE.ini] [--section.key=value …]",
                  "put a coupling plugin through the coupling contract: PASS/FAIL per rule",
                  command_check_plugin);

}  // namespace substruct::cli
