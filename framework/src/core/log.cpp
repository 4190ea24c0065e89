// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/log.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace substruct::log {

namespace {
std::atomic<Level> g_level{Level::normal};
std::mutex g_mutex;
std::function<void(const std::string&)> g_observer;  // guarded by g_mutex
}  // namespace

void set_level(Level new_level) {
  g_level = new_level;
}
Level level() {
  return g_level;
}

void write(const char* prefix, const std::string& message) {
  std::lock_guard lock(g_mutex);
  std::fprintf(stderr, "%s%s\n", prefix, message.c_str());
  std::fflush(stderr);
  if (g_observer) g_observer(prefix + message);
}

void set_observer(std::function<void(const std::string&)> observer) {
  std::lock_guard lock(g_mutex);
  g_observer = std::move(observer);
}

}  // namespace substruct::log
