// SPDX-License-Identifier: GPL-3.0-or-later
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

namespace fs = std::filesystem;

class ObjReader : public testing::TempDirTest {};

double area(const SurfaceMesh& mesh) {
  double sum = 0.0;
  for (Index t = 0; t < mesh.triangles.rows(); ++t) {
    const Vec3 a = mesh.vertices.row(mesh.triangles(t, 0)).transpose();
    const Vec3 b = mesh.vertices.row(mesh.triangles(t, 1)).transpose();
    const Vec3 c = mesh.vertices.row(mesh.triangles(t, 2)).transpose();
    sum += 0.5 * (b - a).cross(c - a).norm();
  }
  return sum;
}

TEST(ObjReaderData, Beam3QuadsBecomeTrianglesCoveringTheBeamSurface) {
  const SurfaceMesh mesh = read_obj(testing::share_dir() / "meshes" / "beam3.obj");
  ASSERT_EQ(mesh.vertices.rows(), 208);
  ASSERT_EQ(mesh.triangles.rows(), 412);  // 206 quads "f a//n b//n c//n d//n"
  EXPECT_EQ(mesh.vertices.row(0), (Eigen::RowVector3d(-0.06, 0, -0.02)));
  EXPECT_EQ(mesh.vertices.row(207), (Eigen::RowVector3d(0.06, 1, 0.02)));
  // "f 1//1 2//1 4//1 3//1" and "f 205//206 207//206 208//206 206//206", fan-triangulated.
  EXPECT_EQ(mesh.triangles.row(0), (Eigen::RowVector3i(0, 1, 3)));
  EXPECT_EQ(mesh.triangles.row(1), (Eigen::RowVector3i(0, 3, 2)));
  EXPECT_EQ(mesh.triangles.row(410), (Eigen::RowVector3i(204, 206, 207)));
  EXPECT_EQ(mesh.triangles.row(411), (Eigen::RowVector3i(204, 207, 205)));
  // The 0.12 × 1 × 0.04 box: 2 (0.12 + 0.04 + 0.12·0.04) = 0.3296.
  EXPECT_NEAR(area(mesh), 0.3296, 1e-12);
}

TEST(ObjReaderData, AsianDragonSurface) {
  SUBSTRUCT_REQUIRE_SHARED("asianDragon/asianDragon.obj");
  const SurfaceMesh mesh = read_obj(testing::shared_data() / "asianDragon" / "asianDragon.obj");
  EXPECT_EQ(mesh.vertices.rows(), 25002);
  EXPECT_EQ(mesh.triangles.rows(), 50000);
}

TEST_F(ObjReader, AllFaceFormsRelativeIndicesAndPolygons) {
  const fs::path file = write("forms.obj",
                              "# every face form\n"
                              "o thing\n"
                              "v 0 0 0\n"
                              "v 1 0 0\n"
                              "v 1 1 0\n"
                              "v 0 1 0 1.0\n"
                              "vt 0 0\n"
                              "vn 0 0 1\n"
                              "f 1 2 3\n"
                              "f 1/1 3/1 4/1\n"
                              "f -4/1/1 -3/1/1 -2/1/1 -1/1/1\n"
                              "f 1//1 2//1 3//1\r\n"
                              "g group\n"
                              "s off\n"
                              "usemtl m\n"
                              "v 0.5 0.5 1 0.2 0.3 0.4\n"
                              "f 1 2 3 4 -1\n");
  const SurfaceMesh mesh = read_obj(file);
  ASSERT_EQ(mesh.vertices.rows(), 5);
  EXPECT_EQ(mesh.vertices.row(4), (Eigen::RowVector3d(0.5, 0.5, 1)));
  Triangles expected(8, 3);
  // clang-format off
  expected << 0, 1, 2,                    // f 1 2 3
              0, 2, 3,                    // f 1/1 3/1 4/1
              0, 1, 2,  0, 2, 3,          // f -4/1/1 -3/1/1 -2/1/1 -1/1/1 (a quad)
              0, 1, 2,                    // f 1//1 2//1 3//1
              0, 1, 2,  0, 2, 3,  0, 3, 4;  // f 1 2 3 4 -1 (a pentagon)
  // clang-format on
  EXPECT_TRUE(mesh.triangles == expected) << mesh.triangles;
}

TEST_F(ObjReader, MalformedInputIsAParseErrorAtItsLine) {
  struct Case {
    const char* name;
    std::string text;
    long line;
    const char* fragment;
  };
  const std::string square = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n";  // lines 1–4
  const std::vector<Case> cases = {
      {"empty file", "", 1, "vertex records 'v x y z', found end of file"},
      {"no faces", square + "vn 0 0 1\n", 5, "face records 'f v1 v2 v3 …', found end of file"},
      {"coordinate not a number", "v 0 0 0\nv 1 x 0\n", 2,
       "the y coordinate (a finite number), found 'x'"},
      {"missing coordinate", "v 0 0\n", 1, "the z coordinate, found end of line"},
      {"index zero", square + "f 0 1 2\n", 5, "(the vertices defined so far), found '0'"},
      {"index past the last vertex", square + "f 1 2 5\n", 5,
       "a vertex index in [1, 4] or [-4, -1] (the vertices defined so far), found '5'"},
      {"relative index too far back", square + "f -5 1 2\n", 5, "found '-5'"},
      {"two-vertex face", square + "f 1 2\n", 5, "at least 3 vertices in a face, found 2"},
      {"texture index not a number", square + "f 1/a 2 3\n", 5,
       "a face vertex (v, v/vt, v/vt/vn or v//vn), found '1/a'"},
      {"four-part corner", square + "f 1/1/1/1 2 3\n", 5, "found '1/1/1/1'"},
      {"vertex index not a number", square + "f one 2 3\n", 5, "found 'one'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path file = write("bad.obj", c.text);
    try {
      read_obj(file);
      ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
      const std::string message = e.what();
      EXPECT_EQ(e.line(), c.line) << message;
      EXPECT_NE(message.find(fmt::format("{}:{}: expected", file.string(), c.line)),
                std::string::npos)
          << message;
      EXPECT_NE(message.find(c.fragment), std::string::npos) << message;
    }
  }
}

TEST_F(ObjReader, MissingFileIsAnErrorNamingThePath) {
  const fs::path file = dir() / "absent.obj";
  try {
    read_obj(file);
    ADD_FAILURE() << "no Error";
  } catch (const ParseError& e) {
    ADD_FAILURE() << "a missing file is not a parse error: " << e.what();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace substruct
