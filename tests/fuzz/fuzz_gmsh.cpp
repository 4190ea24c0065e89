// SPDX-License-Identifier: GPL-3.0-or-later
// Gmsh .msh meshes, versions 2 and 4, ASCII and binary (read_gmsh).
#include "fuzz_input.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)substruct::read_gmsh(substruct::fuzz::input_file("input.msh", data, size));
  } catch (const substruct::Error&) {
  }
  return 0;
}
