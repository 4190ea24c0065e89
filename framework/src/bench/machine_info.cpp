// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/bench/machine_info.hpp"

#include <sys/utsname.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "substruct/core/install_layout.hpp"

namespace substruct {

namespace {

// The value after "key" and a separator on the first line of `file` that starts with `key`.
std::string field(const char* file, const std::string& key, char separator) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto at = line.find(separator);
    if (at == std::string::npos) continue;
    std::string value = line.substr(at + 1);
    value.erase(0, value.find_first_not_of(" \t\""));
    while (!value.empty() && (value.back() == '"' || value.back() == ' ')) value.pop_back();
    return value;
  }
  return {};
}

// The first line `command` prints, or empty.
std::string first_line(const std::string& command) {
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return {};
  std::array<char, 256> buffer{};
  std::string line;
  if (std::fgets(buffer.data(), buffer.size(), pipe)) line = buffer.data();
  pclose(pipe);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

}  // namespace

MachineInfo describe_machine() {
  MachineInfo m;
  m.cpu = field("/proc/cpuinfo", "model name", ':');
  if (m.cpu.empty()) m.cpu = "unknown CPU";
  m.cores = static_cast<int>(std::thread::hardware_concurrency());
  m.os = field("/etc/os-release", "PRETTY_NAME", '=');
  utsname u{};
  if (uname(&u) == 0)
    m.os += fmt::format("{}Linux {} {}", m.os.empty() ? "" : ", ", u.release, u.machine);
#if defined(__clang__)
  m.compiler = fmt::format("clang {}", __clang_version__);
#elif defined(__GNUC__)
  m.compiler = fmt::format("GCC {}", __VERSION__);
#else
  m.compiler = "unknown compiler";
#endif
  m.build = fmt::format("{} ({})", SUBSTRUCT_BUILD_TYPE, SUBSTRUCT_BUILD_FLAGS);
  // The commit is known only from a build tree, whose data links lead to the sources.
  const std::string source = source_dir().value_or("").string();
  const std::string commit =
      source.empty()
          ? std::string()
          : first_line(fmt::format("git -C '{}' rev-parse --short HEAD 2>/dev/null", source));
  if (commit.empty()) {
    m.commit = "unknown";
  } else {
    const bool dirty =
        !first_line(
             fmt::format("git -C '{}' status --porcelain --untracked-files=no 2>/dev/null", source))
             .empty();
    m.commit = dirty ? commit + " + local changes" : commit;
  }
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> date{};
  std::strftime(date.data(), date.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  m.date = date.data();
  return m;
}

}  // namespace substruct
