// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/plugin/plugin_host.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include "substruct/core/error.hpp"

namespace substruct {

namespace fs = std::filesystem;

namespace {

constexpr const char* kAbiSymbol = "substruct_plugin_abi";
constexpr const char* kDescriptorSymbol = "substruct_plugin_descriptor";
constexpr const char* kBuildSymbol = "substruct_plugin_build";

// Plugin libraries stay loaded for the life of the process: objects they created may outlive
// the host that created them, and unloading code that still has live objects would crash.
std::mutex g_libraries_mutex;
std::map<fs::path, boost::dll::shared_library>& loaded_libraries() {
  static std::map<fs::path, boost::dll::shared_library> libraries;
  return libraries;
}

bool is_plugin_file(const fs::path& file) {
  const std::string name = file.filename().string();
  return name.starts_with("libsubstruct-") && file.extension() == ".so";
}

PluginInfo load_plugin(const fs::path& file) {
  PluginInfo info;
  info.file = file;
  try {
    std::lock_guard lock(g_libraries_mutex);
    auto& libraries = loaded_libraries();
    const fs::path key = fs::weakly_canonical(file);
    auto it = libraries.find(key);
    if (it == libraries.end()) {
      boost::dll::shared_library library(
          file, boost::dll::load_mode::rtld_lazy | boost::dll::load_mode::rtld_local);
      it = libraries.emplace(key, std::move(library)).first;
    }
    const boost::dll::shared_library& library = it->second;
    if (!library.has(kAbiSymbol)) {
      info.problem = fmt::format("not a substruct plugin: it exports no symbol '{}'", kAbiSymbol);
      return info;
    }
    const int abi = library.get_alias<const int>(kAbiSymbol);
    if (abi != kPluginAbiVersion) {
      info.problem = fmt::format(
          "built for plugin ABI version {}, but this substruct has version {}: rebuild the "
          "plugin against this substruct",
          abi, kPluginAbiVersion);
      return info;
    }
    if (!library.has(kBuildSymbol)) {
      info.problem = fmt::format("missing symbol '{}' (declare the plugin with SUBSTRUCT_PLUGIN)",
                                 kBuildSymbol);
      return info;
    }
    const std::string built_with = library.get_alias<const char* const>(kBuildSymbol);
    if (built_with != kBuildFingerprint) {
      info.problem = fmt::format(
          "built with another toolchain ({}) than this substruct ({}): objects would not have "
          "the same layout; rebuild the plugin with the compiler and libraries substruct was "
          "built with",
          built_with, kBuildFingerprint);
      return info;
    }
    if (!library.has(kDescriptorSymbol)) {
      info.problem = fmt::format("missing symbol '{}' (declare the plugin with SUBSTRUCT_PLUGIN)",
                                 kDescriptorSymbol);
      return info;
    }
    auto& descriptor_function = library.get_alias<const PluginDescriptor*()>(kDescriptorSymbol);
    const PluginDescriptor* descriptor = descriptor_function();
    if (descriptor == nullptr || descriptor->name == nullptr || descriptor->create == nullptr ||
        descriptor->options == nullptr) {
      info.problem = "its descriptor is incomplete (name, options and create are required)";
      return info;
    }
    if (const std::string& section = descriptor->options().section; section != descriptor->name) {
      info.problem = fmt::format("its options are declared for the section '[{}]', not '[{}]'",
                                 section, descriptor->name);
      return info;
    }
    info.descriptor = descriptor;
  } catch (const std::exception& e) {
    info.problem = fmt::format("could not be loaded: {}", e.what());
  }
  return info;
}

std::vector<fs::path> split_path_list(const char* text) {
  std::vector<fs::path> dirs;
  if (text == nullptr) return dirs;
  std::string list(text);
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(':', start), list.size());
    if (end > start) dirs.emplace_back(list.substr(start, end - start));
    start = end + 1;
  }
  return dirs;
}

// A function of this library (internal linkage, so its address is ours): where the library is.
void locate_this_library() {}

}  // namespace

struct PluginHost::Impl {
  std::vector<fs::path> dirs;
  std::vector<PluginInfo> plugins;
  std::map<std::string, std::size_t> by_name;  // first plugin of each name

  void add(PluginInfo info) {
    if (info.descriptor != nullptr) {
      const std::string name = info.descriptor->name;
      auto it = by_name.find(name);
      if (it != by_name.end()) {
        if (fs::equivalent(plugins[it->second].file, info.file)) return;
        info.problem = fmt::format("shadowed by {} (same name '{}', found first)",
                                   plugins[it->second].file.string(), name);
        info.descriptor = nullptr;
      } else {
        by_name.emplace(name, plugins.size());
      }
    }
    plugins.push_back(std::move(info));
  }

  std::string available(const PluginKind* kind) const {
    std::vector<std::string> names;
    for (const auto& [name, index] : by_name)
      if (kind == nullptr || plugins[index].descriptor->kind == *kind) names.push_back(name);
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? std::string("none") : out;
  }
};

PluginHost::PluginHost(const std::vector<fs::path>& extra_dirs, bool use_environment)
    : impl_(std::make_unique<Impl>()) {
  std::vector<fs::path> candidates = extra_dirs;
  if (use_environment) {
    for (auto& dir : split_path_list(std::getenv("SUBSTRUCT_PLUGIN_PATH")))
      candidates.push_back(dir);
    // Next to the running program: <build>/bin/../plugins (build tree) and
    // <prefix>/bin/../lib/substruct/plugins (installed); then next to this library, for
    // programs elsewhere: <build>/lib/../plugins, <libdir>/substruct/plugins. Nothing of the
    // build tree is compiled in, so an installed host never loads the build tree's plugins.
    std::error_code ec;
    const fs::path exe_dir = boost::dll::program_location(ec).parent_path();
    if (!ec) {
      candidates.push_back(exe_dir.parent_path() / "plugins");
      candidates.push_back(exe_dir.parent_path() / "lib" / "substruct" / "plugins");
    }
    const fs::path library_dir = boost::dll::symbol_location(locate_this_library, ec).parent_path();
    if (!ec) {
      candidates.push_back(library_dir.parent_path() / "plugins");
      candidates.push_back(library_dir / "substruct" / "plugins");
    }
  }
  for (const fs::path& dir : candidates) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    const fs::path canonical = fs::canonical(dir, ec);
    if (std::find(impl_->dirs.begin(), impl_->dirs.end(), canonical) != impl_->dirs.end()) continue;
    impl_->dirs.push_back(canonical);
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(canonical, ec))
      if (entry.is_regular_file() && is_plugin_file(entry.path())) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) impl_->add(load_plugin(file));
  }
}

PluginHost::~PluginHost() = default;

const PluginInfo& PluginHost::load_file(const fs::path& file) {
  if (!fs::exists(file)) throw Error(fmt::format("plugin file {} does not exist", file.string()));
  impl_->add(load_plugin(file));
  for (const PluginInfo& info : impl_->plugins)
    if (fs::equivalent(info.file, file)) return info;
  return impl_->plugins.back();
}

const std::vector<PluginInfo>& PluginHost::plugins() const {
  return impl_->plugins;
}
const std::vector<fs::path>& PluginHost::search_dirs() const {
  return impl_->dirs;
}

const PluginDescriptor* PluginHost::try_find(const std::string& name) const {
  auto it = impl_->by_name.find(name);
  return it == impl_->by_name.end() ? nullptr : impl_->plugins[it->second].descriptor;
}

namespace {
std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? std::string("none") : out;
}
}  // namespace

void PluginHost::throw_if_failed(const std::string& name) const {
  // A library that carries this name but failed to load says why.
  for (const PluginInfo& info : impl_->plugins) {
    if (info.descriptor == nullptr &&
        info.file.filename().string() == "libsubstruct-" + name + ".so")
      throw Error(fmt::format("plugin '{}' ({}) {}", name, info.file.string(), info.problem));
  }
}

const PluginDescriptor& PluginHost::find(const std::string& name) const {
  if (const PluginDescriptor* d = try_find(name)) return *d;
  throw_if_failed(name);
  std::vector<std::string> dirs;
  for (const fs::path& dir : impl_->dirs) dirs.push_back(dir.string());
  throw Error(fmt::format("unknown plugin '{}'; available plugins: {} (searched: {})", name,
                          impl_->available(nullptr), join(dirs)));
}

const PluginDescriptor& PluginHost::find(const std::string& name, PluginKind kind) const {
  const PluginDescriptor* d = try_find(name);
  if (d != nullptr && d->kind == kind) return *d;
  if (d == nullptr) throw_if_failed(name);
  const std::string other =
      d != nullptr ? fmt::format(" ('{}' is a {} plugin)", name, to_string(d->kind)) : "";
  throw Error(fmt::format("unknown {} plugin '{}'{}; available {} plugins: {}", to_string(kind),
                          name, other, to_string(kind), impl_->available(&kind)));
}

std::vector<const PluginDescriptor*> PluginHost::of_kind(PluginKind kind) const {
  std::vector<const PluginDescriptor*> result;
  for (const auto& [name, index] : impl_->by_name)
    if (impl_->plugins[index].descriptor->kind == kind)
      result.push_back(impl_->plugins[index].descriptor);
  return result;
}

std::unique_ptr<Component> PluginHost::create_component(const std::string& name, PluginKind kind,
                                                        const PluginContext& context) const {
  const PluginDescriptor& descriptor = find(name, kind);
  std::unique_ptr<Component> object = descriptor.create(context);
  if (!object) throw Error(fmt::format("plugin '{}' failed to create its object", name));
  object->plugin_name_ = name;
  return object;
}

void PluginHost::throw_wrong_interface(const std::string& name, PluginKind kind) const {
  throw Error(
      fmt::format("plugin '{}' declares kind {} but its object does not implement the {} "
                  "interface (was it built against another substruct?)",
                  name, to_string(kind), to_string(kind)));
}

}  // namespace substruct
