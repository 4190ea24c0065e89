// SPDX-License-Identifier: GPL-3.0-or-later
// Wavefront .obj render meshes (read_obj).
#include "fuzz_input.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)substruct::read_obj(substruct::fuzz::input_file("input.obj", data, size));
  } catch (const substruct::Error&) {
  }
  return 0;
}
