// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// What must match between substruct and a plugin besides the plugin ABI version: the things
/// that change the layout of the C++ objects they pass each other without changing a line of
/// substruct — the compiler family and major version, the C++ standard library and its ABI,
/// the Eigen version and its alignment (an -march that widens EIGEN_MAX_ALIGN_BYTES changes the
/// layout of every fixed-size matrix), and the Boost version (program_options types cross the
/// boundary). SUBSTRUCT_PLUGIN exports it; the host refuses a plugin whose fingerprint differs
/// from its own and says which toolchain each was built with.
#include <Eigen/Core>
#include <boost/version.hpp>

#define SUBSTRUCT_FINGERPRINT_STRING_(x) #x
#define SUBSTRUCT_FINGERPRINT_STRING(x) SUBSTRUCT_FINGERPRINT_STRING_(x)

#if defined(__clang__)
#define SUBSTRUCT_FINGERPRINT_COMPILER "clang " SUBSTRUCT_FINGERPRINT_STRING(__clang_major__)
#elif defined(__GNUC__)
#define SUBSTRUCT_FINGERPRINT_COMPILER "gcc " SUBSTRUCT_FINGERPRINT_STRING(__GNUC__)
#else
#define SUBSTRUCT_FINGERPRINT_COMPILER "unknown compiler"
#endif

#if defined(_LIBCPP_VERSION)
#define SUBSTRUCT_FINGERPRINT_STDLIB "libc++"
#elif defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI
#define SUBSTRUCT_FINGERPRINT_STDLIB "libstdc++ (C++11 ABI)"
#else
#define SUBSTRUCT_FINGERPRINT_STDLIB "libstdc++ (old ABI)"
#endif

#define SUBSTRUCT_FINGERPRINT_EIGEN \
  "Eigen " SUBSTRUCT_FINGERPRINT_STRING(EIGEN_WORLD_VERSION) "." \
      SUBSTRUCT_FINGERPRINT_STRING(EIGEN_MAJOR_VERSION) "."      \
          SUBSTRUCT_FINGERPRINT_STRING(EIGEN_MINOR_VERSION)      \
              " (align " SUBSTRUCT_FINGERPRINT_STRING(EIGEN_MAX_ALIGN_BYTES) ")"

/// e.g. "gcc 12, libstdc++ (C++11 ABI), Eigen 3.4.0 (align 16), Boost 1_74".
#define SUBSTRUCT_BUILD_FINGERPRINT                                \
  SUBSTRUCT_FINGERPRINT_COMPILER ", " SUBSTRUCT_FINGERPRINT_STDLIB \
                                 ", " SUBSTRUCT_FINGERPRINT_EIGEN ", Boost " BOOST_LIB_VERSION

namespace substruct {

/// The fingerprint of the code that includes this header (the host's, in the host).
inline constexpr const char* kBuildFingerprint = SUBSTRUCT_BUILD_FINGERPRINT;

}  // namespace substruct
