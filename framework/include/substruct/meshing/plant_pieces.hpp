// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The first step of the plant import (Zhao 2014, §4.1, Step 1): an artist's polygon soup cut
/// into pieces, each a domain-to-be, typed flexible (F) or rigid (R1, R2).
#include <string>
#include <vector>

#include "substruct/meshing/triangle_model.hpp"

namespace substruct {

/// F: a flexible domain (trunk, branches, flowers); R1: a rigid domain parented to an F domain;
/// R2: a rigid domain parented to an R1 domain (needles on a twig card). Steps 1 and 7 decide.
enum class PieceType { flexible, rigid1, rigid2 };
const char* piece_type_name(PieceType type);  // "F", "R1", "R2"

struct PlantPiece {
  std::vector<Index> triangles;  // the model's triangles (0-based), in file order
  std::vector<Index> vertices;   // the vertices they use, ascending
  std::string material;          // the material of its first triangle
  PieceType type = PieceType::flexible;
  std::string why;  // what typed it: "material 'Leaves'", "thin", "small", "--rigid", …
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();  // bounding box
};

/// Pieces of `model`: `by_mesh` false: connected components (triangles sharing a vertex, found
/// with union–find); true: the file's meshes (OBJ objects, groups, materials) split into their
/// connected components. Pieces are ordered by their first triangle.
std::vector<PlantPiece> split_into_pieces(const TriangleModel& model, bool by_mesh);

/// The rules of Step 1's typing, each giving R1 (Step 7 may make it R2):
struct PieceTyping {
  std::string rigid_materials;       // an ECMAScript regex (any case) on the material name
  double thin = 0.02;                // thickness / length below this: a card (billboard)
  double small = 0.01;               // box diagonal / the plant's below this: debris
  std::vector<int> rigid_pieces;     // forced rigid (0-based piece indices)
  std::vector<int> flexible_pieces;  // forced flexible
};

/// Types every piece by the rules, in this order: forced flexible, forced rigid, material,
/// thin (the smallest principal extent of its vertices over the largest), small. Throws Error
/// for a bad regex or a forced index without a piece, and when no piece is left flexible.
void type_pieces(const SurfaceMesh& surface, const PieceTyping& rules,
                 std::vector<PlantPiece>& pieces);

}  // namespace substruct
