// SPDX-License-Identifier: GPL-3.0-or-later
// substruct import MODEL --as plant: the thesis's plant preprocessing (Zhao 2014, §4.1, Steps
// 1–9) from an artist's polygon soup to a scene of one voxelised domain per piece.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "import_settings.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/meshing/plant_graph.hpp"
#include "substruct/meshing/plant_instances.hpp"
#include "substruct/meshing/plant_mesher.hpp"
#include "substruct/meshing/plant_pieces.hpp"
#include "substruct/meshing/triangle_model.hpp"
#include "substruct/meshing/vertex_selector.hpp"

namespace substruct::cli {

namespace {

namespace fs = std::filesystem;

VoxelFill fill_of(const std::string& name) {
  if (name == "shell") return VoxelFill::shell;
  if (name == "centre") return VoxelFill::centre;
  return VoxelFill::surface;
}

// "0 3-7 9" from ascending ids.
std::string ranges(const std::vector<int>& ids) {
  std::string s;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    s += (s.empty() ? "" : " ") +
         (j == i ? std::to_string(ids[i]) : fmt::format("{}-{}", ids[i], ids[j]));
    i = j + 1;
  }
  return s;
}

// The root's clamp: its vertices the selector picks, by default those within 2 % of the plant's
// height of its lowest one.
std::vector<Index> root_clamp(const PlantMesh& plant, const SurfaceMesh& surface,
                              const std::string& fix) {
  std::set<Index> root;
  for (Index e = 0; e < plant.mesh.num_elements(); ++e)
    if (plant.element_domain[static_cast<std::size_t>(e)] == 0)
      for (int k = 0; k < 4; ++k) root.insert(plant.mesh.tets(e, k));
  std::vector<Index> fixed;
  if (fix.empty() || fix == "lowest") {
    double lowest = INFINITY;
    for (const Index v : root) lowest = std::min(lowest, plant.mesh.vertices(v, 1));
    const double height = surface.vertices.col(1).maxCoeff() - surface.vertices.col(1).minCoeff();
    for (const Index v : root)
      if (plant.mesh.vertices(v, 1) <= lowest + 0.02 * height + 1e-9 * plant.cell)
        fixed.push_back(v);
  } else {
    for (const Index v : select_vertices(plant.mesh.vertices, fix))
      if (root.count(v) != 0) fixed.push_back(v);
  }
  if (fixed.empty() || fixed.size() == root.size())
    throw Error(fmt::format("import: --fix '{}' fixes {} of the root domain's {} vertices",
                            fix.empty() ? "lowest" : fix, fixed.empty() ? "none" : "all",
                            root.size()));
  return fixed;
}

}  // namespace

void import_plant(const fs::path& model, const std::string& name, const ImportSettings& o) {
  const auto start = Clock::now();
  auto lap = Clock::now();
  const TriangleModel read = read_triangle_model(model);
  const SurfaceMesh& surface = read.surface;
  std::printf("model      %s: %ld vertices, %ld triangles in %zu meshes (%.3f s)\n", model.c_str(),
              static_cast<long>(surface.vertices.rows()),
              static_cast<long>(surface.triangles.rows()), read.mesh_names.size(),
              seconds_since(lap));

  // Step 1: pieces, typed.
  lap = Clock::now();
  std::vector<PlantPiece> pieces = split_into_pieces(read, o.pieces == "meshes");
  PieceTyping typing;
  typing.rigid_materials = o.rigid_materials;
  typing.thin = o.thin;
  typing.small = o.small;
  typing.rigid_pieces.assign(o.rigid_pieces.begin(), o.rigid_pieces.end());
  typing.flexible_pieces.assign(o.flexible_pieces.begin(), o.flexible_pieces.end());
  type_pieces(surface, typing, pieces);
  int flexible = 0;
  for (const PlantPiece& p : pieces) flexible += p.type == PieceType::flexible ? 1 : 0;
  std::printf("pieces     %zu (%s): %d flexible, %zu rigid (%.3f s)\n", pieces.size(),
              o.pieces == "meshes" ? "the file's meshes, split into connected components"
                                   : "connected components",
              flexible, pieces.size() - static_cast<std::size_t>(flexible), seconds_since(lap));
  for (std::size_t p = 0; p < pieces.size(); ++p)
    log::info("piece {}: {} triangles, {}: {}", p, pieces[p].triangles.size(),
              pieces[p].type == PieceType::flexible ? "F" : "rigid", pieces[p].why);

  // Step 2: instances.
  lap = Clock::now();
  std::vector<int> instance_of(pieces.size());
  for (std::size_t p = 0; p < pieces.size(); ++p) instance_of[p] = static_cast<int>(p);
  if (o.instances) instance_of = find_instances(surface, pieces, o.instance_tolerance);
  int copies = 0, sets = 0;
  {
    std::vector<int> count(pieces.size(), 0);
    for (const int r : instance_of) ++count[static_cast<std::size_t>(r)];
    for (std::size_t p = 0; p < pieces.size(); ++p) {
      if (instance_of[p] != static_cast<int>(p)) ++copies;
      if (count[p] > 1) ++sets;
    }
  }
  std::printf("instances  %d pieces are copies of others, in %d sets%s (%.3f s)\n", copies, sets,
              o.instances ? "" : " (--instances false)", seconds_since(lap));

  // Steps 3–7: contacts and the tree.
  lap = Clock::now();
  const double cell =
      1.2 *
      (surface.vertices.colwise().maxCoeff() - surface.vertices.colwise().minCoeff()).maxCoeff() /
      o.plant_cells;
  const std::vector<PieceContact> contacts = find_piece_contacts(surface, pieces, o.contact * cell);
  const PlantTree tree = build_plant_tree(surface, pieces, contacts, o.root);
  std::printf(
      "graph      %zu touching pairs (within %.3g); %d flexible group%s; root piece %d (%s); "
      "%zu loop%s cut (%.3f s)\n",
      contacts.size(), o.contact * cell, tree.flexible_components,
      tree.flexible_components == 1 ? "" : "s", tree.root,
      o.root == "lowest" || o.root == "largest" ? o.root.c_str() : "chosen", tree.cut_loops.size(),
      tree.cut_loops.size() == 1 ? "" : "s", seconds_since(lap));
  for (const Attachment& a : tree.attached)
    log::warn(
        "import: piece {} touches nothing of the tree: attached to the nearest, piece {}, "
        "{:.4g} away",
        a.piece, a.to, a.distance);
  for (const auto& [a, b] : tree.cut_loops)
    log::info("graph: the contact of pieces {} and {} left out of the tree (a loop)", a, b);

  // Steps 8–9: the meshes and the fixed vertices.
  lap = Clock::now();
  PlantMeshSettings ms;
  ms.cells = o.plant_cells;
  ms.flexible_fill = fill_of(o.fill);
  ms.rigid_fill = fill_of(o.rigid_fill);
  const PlantMesh plant = mesh_plant(surface, pieces, tree, ms);
  int f = 0, r1 = 0, r2 = 0;
  std::vector<int> rigid;
  for (std::size_t d = 0; d < plant.domains.size(); ++d) {
    const PlantDomain& dom = plant.domains[d];
    if (dom.type == PieceType::flexible)
      ++f;
    else
      rigid.push_back(static_cast<int>(d));
    r1 += dom.type == PieceType::rigid1 ? 1 : 0;
    r2 += dom.type == PieceType::rigid2 ? 1 : 0;
    if (!dom.notes.empty()) log::info("domain {} (piece {}): {}", d, dom.piece, dom.notes);
  }
  for (const std::string& m : plant.merged) log::info("merged {}", m);
  std::printf(
      "meshes     %zu domains (F %d, R1 %d, R2 %d; %zu pieces merged into their parent) on cubes "
      "of %.4g: %d vertices, %d tets (%.3f s)\n",
      plant.domains.size(), f, r1, r2, plant.merged.size(), plant.cell, plant.mesh.num_vertices(),
      plant.mesh.num_elements(), seconds_since(lap));
  lap = Clock::now();
  const std::vector<Index> fixed = root_clamp(plant, surface, o.fix);
  Index interface = 0;
  for (const PlantDomain& d : plant.domains) interface += d.fixed;
  std::printf(
      "fixed      %zu vertices of the root (%s); %d vertices shared by children with "
      "their parents (%.3f s)\n",
      fixed.size(), o.fix.empty() ? "lowest" : o.fix.c_str(), interface, seconds_since(lap));

  // The scene: meshes first, the scene file last.
  fs::create_directories(o.out);
  write_veg(o.out / (name + ".veg"), plant.mesh);
  std::string bou;
  for (const Index v : fixed) bou += fmt::format("{}\n", v + 1);
  write_file_atomically(o.out / (name + ".bou"), bou);
  write_file_atomically(o.out / (name + ".domains"), [&](std::ostream& out) {
    out << "# the domain of each tet of " << name << ".veg\n";
    for (const int d : plant.element_domain) out << d << '\n';
  });
  write_obj(o.out / (name + ".obj"), surface);

  std::string domains_comment;
  for (std::size_t d = 0; d < plant.domains.size(); ++d) {
    const PlantDomain& dom = plant.domains[d];
    const PlantPiece& piece = pieces[static_cast<std::size_t>(dom.piece)];
    const int rep = instance_of[static_cast<std::size_t>(dom.piece)];
    domains_comment +=
        fmt::format("#   {:>3}  piece {:>3}  {:<2}  parent {:>3}  {:>5} tets  {:>4} fixed  {}{}\n",
                    d, dom.piece, piece_type_name(dom.type), dom.parent, dom.tets, dom.fixed,
                    piece.material, rep != dom.piece ? fmt::format("  copy of piece {}", rep) : "");
  }
  const std::string ini = fmt::format(
      "# Imported from {} by substruct import --as plant (Zhao 2014, §4.1, Steps 1–9):\n"
      "# {} pieces → {} domains (F {}, R1 {}, R2 {}); instanced copies: {}; loops cut: {};\n"
      "# pieces attached to the nearest: {}; every domain voxelised on its own (cubes of {:.4g}),\n"
      "# a child's fixed vertices the corners of its cubes that are also its parent's.\n"
      "#   substruct run {}.ini\n"
      "# domain, piece, type, parent, tets, fixed vertices, material:\n{}\n"
      "[scene]\nmesh = {}.veg\nrender_mesh = {}.obj\nfixed = {}.bou\ndomains = {}.domains\n"
      "root = 0\n\n"
      "[material]\nyoungs_modulus = 1e9\npoisson_ratio = 0.45\ndensity = 1000\n\n"
      "[coupling]\nplugin = inertia\n\n"
      "{}"
      "[reduction]\nmode_count = adaptive\nr_max = 20\ninstancing = true\n\n"
      "[run]\ndt = 0.01\nsteps = 100\noutput = out/{}.pvd\nloads = gravity\n\n"
      "[gravity]\nacceleration = 0 -9.81 0\n",
      fs::absolute(model).string(), pieces.size(), plant.domains.size(), f, r1, r2, copies,
      tree.cut_loops.size(), tree.attached.size(), plant.cell, name, domains_comment, name, name,
      name, name,
      rigid.empty() ? std::string()
                    : fmt::format("[inertia]\nrigid_domains = {}\n\n", ranges(rigid)),
      name);
  write_file_atomically(o.out / (name + ".ini"), ini);
  std::printf("wrote      %s: %s.ini, .veg, .bou, .domains, .obj (%.3f s in all)\n", o.out.c_str(),
              name.c_str(), seconds_since(start));
  std::printf("run it     substruct run %s\n", (o.out / (name + ".ini")).c_str());
}

}  // namespace substruct::cli
