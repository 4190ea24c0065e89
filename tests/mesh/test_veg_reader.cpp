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

// A valid one-tet mesh: *VERTICES on lines 1–6, *ELEMENTS on lines 7–11.
const std::string kVertices = "*VERTICES\n4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n";
const std::string kElements = "\n*ELEMENTS\nTET\n1 4 0\n1 1 2 3 4\n";
const std::string kMaterial = "\n*MATERIAL steel\nENU, 7800, 2e11, 0.3\n";  // lines 12–14

class VegReader : public testing::TempDirTest {};

// read_veg(file) throws a ParseError "FILE:LINE: expected …" holding `fragment`.
void expect_parse_error(const fs::path& file, long line, const std::string& fragment) {
  try {
    read_veg(file);
    ADD_FAILURE() << "no ParseError for " << file;
  } catch (const ParseError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.file(), file) << message;
    EXPECT_EQ(e.line(), line) << message;
    EXPECT_NE(message.find(file.filename().string()), std::string::npos) << message;
    const std::string where =
        line > 0 ? fmt::format("{}:{}: expected", file.string(), line) : "expected";
    EXPECT_NE(message.find(where), std::string::npos) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

TEST(VegReaderData, Beam3HasItsVerticesElementsAndMaterial) {
  const TetMesh mesh = read_veg(testing::share_dir() / "meshes" / "beam3_tet.veg");
  ASSERT_EQ(mesh.num_vertices(), 208);
  ASSERT_EQ(mesh.num_elements(), 450);
  EXPECT_EQ(mesh.vertices(0, 0), -0.06);
  EXPECT_EQ(mesh.vertices(0, 1), 0.0);
  EXPECT_EQ(mesh.vertices(0, 2), -0.02);
  EXPECT_EQ(mesh.vertices(207, 0), 0.06);
  EXPECT_EQ(mesh.vertices(207, 1), 1.0);
  EXPECT_EQ(mesh.vertices(207, 2), 0.02);
  // File lines "1 1 53 3 2" and "450 207 155 206 156", 0-based.
  EXPECT_EQ(mesh.tets.row(0), (Eigen::RowVector4i(0, 52, 2, 1)));
  EXPECT_EQ(mesh.tets.row(449), (Eigen::RowVector4i(206, 154, 205, 155)));
  ASSERT_EQ(mesh.materials.size(), 1u);
  EXPECT_EQ(mesh.materials[0].name, "BODY");
  EXPECT_EQ(mesh.materials[0].density, 1000.0);
  EXPECT_EQ(mesh.materials[0].youngs_modulus, 1e7);
  EXPECT_EQ(mesh.materials[0].poisson_ratio, 0.45);
  ASSERT_EQ(mesh.element_material.size(), 450u);
  for (const Index k : mesh.element_material) EXPECT_EQ(k, 0);
  EXPECT_TRUE(mesh.element_sets.empty());
  EXPECT_TRUE(mesh.vertex_sets.empty());

  const TetMesh again = read_tet_mesh(testing::share_dir() / "meshes" / "beam3_tet.veg");
  EXPECT_TRUE(again.vertices == mesh.vertices);
  EXPECT_TRUE(again.tets == mesh.tets);
}

TEST(VegReaderData, AsianDragonRegionGivesEveryElementBody) {
  SUBSTRUCT_REQUIRE_SHARED("asianDragon/asianDragon.veg");
  const TetMesh mesh = read_veg(testing::shared_data() / "asianDragon" / "asianDragon.veg");
  EXPECT_EQ(mesh.num_vertices(), 959);
  ASSERT_EQ(mesh.num_elements(), 2591);
  ASSERT_EQ(mesh.materials.size(), 2u);
  EXPECT_EQ(mesh.materials[0].name, "defaultMaterial");
  EXPECT_EQ(mesh.materials[0].density, 1000.0);
  EXPECT_EQ(mesh.materials[0].youngs_modulus, 1e9);
  EXPECT_EQ(mesh.materials[0].poisson_ratio, 0.45);
  EXPECT_EQ(mesh.materials[1].name, "BODY");
  EXPECT_EQ(mesh.materials[1].density, 1000.0);
  EXPECT_EQ(mesh.materials[1].youngs_modulus, 1e7);
  EXPECT_EQ(mesh.materials[1].poisson_ratio, 0.4);
  ASSERT_EQ(mesh.element_sets.size(), 1u);
  const std::vector<Index>& set = mesh.element_sets.at("defaultSet");
  ASSERT_EQ(set.size(), 2591u);
  EXPECT_EQ(set.front(), 0);
  EXPECT_EQ(set.back(), 2590);
  for (Index e = 0; e < mesh.num_elements(); ++e) EXPECT_EQ(mesh.material_of(e).name, "BODY");
}

TEST_F(VegReader, FileWithoutMaterialGetsTheDefault) {
  const TetMesh mesh = read_veg(write("one.veg", kVertices + kElements));
  EXPECT_EQ(mesh.num_vertices(), 4);
  EXPECT_EQ(mesh.num_elements(), 1);
  ASSERT_EQ(mesh.materials.size(), 1u);
  EXPECT_EQ(mesh.materials[0].name, Material{}.name);
  EXPECT_EQ(mesh.materials[0].youngs_modulus, Material{}.youngs_modulus);
  EXPECT_EQ(mesh.element_material, std::vector<Index>{0});
}

TEST_F(VegReader, LaterRegionsOverrideAndUnassignedElementsGetTheFirstMaterial) {
  const std::string text =
      "*VERTICES\n5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 1 1\n"
      "*ELEMENTS\nTET\n3 4 0\n1 1 2 3 4\n2 2 3 4 5\n3 1 2 3 5\n"
      "*MATERIAL soft\nENU, 1000, 1e5, 0.45\n*MATERIAL hard\nENU, 2000, 1e8, 0.3\n"
      "*MATERIAL wood\nENU, 500, 1e9, 0.2\n"
      "# a comment between sections\n"
      "*SET both\n2,\n# a comment inside a set\n3 3\n\n*SET last\n3\n"
      "*REGION\nboth, hard\nlast, wood\n";
  const TetMesh mesh = read_veg(write("regions.veg", text));
  EXPECT_EQ(mesh.element_material, (std::vector<Index>{0, 1, 2}));
  EXPECT_EQ(mesh.element_sets.at("both"), (std::vector<Index>{1, 2}));
  EXPECT_EQ(mesh.element_sets.at("last"), (std::vector<Index>{2}));
}

TEST_F(VegReader, IncludeIsRelativeToTheIncludingFile) {
  write("parts/vertices.veg", kVertices);
  write("parts/material.veg", kMaterial + "*INCLUDE ../region.veg\n");
  write("region.veg", "*REGION\nallElements, steel\n");
  const fs::path main = write(
      "main.veg", "*INCLUDE parts/vertices.veg\n" + kElements + "*INCLUDE parts/material.veg\n");
  const TetMesh mesh = read_veg(main);
  EXPECT_EQ(mesh.num_vertices(), 4);
  EXPECT_EQ(mesh.num_elements(), 1);
  ASSERT_EQ(mesh.materials.size(), 1u);
  EXPECT_EQ(mesh.materials[0].name, "steel");
  EXPECT_EQ(mesh.materials[0].youngs_modulus, 2e11);
}

TEST_F(VegReader, ErrorsInAnIncludedFileNameThatFile) {
  const fs::path part = write("part.veg", "*VERTICES\n4 3 0 0\n1 0 0 0\n2 1 0 x\n");
  write("main.veg", "*INCLUDE part.veg\n" + kElements);
  try {
    read_veg(dir() / "main.veg");
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), part);
    EXPECT_EQ(e.line(), 4);
    EXPECT_NE(std::string(e.what()).find("expected the z coordinate"), std::string::npos)
        << e.what();
  }
}

TEST_F(VegReader, IncludeCycleIsAParseError) {
  write("a.veg", "*INCLUDE b.veg\n");
  const fs::path b = write("b.veg", "\n*INCLUDE a.veg\n");
  try {
    read_veg(dir() / "a.veg");
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), b);
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find("expected a file that is not already being included"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(VegReader, MissingFileIsAnErrorNamingThePath) {
  const fs::path file = dir() / "absent.veg";
  try {
    read_veg(file);
    ADD_FAILURE() << "no Error";
  } catch (const ParseError& e) {
    ADD_FAILURE() << "a missing file is not a parse error: " << e.what();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
}

struct MalformedCase {
  const char* name;
  std::string text;
  long line;
  const char* fragment;
};

TEST_F(VegReader, MalformedInputIsAParseErrorAtItsLine) {
  const std::string tet = kVertices + "\n*ELEMENTS\nTET\n";            // its count line is line 10
  const std::string mesh = kVertices + kElements;                      // lines 1–11
  const std::string steel = mesh + "\n*MATERIAL steel\n";              // its parameters on line 14
  const std::string region_prefix = mesh + kMaterial + "\n*REGION\n";  // l. 16
  const std::vector<MalformedCase> cases = {
      {"empty file", "", 1, "a *VERTICES section, found end of file"},
      {"no elements", kVertices, 6, "an *ELEMENTS section, found end of file"},
      {"elements before vertices", kElements + kVertices, 2, "*VERTICES before *ELEMENTS"},
      {"too few vertex lines",
       "*VERTICES\n5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n" + kElements, 8,
       "vertex 5 of 5, found '*ELEMENTS'"},
      {"too many vertex lines", "*VERTICES\n3 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n", 6,
       "a section keyword"},
      {"vertex count not a number", "*VERTICES\nfour 3 0 0\n", 2,
       "the number of vertices (an integer), found 'four'"},
      {"dimension 2", "*VERTICES\n4 2 0 0\n", 2, "the dimension 3, found 2"},
      {"coordinate not a number",
       "*VERTICES\n4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 one 0\n4 0 0 1\n" + kElements, 5,
       "the y coordinate (a finite number), found 'one'"},
      {"coordinate not finite",
       "*VERTICES\n4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 nan 0\n4 0 0 1\n" + kElements, 5, "found 'nan'"},
      {"vertex index skipped",
       "*VERTICES\n4 3 0 0\n1 0 0 0\n2 1 0 0\n5 0 1 0\n4 0 0 1\n" + kElements, 5,
       "vertex index 3, found 5"},
      {"extra field on a vertex line",
       "*VERTICES\n4 3 0 0\n1 0 0 0 7\n2 1 0 0\n3 0 1 0\n4 0 0 1\n" + kElements, 3,
       "end of line after the z coordinate, found '7'"},
      {"cubic elements with repeated vertices",
       kVertices + "\n*ELEMENTS\nCUBIC\n1 8 0\n1 1 2 3 4 1 2 3 4\n", 11,
       "8 distinct vertex indices in element 1, found 1 2 3 4 1 2 3 4"},
      {"hexahedra", kVertices + "\n*ELEMENTS\nHEX\n1 8 0\n1 1 2 3 4 1 2 3 4\n", 9,
       "the element type TET (linear tetrahedra) or CUBIC (hexahedra), found 'HEX'"},
      {"8 vertices per element", tet + "1 8 0\n1 1 2 3 4\n", 10,
       "4 vertices per TET element, found 8"},
      {"element vertex out of range", tet + "1 4 0\n1 1 2 3 9\n", 11,
       "a vertex index in [1, 4], found 9"},
      {"element vertex zero", tet + "1 4 0\n1 0 2 3 4\n", 11, "a vertex index in [1, 4], found 0"},
      {"element repeats a vertex", tet + "1 4 0\n1 1 2 2 4\n", 11,
       "4 distinct vertex indices in element 1, found 1 2 2 4"},
      {"element line short", tet + "1 4 0\n1 1 2 3\n", 11, "a vertex index, found end of line"},
      {"truncated elements", tet + "2 4 0\n1 1 2 3 4\n", 11, "element 2 of 2, found end of file"},
      {"truncated mid-line", tet + "1 4 0\n1 1 2", 11, "a vertex index, found end of line"},
      {"unknown keyword", mesh + "\n*FOO bar\n", 13, "found '*FOO'"},
      {"second vertices section", kVertices + kVertices, 7, "a single *VERTICES section"},
      {"material parameters missing", steel, 13,
       "the material parameters 'ENU, density, E, nu', found end of file"},
      {"material model not ENU", mesh + "\n*MATERIAL rubber\nMOONEYRIVLIN, 1000, 1, 2\n", 14,
       "the material model ENU"},
      {"Young's modulus not a number", steel + "ENU, 7800, x, 0.3\n", 14,
       "Young's modulus (a finite number), found 'x'"},
      {"Poisson's ratio missing", steel + "ENU, 7800, 2e11\n", 14,
       "Poisson's ratio, found end of line"},
      {"Poisson's ratio 0.5", steel + "ENU, 7800, 2e11, 0.5\n", 14,
       "Poisson's ratio in (-1, 0.5), found 0.5"},
      {"negative density", steel + "ENU, -1, 2e11, 0.3\n", 14, "a positive density, found -1"},
      {"material named twice", mesh + kMaterial + kMaterial, 16,
       "a material name not used before, found 'steel'"},
      {"set element out of range", mesh + "\n*SET s\n1, 2\n", 14,
       "an element index in [1, 1], found 2"},
      {"set element not a number", mesh + "\n*SET s\n1, one\n", 14,
       "an element index (an integer), found 'one'"},
      {"set named allElements", mesh + "\n*SET allElements\n1\n", 13,
       "a set name other than the implicit allElements"},
      {"set before elements", kVertices + "*SET s\n1\n", 7, "*ELEMENTS before *SET"},
      {"region with an unknown set", region_prefix + "noSet, steel\n", 17,
       "a set defined by an earlier *SET, or allElements, found 'noSet'"},
      {"region with an unknown material", region_prefix + "allElements, wood\n", 17,
       "a material defined by an earlier *MATERIAL, found 'wood'"},
      {"region without material", region_prefix + "allElements\n", 17,
       "a material name after the set name, found end of line"},
      {"empty region", mesh + "\n*REGION\n", 13,
       "a line 'SET_NAME, MATERIAL_NAME' after *REGION, found end of file"},
      {"include of a missing file", mesh + "\n*INCLUDE nothere.veg\n", 13,
       "an existing file to include, found 'nothere.veg'"},
      {"degenerate element", "*VERTICES\n4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n" + kElements,
       0, "element 1 (1-based) to have non-zero volume"},
  };
  for (const MalformedCase& c : cases) {
    SCOPED_TRACE(c.name);
    expect_parse_error(write("bad.veg", c.text), c.line, c.fragment);
  }
}

}  // namespace
}  // namespace substruct
