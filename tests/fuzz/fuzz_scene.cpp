// SPDX-License-Identifier: GPL-3.0-or-later
// Scene files with their command-line overrides (Config::load): the input is the .ini file, and
// the lines after a line "#overrides" are overrides ("section.key=value"), with every plugin of
// the build installed.
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/plugin/plugin_host.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const substruct::PluginHost host({SUBSTRUCT_PLUGIN_DIR}, false);
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find("#overrides\n");
  const std::string_view scene = input.substr(0, split);
  std::vector<std::string> overrides;
  if (split != std::string_view::npos) {
    std::string_view rest = input.substr(split + 11);
    while (!rest.empty()) {
      const std::size_t end = rest.find('\n');
      overrides.emplace_back(rest.substr(0, end));
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
  }
  const auto file = substruct::fuzz::input_file(
      "input.ini", reinterpret_cast<const std::uint8_t*>(scene.data()), scene.size());
  try {
    (void)substruct::Config::load(file, overrides, host);
  } catch (const substruct::Error&) {
  }
  return 0;
}
