// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/domains/decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <Eigen/LU>

#include "substruct/core/error.hpp"
#include "substruct/mesh/box_mesh.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

ElementPartition per_cell(const TetMesh& mesh) {
  ElementPartition p;
  p.num_domains = mesh.num_elements() / 6;
  for (Index e = 0; e < mesh.num_elements(); ++e) p.domain_of_element.push_back(e / 6);
  return p;
}

/// V = |det[X₁−X₀, X₂−X₀, X₃−X₀]| / 6, summed over the mesh.
double volume(const TetMesh& mesh) {
  double sum = 0;
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    Mat3 Dm;
    for (int c = 0; c < 3; ++c)
      Dm.col(c) =
          (mesh.vertices.row(mesh.tets(e, c + 1)) - mesh.vertices.row(mesh.tets(e, 0))).transpose();
    sum += std::abs(Dm.determinant()) / 6;
  }
  return sum;
}

/// Every local element of every domain maps back to the same global tet, and every element is
/// in exactly one domain.
void expect_consistent_maps(const TetMesh& mesh, const Decomposition& dec) {
  std::vector<int> seen(mesh.num_elements(), 0);
  for (int d = 0; d < dec.num_domains(); ++d) {
    const SubMesh& s = dec.domains[d];
    EXPECT_EQ(s.domain, d);
    EXPECT_TRUE(std::is_sorted(s.global_vertex.begin(), s.global_vertex.end()));
    for (Index k = 0; k < s.mesh.num_elements(); ++k) {
      const Index e = s.global_element[k];
      ++seen[e];
      EXPECT_EQ(dec.partition.domain_of_element[e], d);
      for (int i = 0; i < 4; ++i) EXPECT_EQ(s.global_vertex[s.mesh.tets(k, i)], mesh.tets(e, i));
    }
    for (Index l = 0; l < s.mesh.num_vertices(); ++l)
      EXPECT_EQ(s.local_vertex(s.global_vertex[l]), l);
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), mesh.num_elements());
}

TEST(Decomposition, ThreeCubesInARow) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(3, 1, 1), 3, 1, 1);
  const Decomposition dec = decompose(mesh, per_cell(mesh));
  ASSERT_EQ(dec.num_domains(), 3);
  ASSERT_EQ(dec.domains.size(), 3u);
  ASSERT_EQ(dec.interfaces.size(), 2u);
  EXPECT_EQ(dec.interfaces[0].a, 0);
  EXPECT_EQ(dec.interfaces[0].b, 1);
  EXPECT_EQ(dec.interfaces[1].a, 1);
  EXPECT_EQ(dec.interfaces[1].b, 2);
  for (const Interface& f : dec.interfaces) {
    EXPECT_EQ(f.vertices.size(), 4u);
    EXPECT_EQ(f.rank, 2);
  }
  double sum = 0;
  for (const SubMesh& s : dec.domains) {
    EXPECT_EQ(s.mesh.num_vertices(), 8);
    EXPECT_EQ(s.mesh.num_elements(), 6);
    EXPECT_NEAR(volume(s.mesh), 1.0, 1e-14);
    sum += volume(s.mesh);
  }
  EXPECT_NEAR(sum, volume(mesh), 1e-13);
  EXPECT_NEAR(sum, 3.0, 1e-13);
  expect_consistent_maps(mesh, dec);
  // Interface vertices are in both domains' sub-meshes.
  for (const Interface& f : dec.interfaces)
    for (const Index v : f.vertices) {
      EXPECT_GE(dec.domains[f.a].local_vertex(v), 0);
      EXPECT_GE(dec.domains[f.b].local_vertex(v), 0);
    }
}

TEST(Decomposition, NamedSetsGoToTheDomainsThatHoldThem) {
  TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(3, 1, 1), 3, 1, 1);
  mesh.element_sets["tips"] = {0, 17};
  const Decomposition dec = decompose(mesh, per_cell(mesh));
  EXPECT_EQ(dec.domains[0].mesh.vertex_sets.at("xmin").size(), 4u);
  EXPECT_EQ(dec.domains[0].mesh.vertex_sets.count("xmax"), 0u);
  EXPECT_EQ(dec.domains[2].mesh.vertex_sets.at("xmax").size(), 4u);
  for (const SubMesh& s : dec.domains) {
    // Each cube has 4 corners on y = 0; those on a shared face appear in both cubes.
    const auto& ymin = s.mesh.vertex_sets.at("ymin");
    ASSERT_EQ(ymin.size(), 4u);
    for (const Index l : ymin) EXPECT_EQ(s.mesh.vertices(l, 1), 0.0);
    EXPECT_TRUE(std::is_sorted(ymin.begin(), ymin.end()));
  }
  EXPECT_EQ(dec.domains[0].mesh.element_sets.at("tips"), std::vector<Index>{0});
  EXPECT_EQ(dec.domains[1].mesh.element_sets.count("tips"), 0u);
  EXPECT_EQ(dec.domains[2].mesh.element_sets.at("tips"), std::vector<Index>{5});
  // The same sets as extract_sub_mesh gives one domain at a time.
  for (int d = 0; d < 3; ++d) {
    const SubMesh alone = extract_sub_mesh(mesh, dec.domains[d].global_element, d);
    EXPECT_EQ(alone.mesh.element_sets, dec.domains[d].mesh.element_sets);
    EXPECT_EQ(alone.mesh.vertex_sets, dec.domains[d].mesh.vertex_sets);
  }
}

TEST(Decomposition, RejectsPartitionsThatDoNotFit) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  ElementPartition p = per_cell(mesh);
  p.num_domains = 3;  // domain 2 empty
  const std::string msg = testing::error_message([&] { decompose(mesh, p); });
  EXPECT_NE(msg.find("have no elements: 2"), std::string::npos) << msg;
  p = per_cell(mesh);
  p.domain_of_element.pop_back();
  EXPECT_THROW(decompose(mesh, p), Error);
}

TEST(Decomposition, MetisDecompositionOfTheBeamCoversItExactly) {
  const auto file = testing::share_dir() / "meshes" / "beam3_tet.veg";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " is absent";
  const TetMesh mesh = read_tet_mesh(file);
  const Decomposition dec = decompose(mesh, make_element_partition(mesh, "auto:6", "."));
  ASSERT_EQ(dec.num_domains(), 6);
  expect_consistent_maps(mesh, dec);
  double sum = 0;
  for (const SubMesh& s : dec.domains) sum += volume(s.mesh);
  EXPECT_NEAR(sum, volume(mesh), 1e-12 * volume(mesh));
  // Every vertex used by two domains is on an interface of the two.
  std::set<std::tuple<int, int, Index>> listed;
  for (const Interface& f : dec.interfaces)
    for (const Index v : f.vertices) listed.emplace(f.a, f.b, v);
  std::size_t shared = 0;
  for (int a = 0; a < 6; ++a)
    for (int b = a + 1; b < 6; ++b)
      for (const Index v : dec.domains[a].global_vertex)
        if (dec.domains[b].local_vertex(v) >= 0) {
          ++shared;
          EXPECT_TRUE(listed.count({a, b, v}))
              << "vertex " << v << " of domains " << a << ", " << b;
        }
  EXPECT_EQ(shared, listed.size());
  EXPECT_GT(shared, 0u);
}

TEST(Decomposition, CouplingElementsAreThoseStraddlingTheCut) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(8, 2, 2), 8, 2, 2);
  // Vertices with x ≤ 2 in domain 0, the rest in domain 1: the cut lies between x = 2 and 3.
  VertexPartition p;
  p.num_domains = 2;
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    p.domain_of_vertex.push_back(mesh.vertices(v, 0) <= 2.0 ? 0 : 1);
  const auto layers = coupling_interfaces(mesh, p);
  ASSERT_EQ(layers.size(), 1u);
  EXPECT_EQ(layers[0].a, 0);
  EXPECT_EQ(layers[0].b, 1);
  std::vector<Index> straddling;  // elements with vertices on both sides of x = 2.5
  for (Index e = 0; e < mesh.num_elements(); ++e) {
    double lo = 1e300, hi = -1e300;
    for (int i = 0; i < 4; ++i) {
      lo = std::min(lo, mesh.vertices(mesh.tets(e, i), 0));
      hi = std::max(hi, mesh.vertices(mesh.tets(e, i), 0));
    }
    if (lo < 2.5 && hi > 2.5) straddling.push_back(e);
  }
  EXPECT_EQ(straddling.size(), 6u * 2 * 2);  // the 4 cells between x = 2 and 3, 6 tets each
  EXPECT_EQ(layers[0].coupling_elements, straddling);
}

TEST(Decomposition, ElementsSpanningThreeDomainsCoupleEveryPair) {
  // One cube: corner 0 in domain 0, corner 7 (the far corner) in domain 1, the rest in domain 2.
  // Every tet of the Kuhn split holds both corners 0 and 7, so it touches all three domains.
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 1, 1, 1);
  VertexPartition p{{0, 2, 2, 2, 2, 2, 2, 1}, 3};
  const auto layers = coupling_interfaces(mesh, p);
  ASSERT_EQ(layers.size(), 3u);
  const std::vector<Index> all{0, 1, 2, 3, 4, 5};
  EXPECT_EQ(layers[0].a, 0);
  EXPECT_EQ(layers[0].b, 1);
  EXPECT_EQ(layers[1].a, 0);
  EXPECT_EQ(layers[1].b, 2);
  EXPECT_EQ(layers[2].a, 1);
  EXPECT_EQ(layers[2].b, 2);
  for (const auto& layer : layers) EXPECT_EQ(layer.coupling_elements, all);
}

TEST(Decomposition, VertexPartitionFromElementsCouplesNeighbouringCubes) {
  const TetMesh mesh = make_box_mesh(Vec3(0, 0, 0), Vec3(3, 1, 1), 3, 1, 1);
  const auto layers =
      coupling_interfaces(mesh, vertex_partition_from_elements(mesh, per_cell(mesh)));
  // Planes x = 0, 1 → 0, x = 2 → 1, x = 3 → 2: cube 1 couples 0 and 1, cube 2 couples 1 and 2.
  ASSERT_EQ(layers.size(), 2u);
  EXPECT_EQ(layers[0].coupling_elements, (std::vector<Index>{6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(layers[1].coupling_elements, (std::vector<Index>{12, 13, 14, 15, 16, 17}));
  VertexPartition bad{std::vector<int>(16, 0), 1};
  bad.domain_of_vertex[3] = -1;
  EXPECT_THROW(coupling_interfaces(mesh, bad), Error);
}

}  // namespace
}  // namespace substruct
