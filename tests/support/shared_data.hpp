// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Access to the meshes in ../shared/data (made by others). A user's clone has no ../shared:
// tests that need it skip with the reason printed.
#include <filesystem>

#include <gtest/gtest.h>

namespace substruct::testing {

inline std::filesystem::path shared_data() {
  return SUBSTRUCT_SHARED_DATA;
}

/// The repository's own share/ folder (scenes, the public-domain beam).
inline std::filesystem::path share_dir() {
  return std::filesystem::path(SUBSTRUCT_SOURCE_DIR) / "share";
}

}  // namespace substruct::testing

/// Skips the current test, printing why, when ../shared/data/<relative> is absent.
#define SUBSTRUCT_REQUIRE_SHARED(relative)                                                 \
  do {                                                                                     \
    if (!std::filesystem::exists(::substruct::testing::shared_data() / (relative)))        \
      GTEST_SKIP() << "shared data " << (::substruct::testing::shared_data() / (relative)) \
                   << " is absent (it is not part of a user's clone)";                     \
  } while (0)
