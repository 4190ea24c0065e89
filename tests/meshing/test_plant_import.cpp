// SPDX-License-Identifier: GPL-3.0-or-later
// The plant import's Steps 1–9 (Zhao 2014, §4.1) on a small soup made here — a trunk, two
// branches (one a turned, scaled copy of the other) sunk into it, a leaf card and a speck that
// touches nothing — and on a Quaternius tree (CC0, share/meshes/quaternius).
#include <algorithm>
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "substruct/core/error.hpp"
#include "substruct/domains/interface.hpp"
#include "substruct/meshing/plant_graph.hpp"
#include "substruct/meshing/plant_instances.hpp"
#include "substruct/meshing/plant_mesher.hpp"
#include "substruct/meshing/plant_pieces.hpp"
#include "support/icosphere.hpp"
#include "support/shared_data.hpp"
#include "support/temp_dir_test.hpp"

namespace substruct {
namespace {

SurfaceMesh box_at(const Vec3& lo, const Vec3& size) {
  SurfaceMesh b = testing::box_surface(size(0), size(1), size(2));
  b.vertices.rowwise() += lo.transpose();
  return b;
}

// Piece 0 trunk, 1 branch, 2 the branch turned half a turn about the trunk's axis and scaled
// 0.8, 3 a leaf card crossing the branch's tip, 4 a speck far from everything.
TriangleModel small_plant() {
  const SurfaceMesh trunk = box_at({0, 0, 0}, {0.2, 2, 0.2});
  const SurfaceMesh branch = box_at({0.1, 1.0, 0.06}, {1.0, 0.12, 0.08});
  SurfaceMesh copy = branch;
  for (Eigen::Index v = 0; v < copy.vertices.rows(); ++v) {
    const Vec3 x = copy.vertices.row(v).transpose();
    const Vec3 turned(0.2 - x(0), x(1), 0.2 - x(2));
    const Vec3 about(0.1, 1.06, 0.1);
    copy.vertices.row(v) = (about + 0.8 * (turned - about) + Vec3(0, 0.5, 0)).transpose();
  }
  SurfaceMesh card;
  card.vertices = Points(4, 3);
  card.vertices << 1.0, 1.05, 0.1, 1.35, 1.05, 0.1, 1.35, 1.4, 0.1, 1.0, 1.4, 0.1;
  card.triangles = Triangles(2, 3);
  card.triangles << 0, 1, 2, 0, 2, 3;
  const SurfaceMesh speck = box_at({2.0, 0.0, 0.0}, {0.03, 0.03, 0.03});
  TriangleModel m;
  m.surface = testing::merged(
      testing::merged(testing::merged(testing::merged(trunk, branch), copy), card), speck);
  return m;
}

PieceTyping rules() {
  PieceTyping r;
  r.small = 0.05;
  return r;
}

TEST(PlantImport, PiecesAreTypedCopiesFoundAndTheTreeBuilt) {
  const TriangleModel model = small_plant();
  std::vector<PlantPiece> pieces = split_into_pieces(model, false);
  ASSERT_EQ(pieces.size(), 5U);
  type_pieces(model.surface, rules(), pieces);
  EXPECT_EQ(pieces[0].type, PieceType::flexible);
  EXPECT_EQ(pieces[1].type, PieceType::flexible);
  EXPECT_EQ(pieces[2].type, PieceType::flexible);
  EXPECT_NE(pieces[3].type, PieceType::flexible);  // thin
  EXPECT_NE(pieces[3].why.find("thin"), std::string::npos) << pieces[3].why;
  EXPECT_NE(pieces[4].type, PieceType::flexible);  // small
  EXPECT_NE(pieces[4].why.find("small"), std::string::npos) << pieces[4].why;

  const std::vector<int> copies = find_instances(model.surface, pieces, 1e-3);
  EXPECT_EQ(copies, (std::vector<int>{0, 1, 1, 3, 4}));

  const std::vector<PieceContact> contacts = find_piece_contacts(model.surface, pieces, 0.01);
  std::set<std::pair<int, int>> touching;
  for (const PieceContact& c : contacts) touching.insert({c.a, c.b});
  EXPECT_EQ(touching, (std::set<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 3}}));

  const PlantTree tree = build_plant_tree(model.surface, pieces, contacts, "lowest");
  EXPECT_EQ(tree.root, 0);
  EXPECT_EQ(tree.parent, (std::vector<int>{-1, 0, 0, 1, 3}));
  EXPECT_EQ(pieces[3].type, PieceType::rigid1);  // under the branch
  EXPECT_EQ(pieces[4].type, PieceType::rigid2);  // nearest to the card
  ASSERT_EQ(tree.attached.size(), 1U);
  EXPECT_EQ(tree.attached[0].piece, 4);
  EXPECT_EQ(tree.attached[0].to, 3);
  EXPECT_NEAR(tree.attached[0].distance, std::sqrt(0.65 * 0.65 + 1.02 * 1.02 + 0.07 * 0.07), 1e-9);
  EXPECT_TRUE(tree.cut_loops.empty());
  EXPECT_EQ(tree.flexible_components, 1);
  EXPECT_EQ(tree.order.front(), 0);
}

TEST(PlantImport, EveryDomainIsMeshedApartAndEveryChildHasFixedVertices) {
  const TriangleModel model = small_plant();
  std::vector<PlantPiece> pieces = split_into_pieces(model, false);
  type_pieces(model.surface, rules(), pieces);
  const PlantTree tree = build_plant_tree(
      model.surface, pieces, find_piece_contacts(model.surface, pieces, 0.01), "lowest");
  PlantMeshSettings s;
  s.cells = 30;
  const PlantMesh plant = mesh_plant(model.surface, pieces, tree, s);
  ASSERT_EQ(plant.domains.size(), 5U);
  EXPECT_TRUE(plant.merged.empty());
  EXPECT_NEAR(plant.cell, 1.2 * 2.73 / 30, 1e-9);  // the plant spans x −0.7…2.03
  EXPECT_EQ(plant.mesh.num_elements(), static_cast<Index>(plant.element_domain.size()));
  // Every tet positive, and each domain's tets a cube's six.
  for (Index e = 0; e < plant.mesh.num_elements(); ++e) {
    const Vec3 x0 = plant.mesh.vertices.row(plant.mesh.tets(e, 0)).transpose();
    const double v =
        (plant.mesh.vertices.row(plant.mesh.tets(e, 1)).transpose() - x0)
            .dot((plant.mesh.vertices.row(plant.mesh.tets(e, 2)).transpose() - x0)
                     .cross(plant.mesh.vertices.row(plant.mesh.tets(e, 3)).transpose() - x0));
    ASSERT_NEAR(v / 6, std::pow(plant.cell, 3) / 6, 1e-12) << e;
  }
  // The domains' vertex sets: a child shares exactly its fixed vertices, with its parent only.
  std::vector<std::set<Index>> used(plant.domains.size());
  for (Index e = 0; e < plant.mesh.num_elements(); ++e)
    for (int k = 0; k < 4; ++k)
      used[static_cast<std::size_t>(plant.element_domain[static_cast<std::size_t>(e)])].insert(
          plant.mesh.tets(e, k));
  for (std::size_t d = 0; d < plant.domains.size(); ++d) {
    const PlantDomain& dom = plant.domains[d];
    EXPECT_EQ(dom.vertices, static_cast<Index>(used[d].size()));
    EXPECT_EQ(dom.tets, 6 * dom.cells);
    if (dom.parent < 0) continue;
    EXPECT_GE(dom.fixed, 4) << d;
    for (std::size_t o = 0; o < plant.domains.size(); ++o) {
      if (o == d) continue;
      std::vector<Index> shared;
      std::set_intersection(used[d].begin(), used[d].end(), used[o].begin(), used[o].end(),
                            std::back_inserter(shared));
      if (static_cast<int>(o) == dom.parent) {
        EXPECT_EQ(static_cast<Index>(shared.size()), dom.fixed) << d;
        const std::vector<Index> all(shared.begin(), shared.end());
        Points at(static_cast<Eigen::Index>(all.size()), 3);
        for (std::size_t i = 0; i < all.size(); ++i)
          at.row(static_cast<Eigen::Index>(i)) = plant.mesh.vertices.row(all[i]);
        std::vector<Index> ids(all.size());
        for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<Index>(i);
        EXPECT_GE(affine_rank(at, ids), 2) << d;
      } else if (plant.domains[o].parent != static_cast<int>(d)) {
        EXPECT_TRUE(shared.empty()) << d << " and " << o;
      }
    }
  }
  // The speck shares no cube with the card: bridged to it.
  const auto speck = std::find_if(plant.domains.begin(), plant.domains.end(),
                                  [](const PlantDomain& d) { return d.piece == 4; });
  ASSERT_NE(speck, plant.domains.end());
  EXPECT_NE(speck->notes.find("bridged"), std::string::npos) << speck->notes;
  EXPECT_EQ(speck->type, PieceType::rigid2);
}

TEST(PlantImport, AGridTooCoarseForAPieceIsAnErrorNamingIt) {
  const TriangleModel model = small_plant();
  std::vector<PlantPiece> pieces = split_into_pieces(model, false);
  type_pieces(model.surface, rules(), pieces);
  const PlantTree tree = build_plant_tree(
      model.surface, pieces, find_piece_contacts(model.surface, pieces, 0.01), "lowest");
  PlantMeshSettings s;
  s.cells = 4;
  s.flexible_fill = VoxelFill::centre;
  const std::string message =
      testing::error_message([&] { mesh_plant(model.surface, pieces, tree, s); });
  EXPECT_NE(message.find("piece 0"), std::string::npos) << message;
  EXPECT_NE(message.find("has no cube whose centre is inside it"), std::string::npos) << message;
  EXPECT_NE(message.find("--plant-cells 4"), std::string::npos) << message;
}

TEST(PlantImport, BadRulesAreRefused) {
  const TriangleModel model = small_plant();
  std::vector<PlantPiece> pieces = split_into_pieces(model, false);
  PieceTyping r = rules();
  r.rigid_pieces = {7};
  EXPECT_NE(testing::error_message([&] {
              type_pieces(model.surface, r, pieces);
            }).find("piece 7 does not exist"),
            std::string::npos);
  r.rigid_pieces = {0, 1, 2};
  EXPECT_NE(testing::error_message([&] {
              type_pieces(model.surface, r, pieces);
            }).find("every piece is rigid"),
            std::string::npos);
  r.rigid_pieces = {};
  type_pieces(model.surface, r, pieces);
  EXPECT_NE(testing::error_message([&] {
              build_plant_tree(model.surface, pieces, {}, "3");
            }).find("root piece 3 is rigid"),
            std::string::npos);
}

TEST(PlantImport, AQuaterniusTreeBecomesATreeOfDomains) {
  const TriangleModel model =
      read_triangle_model(testing::share_dir() / "meshes" / "quaternius" / "Tree_1.obj");
  std::vector<PlantPiece> pieces = split_into_pieces(model, false);
  ASSERT_EQ(pieces.size(), 23U);  // as the data's README counts them
  PieceTyping r;
  r.rigid_materials = "leaves";
  type_pieces(model.surface, r, pieces);
  int flexible = 0;
  for (const PlantPiece& p : pieces) flexible += p.type == PieceType::flexible ? 1 : 0;
  EXPECT_EQ(flexible, 8);  // Bark: the trunk and 7 branches; the 15 crowns by material
  // Copies (checked apart: equal sorted pairwise distances of the centred, RMS-scaled vertices,
  // to 1e-5): three twigs of piece 4, ten crowns of piece 8, one of piece 16.
  const std::vector<int> copies = find_instances(model.surface, pieces, 1e-3);
  EXPECT_EQ(copies, (std::vector<int>{0, 1, 2, 3,  4,  4,  4,  4,  8, 8, 8, 8,
                                      8, 8, 8, 15, 16, 17, 18, 16, 8, 8, 8}));

  // The tree: every piece but the root has a parent, reached from the root.
  const PlantTree tree = build_plant_tree(
      model.surface, pieces, find_piece_contacts(model.surface, pieces, 0.0333), "lowest");
  EXPECT_EQ(tree.root, 0);
  EXPECT_EQ(tree.order.size(), pieces.size());
  EXPECT_EQ(tree.flexible_components, 1);
  EXPECT_EQ(tree.cut_loops.size(), 1U);
  EXPECT_TRUE(tree.attached.empty());
  for (std::size_t p = 1; p < pieces.size(); ++p) EXPECT_GE(tree.parent[p], 0) << p;
}

TEST(PlantImport, AQuaterniusPlantIsMeshedAtTheThesisResolution) {
  const TriangleModel model =
      read_triangle_model(testing::share_dir() / "meshes" / "quaternius" / "Plant_2.obj");
  ASSERT_EQ(model.triangle_mesh.size(), 218U);
  std::vector<PlantPiece> pieces = split_into_pieces(model, false);
  ASSERT_EQ(pieces.size(), 16U);
  EXPECT_EQ(pieces[0].material, "Wood");
  type_pieces(model.surface, PieceTyping{"leaf|leaves", 0.02, 0.01, {}, {}}, pieces);
  for (std::size_t p = 1; p < pieces.size(); ++p) {
    EXPECT_EQ(pieces[p].material, "Leaves");
    EXPECT_EQ(pieces[p].why, "material 'Leaves'");
  }
  const double cell = 1.2 * 1.774 / 100;  // the stem's height is the box's longest side
  const PlantTree tree = build_plant_tree(
      model.surface, pieces, find_piece_contacts(model.surface, pieces, 0.5 * cell), "lowest");
  EXPECT_EQ(tree.root, 0);
  for (std::size_t p = 1; p < pieces.size(); ++p) EXPECT_EQ(tree.parent[p], 0) << p;
  const PlantMesh plant = mesh_plant(model.surface, pieces, tree, PlantMeshSettings{});
  EXPECT_NEAR(plant.cell, cell, 1e-3 * cell);
  EXPECT_EQ(plant.domains.size() + plant.merged.size(), 16U);
  EXPECT_EQ(plant.domains[0].type, PieceType::flexible);
  for (std::size_t d = 1; d < plant.domains.size(); ++d) {
    EXPECT_EQ(plant.domains[d].type, PieceType::rigid1) << d;
    EXPECT_EQ(plant.domains[d].parent, 0) << d;
    EXPECT_GE(plant.domains[d].fixed, 4) << d;
  }
}

TEST(PlantImport, PiecesByMeshSplitWhatTouchesAcrossMeshes) {
  // A trunk and a branch that uses one of the trunk's vertices, in two meshes.
  TriangleModel model;
  model.surface =
      testing::merged(box_at({0, 0, 0}, {0.2, 2, 0.2}), box_at({0.2, 1, 0.05}, {1, 0.1, 0.1}));
  for (Eigen::Index t = 12; t < 24; ++t)
    for (int k = 0; k < 3; ++k)
      if (model.surface.triangles(t, k) == 8) model.surface.triangles(t, k) = 7;
  model.triangle_mesh.assign(24, 0);
  std::fill(model.triangle_mesh.begin() + 12, model.triangle_mesh.end(), 1);
  model.mesh_materials = {"Bark", "Twig"};
  EXPECT_EQ(split_into_pieces(model, false).size(), 1U);
  const std::vector<PlantPiece> by_mesh = split_into_pieces(model, true);
  ASSERT_EQ(by_mesh.size(), 2U);
  EXPECT_EQ(by_mesh[0].material, "Bark");
  EXPECT_EQ(by_mesh[1].material, "Twig");
  EXPECT_EQ(by_mesh[1].triangles.size(), 12U);
}

}  // namespace
}  // namespace substruct
