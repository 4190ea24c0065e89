// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/plugin/library_beside.hpp"

#include <dlfcn.h>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

std::filesystem::path library_folder(const void* anchor, std::string_view who) {
  Dl_info self{};
  if (dladdr(anchor, &self) == 0 || self.dli_fname == nullptr)
    throw Error(fmt::format("{}: cannot tell where its library was loaded from", who));
  return std::filesystem::path(self.dli_fname).parent_path();
}

void* open_library(const std::filesystem::path& file, std::string_view who) {
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (library == nullptr)
    throw Error(fmt::format("{}: cannot load {}: {}", who, file.string(), dlerror()));
  return library;
}

void* library_symbol(void* library, const std::filesystem::path& file, const char* name,
                     std::string_view who) {
  void* symbol = dlsym(library, name);
  if (symbol == nullptr) throw Error(fmt::format("{}: {} has no {}", who, file.string(), name));
  return symbol;
}

}  // namespace substruct
