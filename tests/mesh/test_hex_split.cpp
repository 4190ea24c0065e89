// SPDX-License-Identifier: GPL-3.0-or-later
// Hexahedral meshes (Vega CUBIC elements, VTK hexahedra and voxels) read as tets: each cube in
// six positive tets, neighbouring cubes cutting their shared face alike.
#include <algorithm>
#include <array>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"
#include "support/tet_mesh_topology.hpp"

namespace substruct {
namespace {

// Two boxes side by side, [0, 1] × [0, 1] × [0, 1] and [1, 2.5] × [0, 1] × [0, 1], their 12
// corners numbered in a scrambled order so that the smallest vertex of each face and cube falls
// at different corners.
constexpr std::array<int, 12> kNumber = {7, 2, 11, 0, 5, 9, 3, 10, 1, 8, 6, 4};
constexpr std::array<double, 3> kX = {0.0, 1.0, 2.5};

// The 0-based number of the corner (i, j, k), i along x.
int corner(int i, int j, int k) {
  return kNumber[static_cast<std::size_t>(i + 3 * (j + 2 * k))];
}

std::vector<std::array<double, 3>> points() {
  std::vector<std::array<double, 3>> p(12);
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i)
        p[static_cast<std::size_t>(corner(i, j, k))] = {kX[static_cast<std::size_t>(i)], 1.0 * j,
                                                        1.0 * k};
  return p;
}

// Hexahedron c (0 or 1) in Vega's/VTK's order: bottom 0 1 2 3 counter-clockwise, top 4 5 6 7.
std::array<int, 8> cube(int c) {
  return {corner(c, 0, 0), corner(c + 1, 0, 0), corner(c + 1, 1, 0), corner(c, 1, 0),
          corner(c, 0, 1), corner(c + 1, 0, 1), corner(c + 1, 1, 1), corner(c, 1, 1)};
}

std::string veg_text(const std::array<int, 8>& second_cube) {
  std::string s = "*VERTICES\n12 3 0 0\n";
  const auto p = points();
  for (std::size_t v = 0; v < 12; ++v)
    s += fmt::format("{} {} {} {}\n", v + 1, p[v][0], p[v][1], p[v][2]);
  s += "*ELEMENTS\nCUBIC\n2 8 0\n";
  for (int c = 0; c < 2; ++c) {
    std::array<int, 8> h = c == 0 ? cube(0) : second_cube;
    for (int& v : h) ++v;
    s += fmt::format("{} {}\n", c + 1, fmt::join(h, " "));
  }
  s += "*MATERIAL soft\nENU, 1000, 1e5, 0.4\n*MATERIAL hard\nENU, 2000, 1e7, 0.3\n";
  s += "*SET right\n2\n\n*REGION\nallElements, soft\nright, hard\n";
  return s;
}

// The two-box mesh as tets: 12 positive tets filling 2.5 m³, every interior triangle shared by
// two tets, the boundary the box's 10 squares as 20 triangles.
void expect_two_boxes(const TetMesh& mesh) {
  ASSERT_EQ(mesh.num_vertices(), 12);
  ASSERT_EQ(mesh.num_elements(), 12);
  const auto p = points();
  for (std::size_t v = 0; v < 12; ++v)
    for (int d = 0; d < 3; ++d)
      EXPECT_EQ(mesh.vertices(static_cast<Eigen::Index>(v), d), p[v][static_cast<std::size_t>(d)]);
  double total = 0.0, left = 0.0;
  for (Index e = 0; e < 12; ++e) {
    const double v = testing::signed_volume(mesh, e);
    EXPECT_GT(v, 0.0) << "tet " << e;
    total += v;
    if (e < 6) left += v;
  }
  EXPECT_NEAR(total, 2.5, 1e-14);
  EXPECT_NEAR(left, 1.0, 1e-14);  // tets 0–5 are the first cube's
  const testing::FaceCounts faces = testing::count_faces(mesh);
  EXPECT_EQ(faces.other, 0);
  EXPECT_EQ(faces.boundary, 20);
  EXPECT_EQ(faces.interior, 14);  // 6 inside each cube, 2 on the shared square
  EXPECT_TRUE(faces.boundary_is_closed_manifold);
  EXPECT_EQ(faces.euler_characteristic, 2);
}

class HexSplit : public testing::TempDirTest {};

TEST_F(HexSplit, VegCubicElementsBecomeConformingTetsWithTheirMaterialsAndSets) {
  const TetMesh mesh = read_veg(write("boxes.veg", veg_text(cube(1))));
  expect_two_boxes(mesh);
  ASSERT_EQ(mesh.materials.size(), 2u);
  for (Index e = 0; e < 12; ++e)
    EXPECT_EQ(mesh.element_material[static_cast<std::size_t>(e)], e < 6 ? 0 : 1);
  EXPECT_EQ(mesh.element_sets.at("right"), (std::vector<Index>{6, 7, 8, 9, 10, 11}));
  // The vertices keep their numbers, so a .bou file of the hexahedral mesh still holds.
  EXPECT_EQ(read_bou(write("boxes.bou", "4, 12\n"), mesh.num_vertices()),
            (std::vector<Index>{3, 11}));
  EXPECT_EQ(mesh.vertices(3, 0), 0.0);  // corner(0, 0, 0) is vertex 4 (1-based)
}

TEST_F(HexSplit, EveryRotationOfTheSecondCubeCutsTheSharedFaceAlike) {
  // The same cube listed from each of its 8 corners (rotations keeping bottom and top faces
  // paired, and the mirrored order top-first): the split must stay conforming and positive.
  const std::array<int, 8> h = cube(1);
  const std::vector<std::array<int, 8>> orders = {
      {h[1], h[2], h[3], h[0], h[5], h[6], h[7], h[4]},
      {h[2], h[3], h[0], h[1], h[6], h[7], h[4], h[5]},
      {h[3], h[0], h[1], h[2], h[7], h[4], h[5], h[6]},
      {h[4], h[5], h[6], h[7], h[0], h[1], h[2], h[3]},  // mirrored: top face first
      {h[4], h[7], h[6], h[5], h[0], h[3], h[2], h[1]},  // upside down
  };
  for (std::size_t k = 0; k < orders.size(); ++k) {
    SCOPED_TRACE(k);
    expect_two_boxes(read_veg(write(fmt::format("boxes{}.veg", k), veg_text(orders[k]))));
  }
}

TEST_F(HexSplit, AHexahedronWithItsVerticesOutOfOrderIsAnErrorNamingItsLine) {
  std::array<int, 8> h = cube(1);
  std::swap(h[1], h[2]);  // a bow-tie bottom face
  const auto file = write("twisted.veg", veg_text(h));
  const std::string message = testing::error_message([&] { read_veg(file); });
  EXPECT_NE(message.find(file.string() + ":19: expected CUBIC element 2 to be a convex hexahedron"),
            std::string::npos)
      << message;
}

TEST_F(HexSplit, ACubicHeaderWithTheWrongVertexCountOrARepeatedVertexIsRefused) {
  std::string text = veg_text(cube(1));
  text.replace(text.find("2 8 0"), 5, "2 4 0");
  auto message = testing::error_message([&] { read_veg(write("four.veg", text)); });
  EXPECT_NE(message.find(":17: expected 8 vertices per CUBIC element, found 4"), std::string::npos)
      << message;
  std::array<int, 8> h = cube(1);
  h[7] = h[0];
  message = testing::error_message([&] { read_veg(write("repeated.veg", veg_text(h))); });
  EXPECT_NE(message.find(":19: expected 8 distinct vertex indices in element 2"), std::string::npos)
      << message;
}

TEST_F(HexSplit, VtkHexahedraAndVoxelsAreSplitLikeVegCubes) {
  std::string points_text;
  for (const auto& x : points()) points_text += fmt::format("{} {} {}\n", x[0], x[1], x[2]);
  const std::array<int, 8> voxel = {cube(1)[0], cube(1)[1], cube(1)[3], cube(1)[2],
                                    cube(1)[4], cube(1)[5], cube(1)[7], cube(1)[6]};
  const std::string legacy =
      "# vtk DataFile Version 3.0\ntwo boxes\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 12 "
      "double\n" +
      points_text +
      fmt::format("CELLS 3 21\n8 {}\n8 {}\n2 0 1\n", fmt::join(cube(0), " "),
                  fmt::join(voxel, " ")) +
      "CELL_TYPES 3\n12\n11\n3\n";
  expect_two_boxes(read_vtk_legacy(write("boxes.vtk", legacy)));

  const std::string vtu = fmt::format(
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\">\n"
      "<UnstructuredGrid><Piece NumberOfPoints=\"12\" NumberOfCells=\"2\">\n"
      "<Points><DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n{}"
      "</DataArray></Points>\n<Cells>\n"
      "<DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">{} {}</DataArray>\n"
      "<DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">8 16</DataArray>\n"
      "<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">12 12</DataArray>\n"
      "</Cells></Piece></UnstructuredGrid></VTKFile>\n",
      points_text, fmt::join(cube(0), " "), fmt::join(cube(1), " "));
  expect_two_boxes(read_tet_mesh(write("boxes.vtu", vtu)));
}

TEST(HexSplitShared, VegasTetMeshesInSharedDataStillRead) {
  SUBSTRUCT_REQUIRE_SHARED("asianDragon/asianDragon.veg");
  const TetMesh mesh = read_veg(testing::shared_data() / "asianDragon" / "asianDragon.veg");
  EXPECT_EQ(mesh.num_vertices(), 959);
  EXPECT_EQ(mesh.num_elements(), 2591);
}

}  // namespace
}  // namespace substruct
