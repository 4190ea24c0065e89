#pragma once
/// The validated configuration of a run: an INI scene file read with Boost.Program_options,
/// command-line overrides, and the option descriptions of the framework and selected plugins.
#include <filesystem>
#include <string>
#include <vector>

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

#include "substruct/core/types.hpp"

namespace substruct {

class PluginHost;

/// One "section.key = value" setting as written by the user (scene file or command line).
struct Setting {
  std::string key;  // "section.key"
  std::string value;
  std::string origin;  // "scene.ini:12" or "command line"
};

class Config {
 public:
  /// Reads `scene_file` and applies `overrides` ("section.key=value", a leading "--" allowed;
  /// later ones win), then validates every key against the framework's options and the
  /// options of the plugins the settings select (and of any other installed plugin whose
  /// section appears). An unknown key throws Error naming where it was set and the nearest
  /// known key; a bad value throws Error naming the key.
  static Config load(const std::filesystem::path& scene_file,
                     const std::vector<std::string>& overrides, const PluginHost& host);

  /// Same, from settings already gathered (used by tests and generators).
  static Config from_settings(const std::vector<Setting>& settings,
                              const std::filesystem::path& base_dir, const PluginHost& host);

  /// The framework's own sections: [scene] [material] [coupling] [solvers] [reduction] [run].
  static boost::program_options::options_description framework_options();

  bool has(const std::string& key) const;  // set by the user or with a default
  bool set_by_user(const std::string& key) const;
  template <class T>
  T get(const std::string& key) const {
    return values_.at(key).as<T>();
  }
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
  const boost::program_options::variables_map& values() const { return values_; }

 private:
  std::filesystem::path scene_file_;
  std::filesystem::path base_dir_;
  std::vector<Setting> settings_;
  boost::program_options::variables_map values_;
};

/// The known key closest to `key` (Levenshtein distance), for "did you mean" messages.
std::string nearest_key(const std::string& key, const std::vector<std::string>& known);

}  // namespace substruct
