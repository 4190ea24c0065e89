#include "substruct/config/config.hpp"
#include "substruct/core/parse_number.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <boost/program_options/parsers.hpp>

#include "substruct/core/error.hpp"
#include "substruct/plugin/plugin_host.hpp"
#include "substruct/solvers/solver_provider.hpp"

namespace substruct {

namespace fs = std::filesystem;
namespace po = boost::program_options;

po::options_description Config::framework_options() {
  po::options_description scene("[scene] what is simulated");
  scene.add_options()("scene.mesh", po::value<std::string>(),
                      "tet mesh: .veg, .node/.ele (TetGen) or .msh (Gmsh)")(
      "scene.render_mesh", po::value<std::string>()->default_value(""),
      "surface mesh (.obj) embedded in the tets for rendering")(
      "scene.fixed", po::value<std::string>()->default_value(""),
      "fixed vertices: a .bou file (1-based indices)")(
      "scene.fixed_set", po::value<std::string>()->default_value(""),
      "fixed vertices: a named vertex set of the mesh")(
      "scene.domains", po::value<std::string>()->default_value("single"),
      "domains: single | auto:N (METIS) | sets | sets:a,b,… (element sets) | FILE (an id per "
      "element)")(
      "scene.root", po::value<std::string>()->default_value("auto"),
      "root domain id, or auto (the domain with most fixed vertices, else a graph centre)")(
      "scene.resolve_loops", po::value<std::string>()->default_value("error"),
      "a domain graph with loops: error | spanning-tree (drop edges, reported)")(
      "scene.tracked_vertices", po::value<std::string>()->default_value(""),
      "0-based vertices whose positions are written to CSV and compared between methods");
  po::options_description material("[material] constitutive model (overrides the mesh's)");
  material.add_options()("material.model", po::value<std::string>()->default_value("stvk"),
                         "stvk | linear | corotational")(
      "material.youngs_modulus", po::value<double>(), "E [Pa] for every element")(
      "material.poisson_ratio", po::value<double>(), "ν for every element")(
      "material.density", po::value<double>(), "ρ [kg/m³] for every element")(
      "material.rayleigh_mass", po::value<double>()->default_value(0.0),
      "Rayleigh damping α in D = αM + βK [1/s]")("material.rayleigh_stiffness",
                                                 po::value<double>()->default_value(0.0),
                                                 "Rayleigh damping β in D = αM + βK [s]");
  po::options_description coupling("[coupling] the method");
  coupling.add_options()("coupling.plugin", po::value<std::string>()->default_value("full"),
                         "coupling plugin (substruct plugins lists them)");
  po::options_description solvers("[solvers] numerical engines the method uses");
  solvers.add_options()("solvers.linear", po::value<std::string>()->default_value("cholmod"),
                        "linear-solver plugin for the sparse FEM systems (full method, bases)")(
      "solvers.coupled", po::value<std::string>()->default_value("block-cholesky"),
      "linear-solver plugin for the per-step systems of domain blocks coupled along the domain "
      "graph (coupling-elements): block-cholesky | cholmod")(
      "solvers.eigen", po::value<std::string>()->default_value("slepc"), "eigen-solver plugin")(
      "solvers.geometry", po::value<std::string>()->default_value("cpu"),
      "geometry plugin: NAME or geometry-NAME (world positions of reduced methods, render mesh)");
  po::options_description run("[run] time stepping and output");
  run.add_options()("run.dt", po::value<double>()->default_value(0.01), "time step [s]")(
      "run.steps", po::value<long>()->default_value(100), "number of steps")(
      "run.output", po::value<std::string>()->default_value(""),
      "output series (.pvd), relative to the working directory; default out/<scene>.pvd")(
      "run.output_every", po::value<long>()->default_value(1), "write every k-th step")(
      "run.loads", po::value<std::string>()->default_value(""), "load plugins, e.g. gravity pull")(
      "run.exporters", po::value<std::string>()->default_value("vtk"),
      "exporter plugins, e.g. vtk csv (empty: write nothing)")(
      "run.cache_dir", po::value<std::string>()->default_value(""),
      "folder for precomputed models; default .substruct-cache beside the scene")(
      "run.max_displacement", po::value<double>()->default_value(100.0),
      "divergence guard: stop when a vertex moves more than this many object sizes")(
      "run.initial_displacement", po::value<std::string>()->default_value(""),
      "initial displacement: empty (rest) | mode K AMPLITUDE (the K-th lowest vibration mode of "
      "the whole mesh with its fixed vertices, scaled so that the largest vertex displacement is "
      "AMPLITUDE [m])")(
      "run.initial_velocity", po::value<std::string>()->default_value(""),
      "initial velocity: empty (rest) | mode K AMPLITUDE (the K-th lowest vibration mode of the "
      "whole mesh with its fixed vertices, scaled so that the largest vertex speed is AMPLITUDE "
      "[m/s])");
  po::options_description reduction("[reduction] reduced model of each domain");
  reduction.add_options()("reduction.modes", po::value<int>()->default_value(20),
                          "basis size r of each deformable domain (mode_count = fixed); 0 makes "
                          "every domain rigid")(
      "reduction.linear_modes", po::value<int>()->default_value(10),
      "linear modes k (lowest eigenpairs of K x = λ M x under the domain's boundary condition)")(
      "reduction.modal_derivatives", po::value<bool>()->default_value(true, "true"),
      "add the k(k+1)/2 modal derivatives to the linear modes before the mass-PCA down to r")(
      "reduction.mode_count", po::value<std::string>()->default_value("fixed"),
      "fixed (every domain gets modes) | adaptive (r = max(5, ⌊r_max log e / log e_max⌋) for "
      "a domain of e elements, e_max of the largest domain)")(
      "reduction.r_max", po::value<int>()->default_value(20),
      "mode_count = adaptive: the basis size of the largest domain")(
      "reduction.force_model", po::value<std::string>()->default_value("polynomial"),
      "reduced internal forces: polynomial (exact cubic polynomials of reduced StVK) | cubature "
      "(weighted elements trained on random poses, any material)")(
      "reduction.cubature_elements", po::value<int>()->default_value(200),
      "force_model = cubature: the most elements the cubature may use")(
      "reduction.cubature_poses", po::value<int>()->default_value(100),
      "force_model = cubature: training poses (deformations under random forces)")(
      "reduction.cubature_tolerance", po::value<double>()->default_value(0.01, "0.01"),
      "force_model = cubature: relative training error at which element selection stops")(
      "reduction.cubature_seed", po::value<unsigned long>()->default_value(1),
      "force_model = cubature: seed of the random training forces")(
      "reduction.boundary", po::value<std::string>()->default_value("parent-interface"),
      "vertices fixed while a domain's basis is computed: parent-interface (the interface to "
      "the parent domain plus the scene's fixed vertices) | free (free-flying, rigid modes "
      "removed) | fixed-vertices (only the scene's fixed vertices)")(
      "reduction.cache", po::value<bool>()->default_value(true, "true"),
      "keep reduced models in the folder [run] cache_dir; reuse those whose inputs are "
      "unchanged")(
      "reduction.instancing", po::value<bool>()->default_value(true, "true"),
      "domains equal up to rotation, translation and uniform scale share one reduced model");
  po::options_description all("substruct scene options");
  all.add(scene).add(material).add(coupling).add(solvers).add(reduction).add(run);
  return all;
}

namespace {

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(" \t\r");
  return s.substr(begin, end - begin + 1);
}

/// Reads "section.key = value" settings, in file order, with their line numbers. The syntax is
/// Boost.Program_options' config-file syntax ([section], key = value, '#' comments).
std::vector<Setting> read_ini(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw Error(fmt::format("cannot open scene file {}", file.string()));
  std::vector<Setting> settings;
  std::string section;
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    line = trim(line);
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (line.back() != ']')
        throw ParseError(file, number, fmt::format("expected '[section]', found '{}'", line));
      section = trim(line.substr(1, line.size() - 2));
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string::npos)
      throw ParseError(file, number, fmt::format("expected 'key = value', found '{}'", line));
    const std::string key = trim(line.substr(0, eq));
    if (key.empty()) throw ParseError(file, number, "expected a key before '='");
    if (section.empty())
      throw ParseError(file, number,
                       fmt::format("expected a [section] before '{}' (e.g. [scene])", key));
    settings.push_back({section + "." + key, trim(line.substr(eq + 1)),
                        fmt::format("{}:{}", file.string(), number)});
  }
  return settings;
}

Setting parse_override(const std::string& text) {
  std::string s = text;
  if (s.starts_with("--")) s = s.substr(2);
  const auto eq = s.find('=');
  if (eq == std::string::npos || s.find('.') > eq)
    throw Error(fmt::format("command-line setting '{}': expected --section.key=value", text));
  return {trim(s.substr(0, eq)), trim(s.substr(eq + 1)), "command line"};
}

std::size_t levenshtein(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1u : 0u)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string value_of(const std::vector<Setting>& settings, const std::string& key,
                     const std::string& fallback) {
  std::string value = fallback;
  for (const Setting& s : settings)
    if (s.key == key) value = s.value;
  return value;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (char c : text + ",") {
    if (c == ',' || c == ' ' || c == '\t') {
      if (!item.empty()) items.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  return items;
}

}  // namespace

std::string nearest_key(const std::string& key, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_distance = std::string::npos;
  for (const std::string& candidate : known) {
    const std::size_t d = levenshtein(key, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

Config Config::load(const fs::path& scene_file, const std::vector<std::string>& overrides,
                    const PluginHost& host) {
  std::vector<Setting> settings = read_ini(scene_file);
  for (const std::string& text : overrides) settings.push_back(parse_override(text));
  Config config = from_settings(settings, fs::absolute(scene_file).parent_path(), host);
  config.scene_file_ = fs::absolute(scene_file);
  return config;
}

Config Config::from_settings(const std::vector<Setting>& raw_settings, const fs::path& base_dir,
                             const PluginHost& host) {
  Config config;
  config.base_dir_ = base_dir;

  // Later settings win (command-line overrides come after the file's).
  std::vector<Setting> settings;
  for (const Setting& s : raw_settings) {
    auto same = std::find_if(settings.begin(), settings.end(),
                             [&](const Setting& t) { return t.key == s.key; });
    if (same != settings.end())
      *same = s;
    else
      settings.push_back(s);
  }
  config.settings_ = settings;

  // The selected plugins must exist and have the right kind.
  host.find(value_of(settings, "coupling.plugin", "full"), PluginKind::coupling);
  for (const auto& [key, kind] : {std::pair{"solvers.linear", PluginKind::linear_solver},
                                  std::pair{"solvers.coupled", PluginKind::linear_solver},
                                  std::pair{"solvers.eigen", PluginKind::eigen_solver}}) {
    const std::string name = value_of(settings, key, "");
    if (!name.empty()) host.find(name, kind);
  }
  // A geometry plugin may be named without its "geometry-" prefix ([solvers] geometry = cpu).
  if (const std::string name = value_of(settings, "solvers.geometry", ""); !name.empty())
    geometry_plugin_name(host, name);
  for (const std::string& name : split_list(value_of(settings, "run.loads", "")))
    host.find(name, PluginKind::load);
  for (const std::string& name : split_list(value_of(settings, "run.exporters", "")))
    host.find(name, PluginKind::exporter);

  // Every key must be known to the framework or to an installed plugin's section.
  po::options_description all = framework_options();
  for (const PluginInfo& info : host.plugins())
    if (info.descriptor != nullptr) all.add(info.descriptor->options());
  std::vector<std::string> known;
  for (const auto& option : all.options()) known.push_back(option->long_name());

  po::parsed_options parsed(&all);
  for (const Setting& s : settings) {
    if (std::find(known.begin(), known.end(), s.key) == known.end()) {
      const std::string section = s.key.substr(0, s.key.find('.'));
      const bool section_known = std::any_of(known.begin(), known.end(), [&](const std::string& k) {
        return k.starts_with(section + ".");
      });
      throw Error(fmt::format("{}: unknown key '{}'{}; did you mean '{}'?", s.origin, s.key,
                              section_known ? ""
                                            : fmt::format(" (no plugin or framework section "
                                                          "'[{}]')",
                                                          section),
                              nearest_key(s.key, known)));
    }
    po::option option;
    option.string_key = s.key;
    option.value = {s.value};
    option.original_tokens = {s.key, s.value};
    parsed.options.push_back(option);
  }
  try {
    po::store(parsed, config.values_);
    po::notify(config.values_);
  } catch (const po::error& e) {
    // Boost names the key; add where it was set.
    std::string where;
    for (const Setting& s : settings)
      if (std::string(e.what()).find(s.key) != std::string::npos) where = s.origin + ": ";
    throw Error(fmt::format("{}{}", where, e.what()));
  }
  return config;
}

bool Config::has(const std::string& key) const {
  return values_.count(key) > 0;
}

bool Config::set_by_user(const std::string& key) const {
  return has(key) && !values_[key].defaulted();
}

fs::path Config::path(const std::string& key) const {
  const fs::path p = get<std::string>(key);
  if (p.empty() || p.is_absolute()) return p;
  return (base_dir_ / p).lexically_normal();
}

Vec3 Config::vec3(const std::string& key) const {
  const std::vector<std::string> items = list(key);
  Vec3 v;
  bool ok = items.size() == 3;
  for (std::size_t i = 0; ok && i < 3; ++i) {
    std::istringstream in(items[i]);
    ok = static_cast<bool>(in >> v[static_cast<Eigen::Index>(i)]) && in.eof();
  }
  if (!ok)
    throw Error(
        fmt::format("{}: expected three numbers 'x y z', found '{}'", key, get<std::string>(key)));
  return v;
}

std::vector<std::string> Config::list(const std::string& key) const {
  return split_list(get<std::string>(key));
}

std::vector<Index> Config::indices(const std::string& key) const {
  std::vector<Index> result;
  for (const std::string& item : list(key)) {
    const std::optional<long> value = parse_integer(item);
    if (!value || *value < 0)
      throw Error(fmt::format("{}: expected non-negative vertex indices, found '{}'", key, item));
    result.push_back(static_cast<Index>(*value));
  }
  return result;
}

}  // namespace substruct
