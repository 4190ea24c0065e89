// SPDX-License-Identifier: GPL-3.0-or-later
// Vega .veg meshes (read_veg): vertices, elements, materials, regions, sets.
#include "fuzz_input.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)substruct::read_veg(substruct::fuzz::input_file("input.veg", data, size));
  } catch (const substruct::Error&) {
  }
  return 0;
}
