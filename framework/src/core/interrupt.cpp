// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/interrupt.hpp"

#include <csignal>

#include <fmt/format.h>

namespace substruct {

namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_stop_signal(int signal) {
  if (g_signal != 0) {  // the second one: stop now, the default way
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  g_signal = signal;
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT (Ctrl-C)";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

}  // namespace

Interrupted::Interrupted(int signal)
    : Error(fmt::format("interrupted by {}: stopped at a safe point; outputs of this command "
                        "were not published (complete cache files are kept)",
                        signal_name(signal))),
      signal_(signal) {}

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // system calls in flight resume; the flag is checked after them
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int interrupt_signal() {
  return static_cast<int>(g_signal);
}

void check_interrupt() {
  if (g_signal != 0) throw Interrupted(static_cast<int>(g_signal));
}

void clear_interrupt() {
  g_signal = 0;
}

}  // namespace substruct
