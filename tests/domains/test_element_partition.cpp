// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/element_partition.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

using testing::error_message;
using testing::TestDir;

/// Domains of an element partition that are face-connected (checked by flood fill).
bool domains_are_face_connected(const TetMesh& mesh, const ElementPartition& p) {
  std::map<std::array<Index, 3>, std::vector<Index>> faces;
  for (Index e = 0; e < mesh.num_elements(); ++e)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<Index, 3> f;
      int k = 0;
      for (int i = 0; i < 4; ++i)
        if (i != skip) f[k++] = mesh.tets(e, i);
      std::sort(f.begin(), f.end());
      faces[f].push_back(e);
    }
  std::vector<std::vector<Index>> neighbours(mesh.num_elements());
  for (const auto& [f, elems] : faces)
    if (elems.size() == 2) {
      neighbours[elems[0]].push_back(elems[1]);
      neighbours[elems[1]].push_back(elems[0]);
    }
  for (int d = 0; d < p.num_domains; ++d) {
    std::vector<Index> members;
    for (Index e = 0; e < mesh.num_elements(); ++e)
      if (p.domain_of_element[e] == d) members.push_back(e);
    std::vector<char> reached(mesh.num_elements(), 0);
    std::vector<Index> stack{members.front()};
    reached[members.front()] = 1;
    std::size_t count = 0;
    while (!stack.empty()) {
      const Index e = stack.back();
      stack.pop_back();
      ++count;
      for (const Index f : neighbours[e])
        if (!reached[f] && p.domain_of_element[f] == d) {
          reached[f] = 1;
          stack.push_back(f);
        }
    }
    if (count != members.size()) return false;
  }
  return true;
}

TEST(ElementPartition, SingleIsOneDomain) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  const ElementPartition p = make_element_partition(mesh, " single ", ".");
  EXPECT_EQ(p.num_domains, 1);
  EXPECT_EQ(p.domain_of_element, std::vector<int>(12, 0));
}

TEST(ElementPartition, MetisGivesConnectedBalancedDeterministicDomains) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(8, 2, 2), 8, 2, 2);  // 192 tets
  const ElementPartition p = make_element_partition(mesh, "auto:4", ".");
  ASSERT_EQ(p.num_domains, 4);
  ASSERT_EQ(p.domain_of_element.size(), 192u);
  std::vector<int> size(4, 0);
  for (const int d : p.domain_of_element) {
    ASSERT_GE(d, 0);
    ASSERT_LT(d, 4);
    ++size[d];
  }
  for (int d = 0; d < 4; ++d) {
    EXPECT_GE(size[d], 44) << "domain " << d;  // 48 each when perfectly balanced
    EXPECT_LE(size[d], 52) << "domain " << d;
  }
  EXPECT_TRUE(domains_are_face_connected(mesh, p));
  // Same input, same partition.
  EXPECT_EQ(make_element_partition(mesh, "auto:4", ".").domain_of_element, p.domain_of_element);
  EXPECT_EQ(metis_element_partition(mesh, 4).domain_of_element, p.domain_of_element);
}

TEST(ElementPartition, AutoRejectsBadCounts) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);  // 12 tets
  EXPECT_NE(error_message([&] { make_element_partition(mesh, "auto:0", "."); }).find("positive"),
            std::string::npos);
  EXPECT_NE(error_message([&] { make_element_partition(mesh, "auto:4x", "."); }).find("auto:N"),
            std::string::npos);
  const std::string too_many = error_message([&] { make_element_partition(mesh, "auto:13", "."); });
  EXPECT_NE(too_many.find("12 elements"), std::string::npos) << too_many;
  EXPECT_EQ(make_element_partition(mesh, "auto:1", ".").domain_of_element, std::vector<int>(12, 0));
}

/// 2×1×1 box with element sets "left" (cell 0) and "right" (cell 1), plus Vega's allElements.
TetMesh two_cell_mesh_with_sets() {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  mesh.element_sets["right"] = {6, 7, 8, 9, 10, 11};
  mesh.element_sets["left"] = {0, 1, 2, 3, 4, 5};
  std::vector<Index> all(12);
  std::iota(all.begin(), all.end(), 0);
  mesh.element_sets["allElements"] = all;
  return mesh;
}

TEST(ElementPartition, SetsInNameOrderSkippingAllElements) {
  const TetMesh mesh = two_cell_mesh_with_sets();
  const ElementPartition p = make_element_partition(mesh, "sets", ".");
  EXPECT_EQ(p.num_domains, 2);
  // "left" < "right": left is domain 0.
  EXPECT_EQ(p.domain_of_element, (std::vector<int>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}));
}

TEST(ElementPartition, ListedSetsInListedOrder) {
  const TetMesh mesh = two_cell_mesh_with_sets();
  const ElementPartition p = make_element_partition(mesh, "sets: right , left", ".");
  EXPECT_EQ(p.num_domains, 2);
  EXPECT_EQ(p.domain_of_element, (std::vector<int>{1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0}));
}

TEST(ElementPartition, SetsMustCoverEveryElementOnce) {
  TetMesh mesh = two_cell_mesh_with_sets();
  mesh.element_sets["left"] = {0, 1, 2, 3};              // 4 and 5 in no set
  mesh.element_sets["right"] = {3, 6, 7, 8, 9, 10, 11};  // 3 in two sets
  const std::string msg = error_message([&] { make_element_partition(mesh, "sets", "."); });
  EXPECT_NE(msg.find("2 of 12 elements are in none (elements 4, 5)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1 elements are in more than one (element 3 in 'left' and 'right')"),
            std::string::npos)
      << msg;
}

TEST(ElementPartition, UnknownOrEmptySetIsAnError) {
  TetMesh mesh = two_cell_mesh_with_sets();
  const std::string unknown =
      error_message([&] { make_element_partition(mesh, "sets:left,top", "."); });
  EXPECT_NE(unknown.find("no element set 'top'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("left (6 elements)"), std::string::npos) << unknown;
  mesh.element_sets["empty"] = {};
  const std::string empty = error_message([&] { make_element_partition(mesh, "sets", "."); });
  EXPECT_NE(empty.find("set 'empty' is empty, so domain 0 would have no elements"),
            std::string::npos)
      << empty;
  const std::string twice =
      error_message([&] { make_element_partition(mesh, "sets:left,left", "."); });
  EXPECT_NE(twice.find("named twice"), std::string::npos) << twice;
}

TEST(ElementPartition, ReadsPerElementFileRelativeToBaseDir) {
  const TestDir dir;
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  dir.write("two.domains",
            "# one id per element\n"
            "0 0 0   0 0 0   # cell 0\n"
            "\n"
            "1 1 1\t1 1 1\n");
  const ElementPartition p = make_element_partition(mesh, "two.domains", dir.path());
  EXPECT_EQ(p.num_domains, 2);
  EXPECT_EQ(p.domain_of_element, (std::vector<int>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}));
}

TEST(ElementPartition, FileWithWrongCountNamesFileAndLine) {
  const TestDir dir;
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  const fs::path few = dir.write("few.domains", "0 0 0 0 0 0\n1 1 1 1 1\n# end\n");
  try {
    make_element_partition(mesh, "few.domains", dir.path());
    FAIL() << "a file with 11 ids for 12 elements was accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), few);
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find("expected 12 domain ids (one per element), found 11"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find(few.string() + ":3:"), std::string::npos) << e.what();
  }
  dir.write("many.domains", "0 0 0 0 0 0\n1 1 1 1 1 1\n1\n");
  try {
    make_element_partition(mesh, "many.domains", dir.path());
    FAIL() << "a file with 13 ids for 12 elements was accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find("found more"), std::string::npos) << e.what();
  }
}

TEST(ElementPartition, FileWithBadTokenOrUnusedIdIsAnError) {
  const TestDir dir;
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  dir.write("bad.domains", "0 0 0 0 0 0\n1 1 one 1 1 1\n");
  try {
    make_element_partition(mesh, "bad.domains", dir.path());
    FAIL() << "'one' was accepted as a domain id";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find("found 'one'"), std::string::npos) << e.what();
  }
  dir.write("negative.domains", "0 0 0 0 0 0 1 1 1 1 1 -1\n");
  EXPECT_THROW(make_element_partition(mesh, "negative.domains", dir.path()), ParseError);
  dir.write("gap.domains", "0 0 0 0 0 0 2 2 2 2 2 2\n");
  const std::string gap =
      error_message([&] { make_element_partition(mesh, "gap.domains", dir.path()); });
  EXPECT_NE(gap.find("(D = 3 here), but domain 1 has no elements"), std::string::npos) << gap;
  const std::string missing =
      error_message([&] { make_element_partition(mesh, "nowhere.domains", dir.path()); });
  EXPECT_NE(missing.find("no such file"), std::string::npos) << missing;
  EXPECT_NE(missing.find("auto:N"), std::string::npos) << missing;
}

// A stray huge id (up to INT_MAX) is refused at its line, before anything is sized by it.
TEST(ElementPartition, FileWithAnIdNotBelowTheElementCountIsRefusedAtItsLine) {
  const TestDir dir;
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);  // 12 elements
  for (const std::string id : {"12", "2000000000", "2147483647"}) {
    dir.write("huge.domains", "0 0 0 0 0 0\n1 1 " + id + " 1 1 1\n");
    try {
      make_element_partition(mesh, "huge.domains", dir.path());
      FAIL() << id << " was accepted";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), 2);
      EXPECT_NE(std::string(e.what()).find("domain id " + id + " for element 8 is not below"),
                std::string::npos)
          << e.what();
    }
  }
  dir.write("overflow.domains", "0 0 0 0 0 0\n1 1 2147483648 1 1 1\n");  // beyond int
  EXPECT_THROW(make_element_partition(mesh, "overflow.domains", dir.path()), ParseError);
}

TEST(ElementPartition, ValidateNamesEmptyDomainsAndBadIds) {
  ElementPartition p{{0, 0, 3, 3}, 5};
  const std::string empty = error_message([&] { validate_element_partition(p, 4); });
  EXPECT_NE(empty.find("3 of the 5 domains have no elements: 1, 2, 4"), std::string::npos) << empty;
  p = {{0, 1, 7}, 2};
  const std::string bad = error_message([&] { validate_element_partition(p, 3); });
  EXPECT_NE(bad.find("element 2 is assigned to domain 7"), std::string::npos) << bad;
  const std::string length = error_message([&] { validate_element_partition(p, 5); });
  EXPECT_NE(length.find("3 entries but the mesh has 5 elements"), std::string::npos) << length;
}

}  // namespace
}  // namespace substruct
