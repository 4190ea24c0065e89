// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Gmsh's C API, opened on first use. Gmsh brings OpenCASCADE, FLTK and X11 (about 90 libraries
// bound at load, 0.3 s a process); only the solid mesher needs it, so linking it would make every
// command pay that start-up.

#include <cstddef>

namespace substruct::detail {

/// The entry points of Gmsh's C API (gmshc.h) the solid mesher calls. Every one ends with
/// `int* ierr`, non-zero on failure.
struct GmshApi {
  void (*free)(void*);
  void (*initialize)(int, char**, int, int*);
  void (*finalize)(int*);
  void (*option_set_number)(const char*, double, int*);
  void (*model_add)(const char*, int*);
  int (*add_discrete_entity)(int, int, int*, std::size_t, int*);
  void (*add_nodes)(int, int, std::size_t*, std::size_t, double*, std::size_t, double*, std::size_t,
                    int*);
  void (*add_elements_by_type)(int, int, std::size_t*, std::size_t, std::size_t*, std::size_t,
                               int*);
  int (*geo_add_surface_loop)(int*, std::size_t, int, int*);
  int (*geo_add_volume)(int*, std::size_t, int, int*);
  void (*geo_synchronize)(int*);
  void (*mesh_generate)(int, int*);
  void (*get_nodes)(std::size_t**, std::size_t*, double**, std::size_t*, double**, std::size_t*,
                    int, int, int, int, int*);
  void (*get_elements_by_type)(int, std::size_t**, std::size_t*, std::size_t**, std::size_t*, int,
                               std::size_t, std::size_t, int*);
  void (*last_error)(char**, int*);
};

/// Opens Gmsh's library once (by its soname, then the path found when substruct was built) and
/// resolves the entry points; throws Error naming the library or the missing symbol.
const GmshApi& gmsh_api();

/// Throws Error("Gmsh: `what` failed: <Gmsh's last error>") when `ierr` is non-zero.
void gmsh_check(int ierr, const char* what);

}  // namespace substruct::detail
