// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Subnormal numbers (|x| < 2.2e-308) cost up to a hundred times a normal floating-point operation
/// on x86 processors. They appear in long simulations where a quantity that is zero in exact
/// arithmetic carries rounding noise that decays, or is squared (ω × (ω × x) of a frame whose ω
/// is 1e-160). While a ScopedFlushSubnormals lives, the calling thread's SSE/AVX arithmetic
/// flushes subnormal results to zero and reads subnormal inputs as zero (MXCSR FTZ and DAZ), as
/// real-time physics engines run; the previous mode comes back when it is destroyed. Results stay
/// deterministic; they differ from IEEE arithmetic only where a value below 2.2e-308 would have
/// been kept. A no-op on other processors.
namespace substruct {

class ScopedFlushSubnormals {
 public:
  ScopedFlushSubnormals();
  ~ScopedFlushSubnormals();
  ScopedFlushSubnormals(const ScopedFlushSubnormals&) = delete;
  ScopedFlushSubnormals& operator=(const ScopedFlushSubnormals&) = delete;

  /// Whether this processor has the mode (x86-64: always).
  static bool supported();

 private:
  unsigned saved_ = 0;
};

}  // namespace substruct
