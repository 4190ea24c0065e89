// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Which machine and build a benchmark ran on, for its report.
#include <string>

namespace substruct {

struct MachineInfo {
  std::string cpu;       // model name from /proc/cpuinfo
  int cores = 0;         // hardware threads
  std::string os;        // distribution and kernel
  std::string compiler;  // compiler and version this build used
  std::string build;     // build type and flags
  std::string commit;    // git commit of the source tree ("+ changes" when dirty), or "unknown"
  std::string date;      // UTC, ISO 8601
};

MachineInfo describe_machine();

}  // namespace substruct
