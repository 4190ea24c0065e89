// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Messages to the user on stderr: info (unless --quiet), warnings, and debug (--verbose).
#include <functional>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace substruct::log {

enum class Level { quiet = 0, normal = 1, verbose = 2 };
void set_level(Level level);
Level level();
void write(const char* prefix, const std::string& message);
/// Also passes every message written (prefix + text) to `observer`, from whatever thread writes
/// it (e.g. a viewer's on-screen display). An empty function removes it.
void set_observer(std::function<void(const std::string&)> observer);

template <class... Args>
void info(fmt::format_string<Args...> f, Args&&... args) {
  if (level() >= Level::normal) write("", fmt::format(f, std::forward<Args>(args)...));
}
template <class... Args>
void warn(fmt::format_string<Args...> f, Args&&... args) {
  write("warning: ", fmt::format(f, std::forward<Args>(args)...));
}
template <class... Args>
void debug(fmt::format_string<Args...> f, Args&&... args) {
  if (level() >= Level::verbose) write("", fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace substruct::log
