// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Progress of long operations (precomputation stages, long runs) on stderr, with an estimate
/// of the time left. Quiet when disabled (tests, --quiet) or when the work is short.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace substruct {

/// The state of an operation, for observers (e.g. a viewer's on-screen display).
struct ProgressReport {
  std::string label;
  std::size_t done = 0;
  std::size_t total = 0;  // 0: unknown
  double elapsed = 0;     // [s]
  bool finished = false;
};

class Progress {
 public:
  /// `total` units of work; nothing is printed for work that ends within the first second.
  Progress(std::string label, std::size_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void advance(std::size_t units = 1);
  /// Ends the operation and returns its wall time [s]; prints "label: done in …" if anything
  /// was printed before.
  double finish();

  /// Global switch (the command line's --quiet turns it off).
  static void set_enabled(bool enabled);
  static bool enabled();
  /// Also reports every operation, from whatever thread runs it, to `observer` (at its start,
  /// at most every 0.1 s while it runs, and at its end), whether or not printing is enabled.
  /// An empty function removes it.
  static void set_observer(std::function<void(const ProgressReport&)> observer);

 private:
  using Clock = std::chrono::steady_clock;
  void print(bool final_line);
  void notify(bool finished);

  std::string label_;
  std::size_t total_;
  std::size_t done_ = 0;
  Clock::time_point start_;
  Clock::time_point last_print_;
  Clock::time_point last_notify_;
  bool printed_ = false;
  bool finished_ = false;
};

}  // namespace substruct
