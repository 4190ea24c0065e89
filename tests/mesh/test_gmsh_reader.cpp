// SPDX-License-Identifier: GPL-3.0-or-later
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;
using Sets = std::map<std::string, std::vector<Index>>;

const fs::path kData = fs::path(SUBSTRUCT_SOURCE_DIR) / "tests" / "data" / "meshes";

// A malformed file: what is wrong with it, its text, and the line and message fragment of the
// ParseError it must raise.
struct MalformedCase {
  const char* name;
  std::string text;
  long line;
  const char* fragment;
};

class GmshReader : public testing::TempDirTest {
 protected:
  // Each case, written to `name`, makes read_gmsh throw "FILE:LINE: expected …" holding its
  // fragment.
  void expect_parse_errors(const std::vector<MalformedCase>& cases, const std::string& name) const {
    for (const MalformedCase& c : cases) {
      SCOPED_TRACE(c.name);
      const fs::path file = write(name, c.text);
      try {
        read_gmsh(file);
        ADD_FAILURE() << "no ParseError";
      } catch (const ParseError& e) {
        const std::string message = e.what();
        EXPECT_EQ(e.file(), file) << message;
        EXPECT_EQ(e.line(), c.line) << message;
        EXPECT_NE(message.find(fmt::format("{}:{}: expected", file.string(), c.line)),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find(c.fragment), std::string::npos) << message;
      }
    }
  }
};

// `text` with its single occurrence of `old` replaced.
std::string replaced(const std::string& text, std::string_view old, std::string_view with) {
  const std::size_t at = text.find(old);
  EXPECT_NE(at, std::string::npos) << old;
  EXPECT_EQ(text.find(old, at + 1), std::string::npos) << old << " occurs twice";
  if (at == std::string::npos) return text;
  return text.substr(0, at) + std::string(with) + text.substr(at + old.size());
}

// The first `n` lines of `text`.
std::string first_lines(const std::string& text, int n) {
  std::size_t end = 0;
  for (int i = 0; i < n; ++i) end = text.find('\n', end) + 1;
  return text.substr(0, end);
}

void expect_two_tets(const TetMesh& mesh) {
  ASSERT_EQ(mesh.num_vertices(), 5);
  ASSERT_EQ(mesh.num_elements(), 2);
  Points x(5, 3);
  x << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1;
  EXPECT_TRUE(mesh.vertices == x);
  EXPECT_EQ(mesh.tets.row(0), (Eigen::RowVector4i(0, 1, 2, 3)));
  EXPECT_EQ(mesh.tets.row(1), (Eigen::RowVector4i(1, 2, 3, 4)));
  ASSERT_EQ(mesh.materials.size(), 1u);
  EXPECT_EQ(mesh.element_material, (std::vector<Index>{0, 0}));
  EXPECT_EQ(mesh.element_sets, (Sets{{"region_1", {0}}, {"region_2", {1}}}));
  EXPECT_EQ(mesh.vertex_sets, (Sets{{"boundary_5", {0, 1, 2}}}));
}

TEST(GmshReaderData, Versions22And41AndTetgenGiveTheSameMesh) {
  const TetMesh v22 = read_gmsh(kData / "two_tets_v22.msh");
  const TetMesh v41 = read_gmsh(kData / "two_tets_v41.msh");
  const TetMesh tetgen = read_tetgen(kData / "two_tets");
  expect_two_tets(v22);
  expect_two_tets(v41);
  expect_two_tets(tetgen);
  expect_two_tets(read_tet_mesh(kData / "two_tets_v41.msh"));
  for (const TetMesh* other : {&v41, &tetgen}) {
    EXPECT_TRUE(other->vertices == v22.vertices);
    EXPECT_TRUE(other->tets == v22.tets);
    EXPECT_EQ(other->element_sets, v22.element_sets);
    EXPECT_EQ(other->vertex_sets, v22.vertex_sets);
  }
}

TEST_F(GmshReader, UnnamedGroupsAreNamedByDimensionAndTag) {
  const fs::path file = write("unnamed.msh",
                              "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
                              "$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 1 1\n$EndNodes\n"
                              "$Elements\n5\n"
                              "1 15 2 9 1 5\n"
                              "2 1 2 7 1 1 2\n"
                              "3 4 2 4 1 1 2 3 4\n"
                              "4 4 0 2 3 4 5\n"
                              "5 1 2 7 2 2 3\n"
                              "$EndElements\n");
  const TetMesh mesh = read_gmsh(file);
  EXPECT_EQ(mesh.num_elements(), 2);
  EXPECT_EQ(mesh.vertex_sets, (Sets{{"physical_0_9", {4}}, {"physical_1_7", {0, 1, 2}}}));
  EXPECT_EQ(mesh.element_sets, (Sets{{"physical_3_4", {0}}}));
}

TEST_F(GmshReader, Version41ParametricNodesAndGroupsOverSeveralDimensions) {
  const fs::path file = write("groups.msh",
                              "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
                              "$PhysicalNames\n2\n1 3 \"fixed\"\n2 3 \"fixed\"\n$EndPhysicalNames\n"
                              "$Entities\n0 1 1 1\n"
                              "4 0 0 0 1 1 1 1 -3 2 1 -2\n"
                              "6 0 0 0 1 1 1 1 3 0\n"
                              "9 0 0 0 1 1 1 0 0\n"
                              "$EndEntities\n"
                              "$Nodes\n2 5 1 5\n"
                              "1 4 1 2\n1\n2\n0 0 0 0.0\n1 0 0 1.0\n"
                              "3 9 0 3\n3\n4\n5\n0 1 0\n0 0 1\n1 1 1\n"
                              "$EndNodes\n"
                              "$Elements\n3 4 1 4\n"
                              "1 4 1 1\n1 1 2\n"
                              "2 6 2 1\n2 2 3 4\n"
                              "3 9 4 2\n3 1 2 3 4\n4 2 3 4 5\n"
                              "$EndElements\n");
  const TetMesh mesh = read_gmsh(file);
  ASSERT_EQ(mesh.num_vertices(), 5);
  ASSERT_EQ(mesh.num_elements(), 2);
  EXPECT_EQ(mesh.vertices.row(1), (Eigen::RowVector3d(1, 0, 0)));
  EXPECT_EQ(mesh.vertices.row(4), (Eigen::RowVector3d(1, 1, 1)));
  EXPECT_EQ(mesh.tets.row(1), (Eigen::RowVector4i(1, 2, 3, 4)));
  EXPECT_TRUE(mesh.element_sets.empty());
  EXPECT_EQ(mesh.vertex_sets, (Sets{{"fixed", {0, 1, 2, 3}}}));
}

TEST_F(GmshReader, MalformedVersion22IsAParseErrorAtItsLine) {
  const std::string v22 = read(kData / "two_tets_v22.msh");
  const std::string tet = "2 4 2 1 1 10 20 30 40";  // line 22
  const std::vector<MalformedCase> cases = {
      {"empty file", "", 1, "$MeshFormat, found end of file"},
      {"binary", replaced(v22, "2.2 0 8", "2.2 1 8"), 2,
       "binary .msh is not supported; re-save as ASCII"},
      {"version 3", replaced(v22, "2.2 0 8", "3.0 0 8"), 2,
       "Gmsh format version 2.2 or 4.1, found version '3.0'"},
      {"no $MeshFormat", replaced(v22, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n", ""), 1,
       "$MeshFormat (or $NOD for Gmsh v1) on the first line, found '$PhysicalNames'"},
      {"$EndMeshFormat misspelled", replaced(v22, "$EndMeshFormat", "$EndFormat"), 3,
       "$EndMeshFormat, found '$EndFormat'"},
      {"unquoted physical name", replaced(v22, "3 1 \"region_1\"", "3 1 region_1"), 7,
       "a quoted physical name"},
      {"more nodes declared", replaced(v22, "$Nodes\n5\n", "$Nodes\n6\n"), 17,
       "node 6 of 6, found '$EndNodes'"},
      {"fewer nodes declared", replaced(v22, "$Nodes\n5\n", "$Nodes\n4\n"), 16,
       "$EndNodes, found '50 1 1 1'"},
      {"coordinate not a number", replaced(v22, "30 0 1 0", "30 0 l 0"), 13,
       "the y coordinate (a finite number), found 'l'"},
      {"node tag twice", replaced(v22, "40 0 0 1", "20 0 0 1"), 15,
       "node tags used once, found node tag 20 again (first on line 14)"},
      {"undefined node", replaced(v22, tet, "2 4 2 1 1 10 20 30 99"), 22,
       "a node tag defined in $Nodes, found 99"},
      {"hexahedron", replaced(v22, tet, "2 5 2 1 1 10 20 30 40 10 20 30 40"), 22,
       "linear tetrahedra (element type 4) as volume elements, found element type 5 "
       "(8-node hexahedron)"},
      {"quadratic tetrahedron", replaced(v22, tet, "2 11 2 1 1 10 20 30 40 10 20 30 40 10 20"), 22,
       "found element type 11 (10-node tetrahedron)"},
      {"unknown element type", replaced(v22, tet, "2 99 2 1 1 10 20 30 40"), 22,
       "found element type 99"},
      {"too few element nodes", replaced(v22, tet, "2 4 2 1 1 10 20 30"), 22,
       "a node tag, found end of line"},
      {"too many element nodes", replaced(v22, tet, "2 4 2 1 1 10 20 30 40 50"), 22,
       "end of line after the 4 node tags of a 4-node tetrahedron, found '50'"},
      {"repeated node", replaced(v22, tet, "2 4 2 1 1 10 20 20 40"), 22,
       "4 distinct node tags in element 2, found 10 20 20 40"},
      {"element tag twice", replaced(v22, "3 4 2 2 2 20 30 40 50", "2 4 2 2 2 20 30 40 50"), 22,
       "element tags used once, found element tag 2 again (first on line 21)"},
      {"no tetrahedra",
       replaced(replaced(v22, "3 4 2 2 2 20 30 40 50\n2 4 2 1 1 10 20 30 40\n", ""),
                "$Elements\n3\n", "$Elements\n1\n"),
       18, "tetrahedra (element type 4) in $Elements, found none"},
      {"truncated elements", first_lines(v22, 21), 21, "element 3 of 3, found end of file"},
      {"no $Elements", first_lines(v22, 17), 17, "an $Elements section, found end of file"},
      {"no $EndElements", first_lines(v22, 22), 22, "$EndElements, found end of file"},
      {"unclosed section", v22 + "$Comments\nnever closed\n", 25,
       "$EndComments, found end of file"},
      {"stray line", replaced(v22, "$EndNodes\n", "$EndNodes\nstray\n"), 18,
       "a section ($PhysicalNames, $Entities, $Nodes, $Elements, …), found 'stray'"},
  };
  expect_parse_errors(cases, "bad_v22.msh");
}

TEST_F(GmshReader, MalformedVersion41IsAParseErrorAtItsLine) {
  const std::string v41 = read(kData / "two_tets_v41.msh");
  const std::vector<MalformedCase> cases = {
      {"binary", replaced(v41, "4.1 0 8", "4.1 1 8"), 2,
       "binary .msh is not supported; re-save as ASCII"},
      {"version 4.0", replaced(v41, "4.1 0 8", "4.0 0 8"), 2, "found version '4.0'"},
      {"entity count not a number", replaced(v41, "1 0 1 2", "1 0 one 2"), 14,
       "the number of surface entities (an integer), found 'one'"},
      {"truncated entity", replaced(v41, "2 0 0 0 1 1 1 1 2 0", "2 0 0 0 1 1 1 1 2"), 18,
       "the number of bounding entities, found end of line"},
      {"node total differs from the header", replaced(v41, "2 5 10 50", "2 6 10 50"), 34,
       "6 nodes as the $Nodes header says, found 5 in 2 blocks"},
      {"node block longer than its nodes", replaced(v41, "3 2 0 2", "3 2 0 3"), 32,
       "end of line after the node tag, found '1'"},
      {"truncated node block", first_lines(v41, 31), 31,
       "the coordinates of node 1 of 2 in node block 2, found end of file"},
      {"element type of another dimension", replaced(v41, "2 1 2 1", "3 1 2 1"), 37,
       "an element type of dimension 3, found element type 2 (3-node triangle, dimension 2)"},
      {"element total differs from the header", replaced(v41, "3 3 1 3", "3 4 1 3"), 43,
       "4 elements as the $Elements header says, found 3 in 3 blocks"},
      {"undefined node", replaced(v41, "3 20 30 40 50", "3 20 30 40 77"), 40,
       "a node tag defined in $Nodes, found 77"},
  };
  expect_parse_errors(cases, "bad_v41.msh");
}

// Gmsh v1 (as SOFA's meshes ship): $NOD and $ELM, each element line naming its node count.
const std::string kVersion1 =
    "$NOD\n"  // 1
    "5\n"
    "1 0 0 0\n"
    "2 1 0 0\n"
    "3 0 1 0\n"  // 5
    "4 0 0 1\n"
    "5 1 1 1\n"
    "$ENDNOD\n"
    "$ELM\n"
    "3\n"  // 10
    "1 2 7 1 3 1 2 3\n"
    "2 4 1 1 4 1 2 3 4\n"
    "3 4 1 1 4 2 3 4 5\n"
    "$ENDELM\n";

TEST_F(GmshReader, Version1NodesAndElements) {
  const TetMesh mesh = read_tet_mesh(write("v1.msh", kVersion1));
  const TetMesh v22 = read_gmsh(kData / "two_tets_v22.msh");
  EXPECT_TRUE(mesh.vertices == v22.vertices);
  EXPECT_TRUE(mesh.tets == v22.tets);
  EXPECT_EQ(mesh.element_sets, (Sets{{"physical_3_1", {0, 1}}}));
  EXPECT_EQ(mesh.vertex_sets, (Sets{{"physical_2_7", {0, 1, 2}}}));
}

TEST_F(GmshReader, MalformedVersion1IsAParseErrorAtItsLine) {
  expect_parse_errors(
      {
          {"truncated", first_lines(kVersion1, 12), 12, "element 3 of 3, found end of file"},
          {"node count", replaced(kVersion1, "2 4 1 1 4 1", "2 4 1 1 5 1"), 12,
           "4 nodes for a 4-node tetrahedron, found 5"},
          {"unknown node", replaced(kVersion1, "2 3 4 5", "2 3 4 9"), 13,
           "a node tag defined in $Nodes, found 9"},
          {"nan", replaced(kVersion1, "5 1 1 1", "5 1 nan 1"), 7, "(a finite number), found 'nan'"},
          {"no end", replaced(kVersion1, "$ENDNOD", "$EndNodes"), 8, "$ENDNOD"},
          {"hexahedron", replaced(kVersion1, "3 4 1 1 4 2 3 4 5", "3 5 1 1 8 1 2 3 4 5 1 2 3"), 13,
           "linear tetrahedra (element type 4)"},
      },
      "bad_v1.msh");
}

TEST_F(GmshReader, MissingFileIsAnErrorNamingThePath) {
  const fs::path file = dir() / "absent.msh";
  try {
    read_tet_mesh(file);
    ADD_FAILURE() << "no Error";
  } catch (const ParseError& e) {
    ADD_FAILURE() << "a missing file is not a parse error: " << e.what();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace substruct
