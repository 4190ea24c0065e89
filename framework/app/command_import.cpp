// SPDX-License-Identifier: GPL-3.0-or-later
// substruct import MODEL --out DIR [--as solid|voxels] [--fix SELECTOR] …: a scene folder from a
// triangle model (read with Assimp): the tet mesh (.veg), the fixed vertices (.bou), the model
// as the render surface (.obj) and the scene (.ini) every command takes.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "import_settings.hpp"
#include "substruct/config/config.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/log.hpp"
#include "substruct/core/stopwatch.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/meshing/solid_mesher.hpp"
#include "substruct/meshing/surface_defects.hpp"
#include "substruct/meshing/triangle_model.hpp"
#include "substruct/meshing/vertex_selector.hpp"
#include "substruct/meshing/voxel_mesher.hpp"
#include "substruct/options/option_docs.hpp"
#include "substruct/options/options.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct::cli {
namespace {

namespace fs = std::filesystem;

const OptionSet<ImportSettings>& import_options() {
  using S = ImportSettings;
  static const auto options =
      OptionSet<S>("import", "substruct import MODEL: a scene folder from a triangle model")
          .path("out", &S::out, "the scene folder to write (made when missing); required")
          .choice("as", &S::as, {"solid", "voxels", "plant"},
                  "solid: Gmsh's quality tets inside a closed surface, whose triangles stay the "
                  "mesh's boundary; voxels: the cubes of a grid whose centres are inside, split "
                  "into tets (for surfaces that cross themselves or overlap); plant: an artist's "
                  "polygon soup cut into pieces, one domain each, typed, instanced, put in a tree "
                  "by their contacts and voxelised apart (Zhao 2014, §4.1, Steps 1–9)")
          .text("fix", &S::fix,
                "fixed vertices: 'AXIS OP VALUE' (AXIS x, y or z; OP <, <=, >, >=; e.g. "
                "'y < 0.02') or 'lowest' (within 2 % of the height of the lowest vertex); none, "
                "with a warning, when empty; plant: of the root domain's vertices, 'lowest' when "
                "empty")
          .number("size", &S::size, "",
                  "solid: the longest tet edge inside, in the model's units; "
                  "0: as the surface's edges",
                  non_negative)
          .integer("cells", &S::cells, "", "voxels: cubes across the model's longest side",
                   in_range(1, 1000))
          .text("name", &S::name,
                "the scene's name: DIR/NAME.ini, NAME.veg, NAME.bou, NAME.obj; default: the "
                "model's file name without extension")
          .choice("pieces", &S::pieces, {"components", "meshes"},
                  "plant, Step 1: the pieces (domains) are the connected components of the "
                  "triangles (sharing a vertex), or the file's meshes (OBJ objects, groups, "
                  "materials) each split into its components")
          .text("rigid-materials", &S::rigid_materials,
                "plant, Step 1: pieces whose material name matches this regular expression (any "
                "case) are rigid (leaf cards, billboards); empty: none by material")
          .number("thin", &S::thin, "",
                  "plant, Step 1: a piece whose smallest principal extent is below this share of "
                  "its largest is a card, rigid",
                  in_range(0, 1))
          .number("small", &S::small, "",
                  "plant, Step 1: a piece whose box diagonal is below this share of the plant's is "
                  "debris, rigid",
                  in_range(0, 1))
          .indices("rigid-pieces", &S::rigid_pieces,
                   "plant, Step 1: pieces made rigid whatever the rules say (0-based, in the "
                   "order the import prints)")
          .indices("flexible-pieces", &S::flexible_pieces,
                   "plant, Step 1: pieces made flexible whatever the rules say")
          .flag("instances", &S::instances,
                "plant, Step 2: find the pieces that are copies of one another (rotation, "
                "translation, uniform scale)")
          .number("instance-tolerance", &S::instance_tolerance, "",
                  "plant, Step 2: how far a copy's vertex may be from the original's, over the "
                  "piece's RMS radius",
                  positive)
          .number("contact", &S::contact, "cubes",
                  "plant, Step 3: pieces whose triangles come this close (in cubes of the "
                  "voxel grid) touch",
                  non_negative)
          .text("root", &S::root,
                "plant, Step 5: the root domain: lowest (the flexible piece reaching lowest), "
                "largest (the longest box diagonal) or a piece index")
          .integer("plant-cells", &S::plant_cells, "",
                   "plant, Step 8: cubes across the longest side of the plant's box grown 1.2× "
                   "(the thesis's 100); every domain on the same grid",
                   in_range(1, 1000))
          .choice("fill", &S::fill, {"surface", "shell", "centre"},
                  "plant, Step 8: a flexible piece's cubes: surface (those its triangles touch "
                  "and those they enclose), shell (those its triangles touch) or centre (those "
                  "whose centre is inside by ray parity, as --as voxels)")
          .choice("rigid-fill", &S::rigid_fill, {"surface", "shell", "centre"},
                  "plant, Step 8: a rigid piece's cubes, as --fill (shell: foliage is mostly "
                  "air)");
  return options;
}

constexpr const char* kUsage =
    "usage: substruct import MODEL --out DIR [--as solid|voxels|plant] [--fix SELECTOR] [--size "
    "H]\n"
    "                        [--cells N] [--name NAME]\n"
    "  Writes a scene folder from a triangle model (OBJ, glTF/GLB, PLY, STL, OFF, FBX, DAE, …,\n"
    "  read with Assimp): DIR/NAME.veg (tets), NAME.bou (fixed vertices), NAME.obj (the model,\n"
    "  rendered on the tets) and NAME.ini (full coupling, gravity along −y), which every command\n"
    "  takes. The scene file is written last: a folder without it is not a finished import.\n"
    "  --as plant: one domain per piece of a polygon-soup plant (Zhao 2014, §4.1, Steps 1–9),\n"
    "  each voxelised on its own; NAME.domains holds each tet's domain and NAME.ini runs\n"
    "  the inertia coupling with the rigid pieces in [inertia] rigid_domains.\n\n";

/// The model file and the settings; false when --help was asked.
bool parse(const Args& args, GlobalOptions& global, fs::path& model, ImportSettings& settings) {
  const Args rest = take_global_options(args, global);
  std::vector<Setting> given;
  std::vector<std::string> known;
  for (const OptionInfo& o : import_options().table().options) known.push_back("--" + o.key);
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const std::string& a = rest[i];
    if (a == "--help" || a == "-h") {
      std::printf("%s%s", kUsage, options_text(import_options().table()).c_str());
      return false;
    }
    if (a.rfind("--", 0) != 0) {
      if (!model.empty())
        throw Error(
            fmt::format("import: one model at a time, found '{}' after '{}'", a, model.string()));
      model = a;
      continue;
    }
    const std::size_t eq = a.find('=');
    const std::string key = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (std::find(known.begin(), known.end(), "--" + key) == known.end())
      throw unknown_option("import", a, known);
    std::string value;
    if (eq != std::string::npos) {
      value = a.substr(eq + 1);
    } else {
      if (i + 1 >= rest.size())
        throw Error(fmt::format("import: --{} needs a value (see substruct import --help)", key));
      value = rest[++i];
    }
    given.push_back({"import." + key, value, "command line"});
  }
  if (model.empty()) throw Error("import: which model? substruct import MODEL --out DIR");
  const Config config = Config::from_settings(
      given, fs::current_path(), PluginHost(global.plugin_paths), {&import_options().table()});
  settings = import_options().read(config);
  if (settings.out.empty()) throw Error("import: where to? --out DIR (the scene folder)");
  return true;
}

std::string scene_text(const std::string& name, const fs::path& model, const std::string& how,
                       bool fixed) {
  std::string s = fmt::format(
      "# Imported from {} by substruct import: {}.\n"
      "#   substruct run {}.ini\n\n"
      "[scene]\nmesh = {}.veg\nrender_mesh = {}.obj\n",
      model.string(), how, name, name, name);
  if (fixed) s += fmt::format("fixed = {}.bou\n", name);
  s += "domains = single\n\n[coupling]\nplugin = full\n\n"
       "[run]\ndt = 0.01\nsteps = 100\n";
  s += fmt::format("output = out/{}.pvd\nloads = gravity\n\n[gravity]\nacceleration = 0 -9.81 0\n",
                   name);
  return s;
}

}  // namespace

int command_import(const Args& args) {
  GlobalOptions global;
  fs::path model;
  ImportSettings o;
  if (!parse(args, global, model, o)) return 0;
  const auto start = Clock::now();
  const std::string name = o.name.empty() ? model.stem().string() : o.name;
  if (o.as == "plant") {
    import_plant(model, name, o);
    return 0;
  }

  auto lap = Clock::now();
  const TriangleModel read = read_triangle_model(model);
  const SurfaceMesh& surface = read.surface;
  std::printf("model      %s: %ld vertices, %ld triangles in %zu meshes (%.3f s)\n", model.c_str(),
              static_cast<long>(surface.vertices.rows()),
              static_cast<long>(surface.triangles.rows()), read.mesh_names.size(),
              seconds_since(lap));

  TetMesh mesh;
  std::string how;
  lap = Clock::now();
  if (o.as == "solid") {
    const std::string defect = first_surface_defect(surface);
    if (!defect.empty())
      throw Error(fmt::format(
          "import: '{}' does not bound a solid: {}; --as voxels fills its inside on a grid of "
          "cubes instead",
          model.string(), defect));
    std::printf(
        "surface    closed, manifold, consistently oriented, not crossing itself (%.3f s)\n",
        seconds_since(lap));
    lap = Clock::now();
    mesh = tetrahedralize_surface(surface, {o.size});
    const TetQuality q = tet_quality(mesh);
    how = fmt::format(
        "Gmsh tets inside the closed surface ({} tets, smallest dihedral angle "
        "{:.1f}°, largest radius–edge ratio {:.2f})",
        mesh.num_elements(), q.min_dihedral_degrees, q.max_radius_edge);
    std::printf(
        "tets       %d vertices, %d tets by Gmsh (%.3f s); smallest dihedral angle %.1f°, "
        "largest radius-edge ratio %.2f\n",
        mesh.num_vertices(), mesh.num_elements(), seconds_since(lap), q.min_dihedral_degrees,
        q.max_radius_edge);
  } else {
    VoxelMeshReport r;
    mesh = voxelize_surface(surface, o.cells, &r);
    how = fmt::format("{} cubes of {:.4g} inside the surface on a {}×{}×{} grid, 6 tets each",
                      r.kept_cells, r.cell, r.dims[0], r.dims[1], r.dims[2]);
    std::printf(
        "voxels     grid %d×%d×%d of cubes %.4g: %d inside, %d kept (the largest "
        "face-connected piece)\n",
        r.dims[0], r.dims[1], r.dims[2], r.cell, r.inside_cells, r.kept_cells);
    std::printf("tets       %d vertices, %d tets (%.3f s)\n", mesh.num_vertices(),
                mesh.num_elements(), seconds_since(lap));
  }

  std::vector<Index> fixed;
  if (o.fix.empty()) {
    log::warn("import: no --fix selector: the scene has no fixed vertices (it falls freely)");
  } else {
    fixed = select_vertices(mesh.vertices, o.fix);
    if (fixed.empty() || static_cast<Index>(fixed.size()) == mesh.num_vertices()) {
      const Eigen::RowVector3d lo = mesh.vertices.colwise().minCoeff();
      const Eigen::RowVector3d hi = mesh.vertices.colwise().maxCoeff();
      throw Error(fmt::format(
          "import: --fix '{}' fixes {} of the mesh's {} vertices; the mesh spans x [{:.4g}, "
          "{:.4g}], y [{:.4g}, {:.4g}], z [{:.4g}, {:.4g}]",
          o.fix, fixed.empty() ? "none" : "all", mesh.num_vertices(), lo(0), hi(0), lo(1), hi(1),
          lo(2), hi(2)));
    }
    std::printf("fixed      %zu vertices: %s\n", fixed.size(), o.fix.c_str());
  }

  // The scene file last, so that a folder without it is not mistaken for a finished import.
  fs::create_directories(o.out);
  write_veg(o.out / (name + ".veg"), mesh);
  if (!fixed.empty()) {
    std::string bou;
    for (const Index v : fixed) bou += fmt::format("{}\n", v + 1);
    write_file_atomically(o.out / (name + ".bou"), bou);
  }
  write_obj(o.out / (name + ".obj"), surface);
  write_file_atomically(o.out / (name + ".ini"),
                        scene_text(name, fs::absolute(model), how, !fixed.empty()));
  std::printf("wrote      %s: %s.ini, %s.veg,%s %s.obj (%.3f s in all)\n", o.out.c_str(),
              name.c_str(), name.c_str(),
              fixed.empty() ? "" : fmt::format(" {}.bou,", name).c_str(), name.c_str(),
              seconds_since(start));
  std::printf("run it     substruct run %s\n", (o.out / (name + ".ini")).c_str());
  return 0;
}

namespace {
const OptionTable& import_option_table() {
  return import_options().table();
}
const bool import_options_registered = register_command_options({"import", import_option_table});
}  // namespace

SUBSTRUCT_COMMAND("import", "MODEL --out DIR [--as solid|voxels|plant] [--fix SELECTOR] …",
                  "a scene folder (tets, fixed vertices, render surface, .ini) from a triangle "
                  "model",
                  command_import);

}  // namespace substruct::cli
