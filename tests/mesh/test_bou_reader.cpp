// SPDX-License-Identifier: GPL-3.0-or-later
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

class BouReader : public testing::TempDirTest {};

void expect_parse_error(const fs::path& file, Index num_vertices, long line,
                        const std::string& fragment) {
  try {
    read_bou(file, num_vertices);
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.line(), line) << message;
    EXPECT_NE(message.find(fmt::format("{}:{}: expected", file.string(), line)), std::string::npos)
        << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

TEST(BouReaderData, Beam3FixesTheEightBaseVertices) {
  const fs::path file = testing::share_dir() / "meshes" / "beam3.bou";
  const std::vector<Index> expected = {50, 51, 102, 103, 154, 155, 206, 207};
  EXPECT_EQ(read_bou(file), expected);
  EXPECT_EQ(read_bou(file, 208), expected);
  // With fewer vertices, 207 (1-based, first on line 1) is out of range.
  expect_parse_error(file, 200, 1, "a 1-based vertex index in [1, 200], found 207");
}

TEST(BouReaderData, AsianDragon) {
  SUBSTRUCT_REQUIRE_SHARED("asianDragon/asianDragon.bou");
  EXPECT_EQ(read_bou(testing::shared_data() / "asianDragon" / "asianDragon.bou", 959),
            (std::vector<Index>{50, 126, 177}));
}

TEST_F(BouReader, CommasWhitespaceCommentsAndDuplicates) {
  const fs::path file = write("mixed.bou", "# fixed vertices\n3 1, 2\n\n2,,5 # the tip\r\n\t7\n");
  EXPECT_EQ(read_bou(file, 7), (std::vector<Index>{0, 1, 2, 4, 6}));
  EXPECT_TRUE(read_bou(write("empty.bou", "# nothing is fixed\n")).empty());
}

TEST_F(BouReader, MalformedInputIsAParseErrorAtItsLine) {
  expect_parse_error(write("a.bou", "1, 2\n3, 4x\n"), -1, 2,
                     "a 1-based vertex index (an integer), found '4x'");
  expect_parse_error(write("b.bou", "# one-based\n0\n"), -1, 2,
                     "a 1-based vertex index in [1, 2147483647], found 0");
  expect_parse_error(write("c.bou", "1\n\n-3\n"), 10, 3, "in [1, 10], found -3");
  expect_parse_error(write("d.bou", "1.5\n"), 10, 1, "(an integer), found '1.5'");
  expect_parse_error(write("e.bou", "1 2 11\n"), 10, 1, "in [1, 10], found 11");
}

TEST_F(BouReader, MissingFileIsAnErrorNamingThePath) {
  const fs::path file = dir() / "absent.bou";
  try {
    read_bou(file);
    ADD_FAILURE() << "no Error";
  } catch (const ParseError& e) {
    ADD_FAILURE() << "a missing file is not a parse error: " << e.what();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace substruct
