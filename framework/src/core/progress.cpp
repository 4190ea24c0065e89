// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/progress.hpp"

#include "substruct/core/interrupt.hpp"
#include "substruct/core/stopwatch.hpp"

#include <unistd.h>
#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>

#include <fmt/format.h>

namespace substruct {

namespace {
std::atomic<bool> g_enabled{true};
constexpr double kQuietSeconds = 1.0;    // work shorter than this prints nothing
constexpr double kPrintInterval = 0.5;   // on a terminal
constexpr double kLogInterval = 5.0;     // when stderr is a file or pipe
constexpr double kNotifyInterval = 0.1;  // to an observer

std::mutex g_observer_mutex;
std::shared_ptr<const std::function<void(const ProgressReport&)>> g_observer;
std::atomic<bool> g_has_observer{false};

std::string format_seconds(double s) {
  if (s < 60) return fmt::format("{:.1f} s", s);
  if (s < 3600) return fmt::format("{:d} min {:02d} s", int(s) / 60, int(s) % 60);
  return fmt::format("{:d} h {:02d} min", int(s) / 3600, (int(s) % 3600) / 60);
}
}  // namespace

void Progress::set_enabled(bool enabled) {
  g_enabled = enabled;
}
bool Progress::enabled() {
  return g_enabled;
}

void Progress::set_observer(std::function<void(const ProgressReport&)> observer) {
  std::lock_guard lock(g_observer_mutex);
  if (observer)
    g_observer =
        std::make_shared<const std::function<void(const ProgressReport&)>>(std::move(observer));
  else
    g_observer.reset();
  g_has_observer = static_cast<bool>(g_observer);
}

void Progress::notify(bool finished) {
  if (!g_has_observer) return;
  std::shared_ptr<const std::function<void(const ProgressReport&)>> observer;
  {
    std::lock_guard lock(g_observer_mutex);
    observer = g_observer;
  }
  if (!observer) return;
  last_notify_ = Clock::now();
  (*observer)(ProgressReport{label_, done_, total_,
                             std::chrono::duration<double>(last_notify_ - start_).count(),
                             finished});
}

Progress::Progress(std::string label, std::size_t total)
    : label_(std::move(label)),
      total_(total),
      start_(Clock::now()),
      last_print_(start_),
      last_notify_(start_) {
  notify(false);
}

Progress::~Progress() {
  if (!finished_ && printed_) std::fputc('\n', stderr);
}

void Progress::advance(std::size_t units) {
  check_interrupt();  // every long loop advances a Progress: its safe point for Ctrl-C
  done_ += units;
  const auto now = Clock::now();
  if (g_has_observer &&
      std::chrono::duration<double>(now - last_notify_).count() >= kNotifyInterval)
    notify(false);
  if (!g_enabled) return;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double since = std::chrono::duration<double>(now - last_print_).count();
  const bool tty = isatty(STDERR_FILENO) != 0;
  if (elapsed < kQuietSeconds || since < (tty ? kPrintInterval : kLogInterval)) return;
  last_print_ = now;
  print(false);
}

void Progress::print(bool final_line) {
  const double elapsed = seconds_since(start_);
  const bool tty = isatty(STDERR_FILENO) != 0;
  std::string line;
  if (final_line) {
    line = fmt::format("{}: done in {}", label_, format_seconds(elapsed));
  } else if (total_ > 0 && done_ > 0) {
    const double fraction = double(done_) / double(total_);
    const double left = elapsed * (1 - fraction) / fraction;
    line = fmt::format("{}: {:3.0f}% ({}/{}), {} left", label_, 100 * fraction, done_, total_,
                       format_seconds(left));
  } else {
    line = fmt::format("{}: {} done, {} so far", label_, done_, format_seconds(elapsed));
  }
  if (tty)
    std::fprintf(stderr, "\r\033[K%s%s", line.c_str(), final_line ? "\n" : "");
  else
    std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
  printed_ = true;
}

double Progress::finish() {
  const double elapsed = seconds_since(start_);
  if (!finished_ && g_enabled && printed_) print(true);
  if (!finished_) notify(true);
  finished_ = true;
  return elapsed;
}

}  // namespace substruct
