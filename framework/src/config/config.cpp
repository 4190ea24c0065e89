// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/config/config.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include <sstream>

#include <fmt/format.h>
#include <boost/program_options/parsers.hpp>

#include "substruct/config/framework_sections.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/input_file.hpp"
#include "substruct/core/trim.hpp"
#include "substruct/options/detail/option_value.hpp"
#include "substruct/options/option_table.hpp"
#include "substruct/plugin/eigen_plugin_name.hpp"
#include "substruct/plugin/geometry_plugin_name.hpp"
#include "substruct/plugin/plugin_host.hpp"

namespace substruct {

namespace fs = std::filesystem;
namespace po = boost::program_options;

namespace {

/// Reads "section.key = value" settings, in file order, with their line numbers. The syntax is
/// Boost.Program_options' config-file syntax ([section], key = value, '#' comments).
std::vector<Setting> read_ini(const fs::path& file) {
  std::istringstream in(read_input_file(file, "scene file"));
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
    // A key set twice in one file is a mistake (which one was meant?), not a silent override.
    const std::string full = section + "." + key;
    const auto earlier = std::find_if(settings.begin(), settings.end(),
                                      [&](const Setting& s) { return s.key == full; });
    if (earlier != settings.end())
      throw ParseError(file, number,
                       fmt::format("[{}] {} is set a second time (first at {}); keep one", section,
                                   key, earlier->origin));
    settings.push_back(
        {full, trim(line.substr(eq + 1)), fmt::format("{}:{}", file.string(), number)});
  }
  return settings;
}

Setting parse_override(const std::string& text, const std::string& origin) {
  std::string s = text;
  if (s.starts_with("--")) s = s.substr(2);
  const auto eq = s.find('=');
  if (eq == std::string::npos || s.find('.') > eq)
    throw Error(fmt::format("{} setting '{}': expected --section.key=value", origin, text));
  return {trim(s.substr(0, eq)), trim(s.substr(eq + 1)), origin};
}

}  // namespace

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
                    const PluginHost& host, const std::string& origin) {
  std::vector<Setting> settings = read_ini(scene_file);
  for (const std::string& text : overrides) settings.push_back(parse_override(text, origin));
  Config config = from_settings(settings, fs::absolute(scene_file).parent_path(), host);
  config.scene_file_ = fs::absolute(scene_file);
  return config;
}

Config Config::from_settings(const std::vector<Setting>& raw_settings, const fs::path& base_dir,
                             const PluginHost& host,
                             const std::vector<const OptionTable*>& extra_sections) {
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

  // The known options: the framework's sections, the extra ones and those of every installed
  // plugin.
  std::vector<const OptionTable*> tables = framework_sections();
  tables.insert(tables.end(), extra_sections.begin(), extra_sections.end());
  for (const PluginInfo& info : host.plugins())
    if (info.descriptor != nullptr) tables.push_back(&info.descriptor->options());
  po::options_description all("substruct scene options");
  std::map<std::string, std::pair<const OptionTable*, const OptionInfo*>> known;
  for (const OptionTable* table : tables) {
    all.add(table->description());
    for (const OptionInfo& option : table->options)
      known.emplace(fmt::format("{}.{}", table->section, option.key), std::pair{table, &option});
  }

  // The selected plugins must exist and have the right kind.
  auto value = [&](const std::string& key) {
    for (auto s = settings.rbegin(); s != settings.rend(); ++s)
      if (s->key == key) return s->value;
    return known.at(key).second->default_text;
  };
  host.find(value("coupling.plugin"), PluginKind::coupling);
  for (const auto& [key, kind] : {std::pair{"solvers.linear", PluginKind::linear_solver},
                                  std::pair{"solvers.coupled", PluginKind::linear_solver},
                                  std::pair{"solvers.eigen", PluginKind::eigen_solver}}) {
    const std::string name =
        kind == PluginKind::eigen_solver ? eigen_plugin_name(&host, value(key)) : value(key);
    if (!name.empty()) host.find(name, kind);
  }
  // A geometry plugin may be named without its "geometry-" prefix ([solvers] geometry = cpu).
  if (const std::string name = value("solvers.geometry"); !name.empty())
    geometry_plugin_name(host, name);
  for (const std::string& name : detail::split_items(value("run.loads")))
    host.find(name, PluginKind::load);
  for (const std::string& name : detail::split_items(value("run.exporters")))
    host.find(name, PluginKind::exporter);

  // Every key must be known, and its value one its option accepts (stored in its canonical
  // spelling).
  std::vector<std::string> known_keys;
  for (const auto& [key, option] : known) known_keys.push_back(key);
  po::parsed_options parsed(&all);
  for (const Setting& s : settings) {
    const auto it = known.find(s.key);
    if (it == known.end()) {
      const std::string section = s.key.substr(0, s.key.find('.'));
      const bool section_known = std::any_of(tables.begin(), tables.end(),
                                             [&](const auto* t) { return t->section == section; });
      throw Error(fmt::format("{}: unknown key '{}'{}; did you mean '{}'?", s.origin, s.key,
                              section_known ? ""
                                            : fmt::format(" (no plugin or framework section "
                                                          "'[{}]')",
                                                          section),
                              nearest_key(s.key, known_keys)));
    }
    const auto& [table, option] = it->second;
    const std::optional<std::string> canonical = canonical_value(*option, s.value);
    if (!canonical)
      throw Error(option_message(s.origin, table->section, option->key, s.value,
                                 refusal(*option, s.value)));
    po::option stored;
    stored.string_key = s.key;
    stored.value = {*canonical};
    stored.original_tokens = {s.key, s.value};
    parsed.options.push_back(stored);
  }
  po::store(parsed, config.values_);
  po::notify(config.values_);
  return config;
}

bool Config::has(const std::string& key) const {
  return values_.count(key) > 0;
}

bool Config::set_by_user(const std::string& key) const {
  return has(key) && !values_[key].defaulted();
}

const std::string& Config::text(const std::string& key) const {
  if (!has(key)) {
    const auto dot = key.find('.');
    throw Error(fmt::format("[{}] {} is not set (and has no default)", key.substr(0, dot),
                            key.substr(dot + 1)));
  }
  return values_[key].as<std::string>();
}

std::string Config::origin(const std::string& key) const {
  for (auto s = settings_.rbegin(); s != settings_.rend(); ++s)
    if (s->key == key) return s->origin;
  return "default";
}

Error Config::value_error(const std::string& key, std::string_view what) const {
  const auto dot = key.find('.');
  return Error(option_message(origin(key), key.substr(0, dot),
                              dot == std::string::npos ? key : key.substr(dot + 1),
                              has(key) ? text(key) : "", what));
}

namespace {

/// `key`'s text read as an option of `type` (and of the integer type's limits).
detail::OptionValue parse_as(const Config& config, const std::string& key, OptionType type,
                             long lowest = std::numeric_limits<long>::min(),
                             long highest = std::numeric_limits<long>::max()) {
  OptionInfo option;
  option.type = type;
  option.range = any_value.or_infinite();
  option.lowest_integer = lowest;
  option.highest_integer = highest;
  const std::optional<detail::OptionValue> value =
      detail::parse_option_value(option, config.text(key));
  if (!value) throw config.value_error(key, refusal(option, config.text(key)));
  return *value;
}

}  // namespace

void Config::read_as(const std::string& key, std::string& value) const {
  value = text(key);
}
void Config::read_as(const std::string& key, bool& value) const {
  value = parse_as(*this, key, OptionType::flag).flag;
}
void Config::read_as(const std::string& key, int& value) const {
  value =
      static_cast<int>(parse_as(*this, key, OptionType::integer, std::numeric_limits<int>::min(),
                                std::numeric_limits<int>::max())
                           .integer);
}
void Config::read_as(const std::string& key, long& value) const {
  value = parse_as(*this, key, OptionType::integer).integer;
}
void Config::read_as(const std::string& key, unsigned long& value) const {
  value = static_cast<unsigned long>(parse_as(*this, key, OptionType::integer, 0).integer);
}
void Config::read_as(const std::string& key, double& value) const {
  value = parse_as(*this, key, OptionType::number).number;
}

fs::path Config::resolve(const fs::path& p) const {
  if (p.empty() || p.is_absolute()) return p;
  return (base_dir_ / p).lexically_normal();
}

fs::path Config::path(const std::string& key) const {
  return resolve(text(key));
}

Vec3 Config::vec3(const std::string& key) const {
  return parse_as(*this, key, OptionType::vec3).vec3;
}

std::vector<std::string> Config::list(const std::string& key) const {
  return detail::split_items(text(key));
}

std::vector<Index> Config::indices(const std::string& key) const {
  return parse_as(*this, key, OptionType::indices).indices;
}

}  // namespace substruct
