// SPDX-License-Identifier: GPL-3.0-or-later
// Loads the slepc engine (slepc_engine.hpp) from the folder of the plugin library this code is
// compiled into, once, and keeps it loaded (PETSc and MPI finalise at process exit).
#include "slepc_engine.hpp"
#include "substruct/plugin/library_beside.hpp"

namespace substruct::slepc_plugin {

namespace {

std::filesystem::path engine_file() {
  return library_folder(reinterpret_cast<const void*>(&engine_entry), "slepc") / kEngineLibrary;
}

}  // namespace

void* engine_entry(const char* name) {
  static const std::filesystem::path file = engine_file();
  static void* const library = open_library(file, "slepc");
  return library_symbol(library, file, name, "slepc");
}

}  // namespace substruct::slepc_plugin
