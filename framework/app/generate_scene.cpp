// SPDX-License-Identifier: GPL-3.0-or-later
// What the shapes of `substruct generate` share: the walk over their arguments, and the files
// of a generated scene (mesh .veg, fixed vertices .bou, scene .ini).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "generators.hpp"
#include "substruct/core/error.hpp"
#include "substruct/io/staged_file.hpp"
#include "substruct/mesh/mesh_io.hpp"
#include "substruct/options/option_docs.hpp"

namespace substruct::cli {

namespace {

namespace fs = std::filesystem;

/// Vega .bou: 1-based vertex indices, comma separated, 10 a line.
void write_bou(const fs::path& file, const std::vector<Index>& fixed) {
  std::string text;
  for (std::size_t i = 0; i < fixed.size(); ++i)
    text += fmt::format("{},{}", fixed[i] + 1, (i % 10 == 9 || i + 1 == fixed.size()) ? "\n" : "");
  write_file_atomically(file, text);
}

/// Options whose value may span several arguments: --cells 10 2 2.
bool takes_items(OptionType type) {
  return type == OptionType::list || type == OptionType::indices || type == OptionType::numbers ||
         type == OptionType::index_map;
}

void print_help(const Generator& shape) {
  const std::string about = shape.about;
  std::cout << fmt::format("usage: substruct generate {} {}\n", shape.name, shape.usage);
  std::string text;  // the about text, wrapped at 90 characters, indented by 2
  std::size_t width = 0;
  for (std::size_t start = 0; start < about.size();) {
    std::size_t end = about.find(' ', start);
    if (end == std::string::npos) end = about.size();
    if (width > 0 && width + 1 + (end - start) > 90) {
      text.push_back('\n');
      width = 0;
    }
    text.append(width == 0 ? 2 : 1, ' ');
    text.append(about, start, end - start);
    width += end - start + 1;
    start = end + 1;
  }
  std::cout << text << "\n\n"
            << command_options_text(shape.options()) << "  -h, --help\n      print this help\n";
}

}  // namespace

bool parse_generator_arguments(
    const Generator& shape, const Args& args,
    const std::function<std::string(const std::string&, const std::string&)>& assign) {
  const OptionTable& table = shape.options();
  const std::string command = fmt::format("generate {}", shape.name);
  std::vector<std::string> known;
  for (const OptionInfo& option : table.options) known.push_back("--" + option.key);
  bool out = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      print_help(shape);
      return false;
    }
    if (!a.starts_with("--"))
      throw Error(
          fmt::format("{}: unexpected argument '{}' (options are --name VALUE; see "
                      "substruct {} --help)",
                      command, a, command));
    const std::size_t equals = a.find('=');
    const std::string key = a.substr(2, equals == std::string::npos ? equals : equals - 2);
    const OptionInfo* option = table.find(key);
    if (option == nullptr) throw unknown_option("generate", a, known);
    std::string value;
    if (equals != std::string::npos) {
      value = a.substr(equals + 1);
    } else if (option->type == OptionType::flag) {
      value = "true";
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      throw Error(
          fmt::format("{}: --{} needs a value (see substruct {} --help)", command, key, command));
    }
    if (takes_items(option->type))
      while (i + 1 < args.size() && !args[i + 1].starts_with("--") && args[i + 1] != "-h")
        value += " " + args[++i];
    if (const std::string why = assign(key, value); !why.empty())
      throw Error(fmt::format("{}: --{} '{}': {}", command, key, value, why));
    out = out || key == "out";
  }
  if (!out)
    throw Error(fmt::format("{}: where to? --out DIR is required (see substruct {} --help)",
                            command, command));
  return true;
}

std::string made_by(const char* shape, const Args& args) {
  std::string text = fmt::format("substruct generate {}", shape);
  for (const std::string& a : args) text += " " + a;
  return text;
}

std::string GeneratedDamping::lines(const std::string& comment) const {
  return fmt::format("rayleigh_mass = {}  # α [1/s]{}\nrayleigh_stiffness = {}  # β [s]\n",
                     rayleigh_mass, comment, rayleigh_stiffness);
}

std::string join(const std::vector<Index>& values) {
  std::string s;
  for (Index v : values) s += fmt::format("{}{}", s.empty() ? "" : " ", v);
  return s;
}

void write_scene(const GeneratedScene& s, const TetMesh& mesh, const std::vector<Index>& fixed,
                 const std::string& comment, const std::string& domains,
                 const std::vector<Index>& tracked, const std::string& tracked_comment,
                 const std::string& pull_section, const std::string& reduction_section,
                 const std::string& material_lines) {
  if (s.name.empty() || s.name.find('/') != std::string::npos)
    throw Error(fmt::format("generate: --name must be a file stem, found '{}'", s.name));
  const fs::path out = s.out;
  const fs::path mesh_dir = s.mesh_dir.empty() ? out : fs::path(s.mesh_dir);
  fs::create_directories(out);
  fs::create_directories(mesh_dir);
  const fs::path veg = mesh_dir / (s.name + ".veg");
  const fs::path bou = mesh_dir / (s.name + ".bou");
  const fs::path ini = out / (s.name + ".ini");

  write_veg(veg, mesh);
  std::printf("wrote %s: %d vertices, %d tets, %zu element sets\n", veg.string().c_str(),
              mesh.num_vertices(), mesh.num_elements(), mesh.element_sets.size());
  write_bou(bou, fixed);
  std::printf("wrote %s: %zu fixed vertices\n", bou.string().c_str(), fixed.size());

  const auto relative = [&](const fs::path& p) {
    return fs::absolute(p)
        .lexically_normal()
        .lexically_relative(fs::absolute(out).lexically_normal())
        .generic_string();
  };
  std::string text = comment;
  text += fmt::format(
      "[scene]\n"
      "mesh = {}\n"
      "fixed = {}\n"
      "domains = {}\n"
      "root = auto\n"
      "tracked_vertices = {}  # {}\n\n"
      "[material]\n"
      "model = stvk\n"
      "{}\n"
      "[coupling]\n"
      "plugin = {}\n\n"
      "{}"
      "[run]\n"
      "dt = {}\n"
      "steps = {}\n"
      "output = out/{}.pvd\n",
      relative(veg), relative(bou), domains, join(tracked), tracked_comment, material_lines,
      s.coupling, reduction_section, s.dt, s.steps, s.name);
  std::string loads;
  if (!s.gravity.empty()) loads += "gravity";
  if (!pull_section.empty()) loads += loads.empty() ? "pull" : " pull";
  text += fmt::format("loads = {}\nexporters = vtk csv\n", loads);
  if (!s.gravity.empty()) text += fmt::format("\n[gravity]\nacceleration = {}\n", s.gravity);
  text += pull_section;
  write_file_atomically(ini, text);
  std::printf("wrote %s: run it with  substruct run %s\n", ini.string().c_str(),
              ini.string().c_str());
}

Index tip_of(const TetMesh& mesh, const std::string& set) {
  std::set<Index> vertices;
  for (Index e : mesh.element_sets.at(set))
    for (int k = 0; k < 4; ++k) vertices.insert(mesh.tets(e, k));
  Index best = *vertices.begin();
  double best_distance = -1;
  for (Index v : vertices) {
    const double d = std::hypot(mesh.vertices(v, 0), mesh.vertices(v, 2));
    if (d > best_distance) {
      best_distance = d;
      best = v;
    }
  }
  return best;
}

std::string first_set(const TetMesh& mesh, const std::string& prefix) {
  for (const auto& [name, elements] : mesh.element_sets)
    if (name.starts_with(prefix)) return name;
  return {};
}

Index top_of_axis(const TetMesh& mesh) {
  Index top = -1;
  for (Index v = 0; v < mesh.num_vertices(); ++v)
    if (mesh.vertices(v, 0) == 0 && mesh.vertices(v, 2) == 0 &&
        (top < 0 || mesh.vertices(v, 1) > mesh.vertices(top, 1)))
      top = v;
  return top;
}

void read_cells(const std::vector<Index>& cells, int& nx, int& ny, int& nz, const char* shape) {
  if (cells.size() != 3)
    throw Error(fmt::format("generate {}: --cells expects three counts NX NY NZ, found {}", shape,
                            cells.size()));
  nx = cells[0];
  ny = cells[1];
  nz = cells[2];
}

}  // namespace substruct::cli
