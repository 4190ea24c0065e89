// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/memory_budget.hpp"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cmath>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/parse_number.hpp"

namespace substruct {
namespace {

std::atomic<double> limit_bytes{0};  // 0: auto

constexpr double kAnnounce = 64.0 * 1024 * 1024;

// The value of `field` in /proc/meminfo [bytes], or a negative number.
double meminfo(std::string_view field) {
  std::ifstream in("/proc/meminfo");
  std::string name;
  double kib = 0;
  std::string unit;
  while (in >> name >> kib) {
    std::getline(in, unit);
    if (name.size() == field.size() + 1 && name.starts_with(field)) return kib * 1024;
  }
  return -1;
}

}  // namespace

std::optional<double> parse_memory_size(std::string_view text) {
  std::string s(text);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(0, 1);
  if (s == "auto") return 0.0;
  double scale = 1;
  for (const auto& [suffix, factor] : {std::pair{"TiB", 0x1p40},
                                       {"GiB", 0x1p30},
                                       {"MiB", 0x1p20},
                                       {"KiB", 0x1p10},
                                       {"TB", 0x1p40},
                                       {"GB", 0x1p30},
                                       {"MB", 0x1p20},
                                       {"KB", 0x1p10},
                                       {"T", 0x1p40},
                                       {"G", 0x1p30},
                                       {"M", 0x1p20},
                                       {"K", 0x1p10},
                                       {"B", 1.0}}) {
    const std::string_view sv(suffix);
    if (s.size() > sv.size() && s.ends_with(sv)) {
      s.resize(s.size() - sv.size());
      scale = factor;
      break;
    }
  }
  const std::optional<double> value = parse_number(s);
  if (!value || !std::isfinite(*value) || !(*value > 0)) return std::nullopt;
  return *value * scale;
}

void set_memory_limit(double bytes) {
  limit_bytes = bytes > 0 ? bytes : 0;
}

double memory_limit() {
  const double set = limit_bytes;
  if (set > 0) return set;
  static const double available = available_memory();
  return available;
}

double available_memory() {
  if (const double a = meminfo("MemAvailable"); a > 0) return a;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? double(pages) * double(page) : 0x1p60;
}

double resident_memory() {
  std::ifstream in("/proc/self/statm");
  double total = 0, resident = 0;
  if (!(in >> total >> resident)) return 0;
  return resident * double(sysconf(_SC_PAGESIZE));
}

void reserve_memory(std::string_view what, double bytes, std::string_view advice) {
  const double in_use = resident_memory(), limit = memory_limit();
  if (!(in_use + bytes <= limit))  // NaN or ∞ from an absurd count is refused too
    throw Error(fmt::format(
        "{}: about {} needed, {} in use: that exceeds [run] memory_limit = {} ({}); {} or raise "
        "the limit",
        what, format_bytes(bytes), format_bytes(in_use), format_bytes(limit),
        limit_bytes > 0 ? "as set" : "auto: the memory available at the start",
        advice.empty() ? "use fewer DOFs (a coarser mesh, more domains or fewer modes)" : advice));
  if (bytes >= kAnnounce)
    log::info("memory   {}: about {} (in use {}, limit {})", what, format_bytes(bytes),
              format_bytes(in_use), format_bytes(limit));
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    ++u;
  }
  if (u == 0) return fmt::format("{:.0f} B", bytes);
  if (bytes < 10) return fmt::format("{:.2f} {}", bytes, units[u]);
  if (bytes < 100) return fmt::format("{:.1f} {}", bytes, units[u]);
  return fmt::format("{:.0f} {}", bytes, units[u]);
}

}  // namespace substruct
