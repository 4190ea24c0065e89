// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// Discovers and loads plugins (Boost.DLL) and creates their objects.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "substruct/plugin/plugin_descriptor.hpp"

namespace substruct {

/// A plugin library found on disk, loaded or not.
struct PluginInfo {
  std::filesystem::path file;
  const PluginDescriptor* descriptor = nullptr;  // null when it failed to load
  std::string problem;                           // why it failed (missing symbol, ABI, …)
};

class PluginHost {
 public:
  /// Searches, in this order: `extra_dirs` (--plugin-path), the folders listed in
  /// SUBSTRUCT_PLUGIN_PATH (':'-separated), then the plugin folder beside the running program
  /// (`<build>/plugins` in a build tree, `<prefix>/lib/substruct/plugins` installed) and beside the
  /// framework's library. The first plugin of a given name wins; later ones are reported as
  /// shadowed.
  explicit PluginHost(const std::vector<std::filesystem::path>& extra_dirs = {},
                      bool use_environment = true);
  ~PluginHost();
  PluginHost(const PluginHost&) = delete;
  PluginHost& operator=(const PluginHost&) = delete;

  /// Loads one library explicitly (tests, out-of-tree plugins given by file).
  const PluginInfo& load_file(const std::filesystem::path& file);

  /// Every library examined, loaded or not, in discovery order.
  const std::vector<PluginInfo>& plugins() const;
  const std::vector<std::filesystem::path>& search_dirs() const;

  /// The plugin called `name`; throws Error listing the available plugins (of `kind`, when
  /// given) if there is none, or naming the problem if it failed to load.
  const PluginDescriptor& find(const std::string& name) const;
  const PluginDescriptor& find(const std::string& name, PluginKind kind) const;
  const PluginDescriptor* try_find(const std::string& name) const;
  std::vector<const PluginDescriptor*> of_kind(PluginKind kind) const;

  /// Creates plugin `name` of `kind` and checks that it implements `Interface`.
  template <class Interface>
  std::unique_ptr<Interface> create(const std::string& name, PluginKind kind,
                                    const PluginContext& context) const {
    std::unique_ptr<Component> object = create_component(name, kind, context);
    auto* typed = dynamic_cast<Interface*>(object.get());
    if (typed == nullptr) throw_wrong_interface(name, kind);
    object.release();
    return std::unique_ptr<Interface>(typed);
  }

 private:
  std::unique_ptr<Component> create_component(const std::string& name, PluginKind kind,
                                              const PluginContext& context) const;
  void throw_if_failed(const std::string& name) const;
  [[noreturn]] void throw_wrong_interface(const std::string& name, PluginKind kind) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace substruct
