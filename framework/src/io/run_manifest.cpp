// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/io/run_manifest.hpp"

#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/io/staged_file.hpp"

namespace substruct {
namespace fs = std::filesystem;
namespace {

constexpr const char* kHeader = "# substruct run manifest 1";

}  // namespace

fs::path run_manifest_path(const fs::path& output) {
  fs::path manifest = output;
  manifest.replace_extension(".manifest");
  return manifest;
}

void withdraw_run_manifest(const fs::path& output) {
  std::error_code ec;
  fs::remove(run_manifest_path(output), ec);
  if (ec)
    throw Error(fmt::format("cannot remove the previous run's manifest '{}': {}",
                            run_manifest_path(output).string(), ec.message()));
}

fs::path write_run_manifest(const fs::path& output, const std::vector<fs::path>& files,
                            const std::vector<std::pair<std::string, std::string>>& about) {
  const fs::path manifest = run_manifest_path(output);
  const fs::path folder = fs::absolute(manifest).parent_path();
  std::ostringstream text;
  text << kHeader << '\n';
  for (const auto& [key, value] : about) text << "# " << key << ' ' << value << '\n';
  for (const fs::path& file : files) {
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (ec)
      throw Error(
          fmt::format("cannot list '{}' in the run's manifest: {}", file.string(), ec.message()));
    text << size << ' ' << fs::absolute(file).lexically_relative(folder).generic_string() << '\n';
  }
  write_file_atomically(manifest, text.str());
  return manifest;
}

std::vector<std::string> check_run_manifest(const fs::path& manifest) {
  std::ifstream in(manifest);
  if (!in) return {fmt::format("{}: cannot be read", manifest.string())};
  std::vector<std::string> problems;
  std::string line;
  if (!std::getline(in, line) || line != kHeader)
    return {fmt::format("{}:1: not a substruct run manifest", manifest.string())};
  const fs::path folder = manifest.parent_path();
  long number = 1, listed = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    unsigned long long size = 0;
    std::string path;
    if (!(fields >> size) || !std::getline(fields >> std::ws, path) || path.empty()) {
      problems.push_back(
          fmt::format("{}:{}: expected 'SIZE PATH', found '{}'", manifest.string(), number, line));
      continue;
    }
    ++listed;
    std::error_code ec;
    const auto actual = fs::file_size(folder / path, ec);
    if (ec)
      problems.push_back(fmt::format("{}: listed in {} but missing", path, manifest.string()));
    else if (actual != size)
      problems.push_back(fmt::format("{}: {} bytes, the manifest says {}", path, actual, size));
  }
  if (listed == 0) problems.push_back(fmt::format("{}: lists no files", manifest.string()));
  return problems;
}

}  // namespace substruct
