// SPDX-License-Identifier: GPL-3.0-or-later
#include "gmsh_library.hpp"

#include <dlfcn.h>
#include <gmshc.h>

#include <string>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct::detail {

namespace {

template <typename F>
void resolve(void* library, const char* name, F& f) {
  void* symbol = dlsym(library, name);
  if (symbol == nullptr)
    throw Error(
        fmt::format("Gmsh's library has no '{}' (Gmsh {} was expected)", name, GMSH_API_VERSION));
  f = reinterpret_cast<F>(symbol);
}

GmshApi open_gmsh() {
  const std::string soname =
      fmt::format("libgmsh.so.{}.{}", GMSH_API_VERSION_MAJOR, GMSH_API_VERSION_MINOR);
  void* library = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) library = dlopen(SUBSTRUCT_GMSH_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr)
    throw Error(fmt::format("cannot open Gmsh's library ({} or {}): {}", soname,
                            SUBSTRUCT_GMSH_LIBRARY, dlerror()));
  // Kept open for the process: Gmsh's global state lives in it.
  GmshApi api{};
  resolve(library, "gmshFree", api.free);
  resolve(library, "gmshInitialize", api.initialize);
  resolve(library, "gmshFinalize", api.finalize);
  resolve(library, "gmshOptionSetNumber", api.option_set_number);
  resolve(library, "gmshModelAdd", api.model_add);
  resolve(library, "gmshModelAddDiscreteEntity", api.add_discrete_entity);
  resolve(library, "gmshModelMeshAddNodes", api.add_nodes);
  resolve(library, "gmshModelMeshAddElementsByType", api.add_elements_by_type);
  resolve(library, "gmshModelGeoAddSurfaceLoop", api.geo_add_surface_loop);
  resolve(library, "gmshModelGeoAddVolume", api.geo_add_volume);
  resolve(library, "gmshModelGeoSynchronize", api.geo_synchronize);
  resolve(library, "gmshModelMeshGenerate", api.mesh_generate);
  resolve(library, "gmshModelMeshGetNodes", api.get_nodes);
  resolve(library, "gmshModelMeshGetElementsByType", api.get_elements_by_type);
  resolve(library, "gmshLoggerGetLastError", api.last_error);
  return api;
}

}  // namespace

const GmshApi& gmsh_api() {
  static const GmshApi api = open_gmsh();  // thread-safe; a failed open is retried next call
  return api;
}

void gmsh_check(int ierr, const char* what) {
  if (ierr == 0) return;
  const GmshApi& api = gmsh_api();
  char* message = nullptr;
  int ignored = 0;
  api.last_error(&message, &ignored);
  const std::string text = message != nullptr ? message : "no message";
  if (message != nullptr) api.free(message);
  throw Error(fmt::format("Gmsh: {} failed: {}", what, text));
}

}  // namespace substruct::detail
