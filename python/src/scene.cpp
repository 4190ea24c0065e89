// SPDX-License-Identifier: GPL-3.0-or-later
// substruct.Scene, substruct.plugins(), substruct.help(): scenes validated as the command line
// validates them, and the plugins' declared options as data.
#include <string>
#include <vector>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <fmt/format.h>

#include "bindings.hpp"
#include "substruct/config/framework_sections.hpp"
#include "substruct/options/option_docs.hpp"

namespace substruct::python {

namespace {

// The scene of the settings `read` validates; its errors (a malformed file aside) as ConfigError.
Scene validated(const std::function<Config(const PluginHost&)>& read) {
  auto host = plugin_host();
  try {
    return Scene{host, read(*host)};
  } catch (const ParseError&) {
    throw;
  } catch (const Error& e) {
    raise_config_error(e);
  }
}

Scene load_scene(const std::filesystem::path& file, const py::dict& overrides) {
  std::vector<std::string> args;
  for (const auto& [key, value] : overrides)
    args.push_back("--" + key.cast<std::string>() + "=" + scene_text(value));
  return validated(
      [&](const PluginHost& host) { return Config::load(file, args, host, "Python"); });
}

Scene scene_from_sections(const py::dict& sections, const std::filesystem::path& base_dir) {
  std::vector<Setting> settings;
  for (const auto& [section, keys] : sections) {
    if (!py::isinstance<py::dict>(keys))
      raise_config_error(Error(fmt::format(
          "Scene.from_sections: section '{}' must be a dict {{key: value}}, found {} {}",
          scene_text(section), py::str(py::type::of(keys).attr("__name__")).cast<std::string>(),
          py::repr(keys).cast<std::string>())));
    for (const auto& [key, value] : keys.cast<py::dict>())
      settings.push_back({section.cast<std::string>() + "." + key.cast<std::string>(),
                          scene_text(value), "Python"});
  }
  return validated(
      [&](const PluginHost& host) { return Config::from_settings(settings, base_dir, host); });
}

py::list options_as_data(const OptionTable& table) {
  py::list out;
  for (const OptionInfo& o : table.options) {
    py::dict d;
    d["name"] = o.key;
    d["section"] = table.section;
    d["type"] = type_summary(o);
    d["default"] = o.has_default ? py::object(py::str(o.default_text)) : py::object(py::none());
    d["unit"] = o.unit;
    d["help"] = o.help;
    d["choices"] = o.choices;
    out.append(d);
  }
  return out;
}

}  // namespace

std::string scene_text(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::sequence>(value)) {
    std::string text;
    for (const py::handle item : value.cast<py::sequence>())
      text += (text.empty() ? "" : " ") + scene_text(item);
    return text;
  }
  return py::str(value).cast<std::string>();
}

std::shared_ptr<const PluginHost> plugin_host() {
  static const auto host = std::make_shared<const PluginHost>();
  return host;
}

void bind_scene(py::module_& m) {
  py::class_<Scene>(m, "Scene", R"(A scene: its INI file's settings, validated.

Scene(path, overrides=None)
    Reads the scene file and applies overrides, a dict {"section.key": value} like the command
    line's --section.key=value (values: text, numbers, True/False, or sequences written with
    spaces). Raises ConfigError with the command line's message for an unknown key or plugin or
    a refused value, InputFileError for a malformed file.
Scene.from_sections(sections, base_dir=".")
    The same from a dict of sections, {"scene": {"mesh": "beam.veg"}, "coupling": {...}};
    paths are relative to base_dir.)")
      .def(py::init([](const std::filesystem::path& file, const py::object& overrides) {
             return load_scene(file, overrides.is_none() ? py::dict() : overrides.cast<py::dict>());
           }),
           py::arg("path"), py::arg("overrides") = py::none())
      .def_static("from_sections", &scene_from_sections, py::arg("sections"),
                  py::arg("base_dir") = std::filesystem::path("."),
                  "A scene from a dict of sections {section: {key: value}}.")
      .def(
          "get", [](const Scene& s, const std::string& key) { return s.config.text(key); },
          py::arg("key"), "The value of \"section.key\" as the scene would write it.")
      .def_property_readonly(
          "method", [](const Scene& s) { return s.config.text("coupling.plugin"); },
          "The coupling plugin the scene selects ([coupling] plugin).");

  m.def(
      "plugins",
      [] {
        py::list out;
        for (const PluginInfo& info : plugin_host()->plugins()) {
          if (info.descriptor == nullptr) continue;
          py::dict d;
          d["name"] = info.descriptor->name;
          d["kind"] = std::string(to_string(info.descriptor->kind));
          d["version"] = info.descriptor->version;
          d["summary"] = info.descriptor->summary;
          d["file"] = info.file.string();
          out.append(d);
        }
        return out;
      },
      "The plugins found, as dicts (name, kind, version, summary, file).");
  m.def(
      "help",
      [](const std::string& name) {
        for (const OptionTable* table : framework_sections())
          if (table->section == name) return options_as_data(*table);
        return options_as_data(plugin_host()->find(name).options());
      },
      py::arg("name"),
      "The options a plugin or a framework section declares, as dicts (name, section, type, "
      "default, unit, help, choices); Error for an unknown name.");
}

}  // namespace substruct::python
