// SPDX-License-Identifier: GPL-3.0-or-later
// Loads the slepc engine (slepc_engine.hpp) from the folder of the plugin library this code is
// compiled into, once, and keeps it loaded (PETSc and MPI finalise at process exit).
#include <dlfcn.h>

#include <filesystem>

#include <fmt/format.h>

#include "slepc_engine.hpp"
#include "substruct/core/error.hpp"

namespace substruct::slepc_plugin {

void* engine_entry(const char* name) {
  static void* const library = [] {
    Dl_info self{};
    if (dladdr(reinterpret_cast<const void*>(&engine_entry), &self) == 0 ||
        self.dli_fname == nullptr)
      throw Error("slepc: cannot tell where the plugin was loaded from");
    const std::filesystem::path file =
        std::filesystem::path(self.dli_fname).parent_path() / kEngineLibrary;
    void* opened = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (opened == nullptr)
      throw Error(fmt::format("slepc: cannot load its engine {}: {}", file.string(), dlerror()));
    return opened;
  }();
  void* entry = dlsym(library, name);
  if (entry == nullptr) throw Error(fmt::format("slepc: its engine has no {}", name));
  return entry;
}

}  // namespace substruct::slepc_plugin
