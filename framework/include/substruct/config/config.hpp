// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The validated configuration of a run: an INI scene file read with Boost.Program_options and
/// command-line overrides, checked against the option tables of the framework's sections and of
/// the installed plugins (option_table.hpp).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

#include "substruct/core/error.hpp"
#include "substruct/core/types.hpp"
#include "substruct/options/option_source.hpp"

namespace substruct {

class PluginHost;
struct OptionTable;

/// One "section.key = value" setting as written by the user (scene file or command line).
struct Setting {
  std::string key;  // "section.key"
  std::string value;
  std::string origin;  // "scene.ini:12" or "command line"
};

class Config : public OptionSource {
 public:
  /// Reads `scene_file` and applies `overrides` ("section.key=value", a leading "--" allowed;
  /// later ones win), then validates every setting against the framework's sections
  /// (framework_sections.hpp) and the sections of the installed plugins: the plugins the
  /// settings select must exist, an unknown key throws Error naming where it was set and the
  /// nearest known key, and a value its option refuses throws Error in the one format
  /// "ORIGIN: [SECTION] KEY = 'VALUE': expected …". The overrides' ORIGIN is `origin` ("command
  /// line", or "Python" for the Python package's).
  static Config load(const std::filesystem::path& scene_file,
                     const std::vector<std::string>& overrides, const PluginHost& host,
                     const std::string& origin = "command line");

  /// Same, from settings already gathered (used by tests and generators); `extra_sections` are
  /// known besides the framework's and the plugins' (a program's own sections).
  static Config from_settings(const std::vector<Setting>& settings,
                              const std::filesystem::path& base_dir, const PluginHost& host,
                              const std::vector<const OptionTable*>& extra_sections = {});

  bool has(const std::string& key) const override;  // set by the user or with a default
  bool set_by_user(const std::string& key) const;
  /// The value of "section.key" as text (set by the user, in its option's canonical spelling,
  /// or its default). Throws Error when it has neither.
  const std::string& text(const std::string& key) const override;
  /// Where the value of `key` was set: "scene.ini:12", "command line", or "default".
  std::string origin(const std::string& key) const override;
  /// The error for a value of `key` that a check across keys or against the scene refuses, in
  /// the one format: "ORIGIN: [SECTION] KEY = 'VALUE': WHAT".
  Error value_error(const std::string& key, std::string_view what) const;

  /// One value read as T (std::string, bool, int, long, unsigned long or double). A component
  /// reads its own section whole, through its OptionSet (options.hpp).
  template <class T>
  T get(const std::string& key) const {
    T value{};
    read_as(key, value);
    return value;
  }
  /// `p` taken relative to the scene file's folder (absolute and empty paths are kept).
  std::filesystem::path resolve(const std::filesystem::path& p) const override;
  /// A path value, resolved relative to the scene file's folder.
  std::filesystem::path path(const std::string& key) const;
  /// "x y z" or "x, y, z".
  Vec3 vec3(const std::string& key) const;
  /// Items separated by commas and/or spaces.
  std::vector<std::string> list(const std::string& key) const;
  std::vector<Index> indices(const std::string& key) const;

  const std::filesystem::path& scene_file() const { return scene_file_; }
  const std::filesystem::path& base_dir() const { return base_dir_; }
  const std::vector<Setting>& settings() const { return settings_; }
  /// Every key with a value, as text (std::string values), sorted by key.
  const boost::program_options::variables_map& values() const { return values_; }

 private:
  void read_as(const std::string& key, std::string& value) const;
  void read_as(const std::string& key, bool& value) const;
  void read_as(const std::string& key, int& value) const;
  void read_as(const std::string& key, long& value) const;
  void read_as(const std::string& key, unsigned long& value) const;
  void read_as(const std::string& key, double& value) const;

  std::filesystem::path scene_file_;
  std::filesystem::path base_dir_;
  std::vector<Setting> settings_;
  boost::program_options::variables_map values_;
};

/// The number of single-character insertions, deletions and substitutions between a and b
/// (Levenshtein distance).
std::size_t levenshtein(const std::string& a, const std::string& b);

/// The known key closest to `key` (Levenshtein distance), for "did you mean" messages.
std::string nearest_key(const std::string& key, const std::vector<std::string>& known);

}  // namespace substruct
