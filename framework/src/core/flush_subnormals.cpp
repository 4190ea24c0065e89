// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/flush_subnormals.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#define SUBSTRUCT_HAS_MXCSR 1
#endif

namespace substruct {

#ifdef SUBSTRUCT_HAS_MXCSR
namespace {
constexpr unsigned kFlushToZero = 0x8000;       // MXCSR bit 15: subnormal results become 0
constexpr unsigned kDenormalsAreZero = 0x0040;  // MXCSR bit 6: subnormal inputs read as 0
}  // namespace

ScopedFlushSubnormals::ScopedFlushSubnormals() : saved_(_mm_getcsr()) {
  _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero);
}
ScopedFlushSubnormals::~ScopedFlushSubnormals() {
  _mm_setcsr(saved_);
}
bool ScopedFlushSubnormals::supported() {
  return true;
}
#else
ScopedFlushSubnormals::ScopedFlushSubnormals() = default;
ScopedFlushSubnormals::~ScopedFlushSubnormals() = default;
bool ScopedFlushSubnormals::supported() {
  return false;
}
#endif

}  // namespace substruct
