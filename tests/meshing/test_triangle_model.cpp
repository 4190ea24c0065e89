// SPDX-License-Identifier: GPL-3.0-or-later
// read_triangle_model (Assimp): OBJ groups welded into one surface, other formats alike, bad
// files named.
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "substruct/meshing/surface_defects.hpp"
#include "substruct/meshing/triangle_model.hpp"
#include "support/icosphere.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

class TriangleModelReader : public testing::TempDirTest {};

TEST_F(TriangleModelReader, ObjGroupsAreWeldedIntoOneClosedSurface) {
  // The unit cube's six faces as quads in two groups with two materials: Assimp gives two
  // meshes; positions shared between them are one vertex.
  const std::string obj =
      "mtllib none.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n"
      "g bottom_and_sides\nusemtl a\nf 1 3 4 2\nf 1 2 6 5\nf 3 7 8 4\ng rest\nusemtl b\n"
      "f 5 6 8 7\nf 1 5 7 3\nf 2 4 8 6\n";
  const TriangleModel m = read_triangle_model(write("cube.obj", obj));
  EXPECT_EQ(m.surface.vertices.rows(), 8);
  EXPECT_EQ(m.surface.triangles.rows(), 12);
  EXPECT_EQ(m.mesh_names.size(), 2u);
  EXPECT_EQ(first_surface_defect(m.surface), "");
  EXPECT_NEAR(testing::enclosed_volume(m.surface), 1.0, 1e-12);
}

TEST_F(TriangleModelReader, StlAndOffGiveTheSameSphere) {
  const SurfaceMesh sphere = testing::icosphere(2);
  std::string stl = "solid s\n",
              off = fmt::format("OFF\n{} {} 0\n", sphere.vertices.rows(), sphere.triangles.rows());
  for (Eigen::Index v = 0; v < sphere.vertices.rows(); ++v)
    off += fmt::format("{:.9g} {:.9g} {:.9g}\n", sphere.vertices(v, 0), sphere.vertices(v, 1),
                       sphere.vertices(v, 2));
  for (Eigen::Index t = 0; t < sphere.triangles.rows(); ++t) {
    off += fmt::format("3 {} {} {}\n", sphere.triangles(t, 0), sphere.triangles(t, 1),
                       sphere.triangles(t, 2));
    stl += "facet normal 0 0 0\nouter loop\n";
    for (int k = 0; k < 3; ++k) {
      const auto p = sphere.vertices.row(sphere.triangles(t, k));
      stl += fmt::format("vertex {:.9g} {:.9g} {:.9g}\n", p(0), p(1), p(2));
    }
    stl += "endloop\nendfacet\n";
  }
  stl += "endsolid s\n";
  for (const auto& [name, text] : {std::pair{"s.stl", stl}, std::pair{"s.off", off}}) {
    SCOPED_TRACE(name);
    const TriangleModel m = read_triangle_model(write(name, text));
    EXPECT_EQ(m.surface.vertices.rows(), sphere.vertices.rows());
    EXPECT_EQ(m.surface.triangles.rows(), sphere.triangles.rows());
    EXPECT_EQ(first_surface_defect(m.surface), "");
    EXPECT_NEAR(testing::enclosed_volume(m.surface), testing::enclosed_volume(sphere), 1e-6);
  }
}

TEST_F(TriangleModelReader, BadFilesAreNamed) {
  const auto message = [&](const std::string& name, const std::string& text) {
    const auto file = write(name, text);
    const std::string m = testing::error_message([&] { read_triangle_model(file); });
    EXPECT_NE(m.find("cannot import '" + file.string() + "'"), std::string::npos) << m;
    return m;
  };
  EXPECT_NE(message("points.obj", "v 0 0 0\nv 1 0 0\n").find(""), std::string::npos);
  EXPECT_NE(message("nan.obj", "v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").find(""),
            std::string::npos);
  message("empty.obj", "");
  message("model.xyz123", "no model\n");
  const std::string missing =
      testing::error_message([&] { read_triangle_model(dir() / "none.obj"); });
  EXPECT_NE(missing.find("none.obj"), std::string::npos) << missing;
}

}  // namespace
}  // namespace substruct
