// SPDX-License-Identifier: GPL-3.0-or-later
// Ctrl-C handling: the first signal only sets a flag, which checkpoints (and every
// Progress::advance) turn into Interrupted with the shell's exit status.
#include "substruct/core/interrupt.hpp"

#include <csignal>
#include <string>

#include <gtest/gtest.h>

#include "substruct/core/progress.hpp"

namespace substruct {
namespace {

TEST(Interrupt, TheFirstSignalIsRememberedAndThrownAtTheNextCheckpoint) {
  install_interrupt_handlers();
  clear_interrupt();
  EXPECT_EQ(interrupt_signal(), 0);
  EXPECT_NO_THROW(check_interrupt());
  std::raise(SIGINT);  // handled: the process goes on
  EXPECT_EQ(interrupt_signal(), SIGINT);
  try {
    check_interrupt();
    ADD_FAILURE() << "no Interrupted thrown";
  } catch (const Interrupted& e) {
    EXPECT_EQ(e.signal(), SIGINT);
    EXPECT_EQ(e.exit_status(), 130);
    EXPECT_NE(std::string(e.what()).find("interrupted by SIGINT"), std::string::npos);
  }
  clear_interrupt();
}

TEST(Interrupt, ALongLoopStopsAtItsNextProgressStep) {
  install_interrupt_handlers();
  clear_interrupt();
  Progress progress("loop", 10);
  progress.advance();
  std::raise(SIGTERM);
  EXPECT_THROW(progress.advance(), Interrupted);
  clear_interrupt();
  EXPECT_NO_THROW(progress.advance());
}

}  // namespace
}  // namespace substruct
