// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `substruct view --replay FILE.ssrec`: a recording (sim/recording.hpp) played back, its render
// surface (the recorded render mesh embedded in the tets, or the tet boundary) coloured by
// domain, in a window (looping in real time; space pauses, Esc quits) or headless (--frames N:
// the first N + 1 recorded frames, --screenshot of the last one).
#include "viewer_options.hpp"

namespace substruct::viewer {

int run_replay(const ViewerOptions& options);

}  // namespace substruct::viewer
