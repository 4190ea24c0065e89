// SPDX-License-Identifier: GPL-3.0-or-later
// select_vertices: "AXIS OP VALUE" and "lowest", and clear errors for what does not parse.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "substruct/meshing/vertex_selector.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

Points column(const std::vector<double>& y) {
  Points x = Points::Zero(static_cast<Eigen::Index>(y.size()), 3);
  for (std::size_t i = 0; i < y.size(); ++i) {
    x(static_cast<Eigen::Index>(i), 1) = y[i];
    x(static_cast<Eigen::Index>(i), 0) = -y[i];
  }
  return x;
}

TEST(VertexSelector, ComparisonsOnEachAxis) {
  const Points x = column({0.0, 0.01, 0.02, 0.5, 1.0});
  EXPECT_EQ(select_vertices(x, "y < 0.02"), (std::vector<Index>{0, 1}));
  EXPECT_EQ(select_vertices(x, "y<=0.02"), (std::vector<Index>{0, 1, 2}));
  EXPECT_EQ(select_vertices(x, "  y >= 0.5 "), (std::vector<Index>{3, 4}));
  EXPECT_EQ(select_vertices(x, "x > -0.015"), (std::vector<Index>{0, 1}));
  EXPECT_EQ(select_vertices(x, "z > 0"), (std::vector<Index>{}));
}

TEST(VertexSelector, LowestTakesTheBottomTwoPercentOfTheHeight) {
  EXPECT_EQ(select_vertices(column({5.0, 5.019, 5.021, 6.0}), "lowest"),
            (std::vector<Index>{0, 1}));
}

TEST(VertexSelector, WhatDoesNotParseIsNamed) {
  const Points x = column({0.0, 1.0});
  for (const auto& [selector, fragment] :
       std::vector<std::pair<std::string, std::string>>{{"w < 1", "'w' is not an axis"},
                                                        {"y = 1", "no comparison after the axis y"},
                                                        {"y < one", "'one' is not a finite number"},
                                                        {"y < nan", "'nan' is not a finite number"},
                                                        {"", "it is empty"}}) {
    const std::string m = testing::error_message([&] { select_vertices(x, selector); });
    EXPECT_NE(m.find("fixed-vertex selector '" + selector + "': " + fragment), std::string::npos)
        << m;
  }
}

}  // namespace
}  // namespace substruct
