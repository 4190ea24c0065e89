// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Stopping cleanly on Ctrl-C or `kill`. The first SIGINT or SIGTERM only sets a flag; long loops
/// check it between units of work (every Progress::advance does), so the command stops at the
/// next safe point by throwing Interrupted: outputs being written are not published, cache files
/// already written are complete (each is renamed into place whole), and the program exits with
/// 128 + the signal number (130 for SIGINT, 143 for SIGTERM). A second signal ends the process
/// at once, as if no handler were installed.
#include <string>

#include "substruct/core/error.hpp"

namespace substruct {

/// What a checkpoint throws once a stop signal arrived.
class Interrupted : public Error {
 public:
  explicit Interrupted(int signal);
  int signal() const { return signal_; }
  /// 128 + the signal number, the shell's convention for a process ended by a signal.
  int exit_status() const { return 128 + signal_; }

 private:
  int signal_;
};

/// Installs the SIGINT / SIGTERM handlers (a program's main calls it once; libraries never do).
void install_interrupt_handlers();

/// The signal that asked to stop, or 0.
int interrupt_signal();

/// Throws Interrupted when a stop signal arrived; cheap enough to call in any loop.
void check_interrupt();

/// For tests: forgets a signal that arrived.
void clear_interrupt();

}  // namespace substruct
