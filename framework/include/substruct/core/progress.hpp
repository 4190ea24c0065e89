#pragma once
/// Progress of long operations (precomputation stages, long runs) on stderr, with an estimate
/// of the time left. Quiet when disabled (tests, --quiet) or when the work is short.
#include <chrono>
#include <cstddef>
#include <string>

namespace substruct {

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

 private:
  using Clock = std::chrono::steady_clock;
  void print(bool final_line);

  std::string label_;
  std::size_t total_;
  std::size_t done_ = 0;
  Clock::time_point start_;
  Clock::time_point last_print_;
  bool printed_ = false;
  bool finished_ = false;
};

}  // namespace substruct
