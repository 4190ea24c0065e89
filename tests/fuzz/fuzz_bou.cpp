// SPDX-License-Identifier: GPL-3.0-or-later
// Vertex lists: .bou fixed-vertex files (read_bou), against a mesh of 1,000 vertices and
// without one.
#include "fuzz_input.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = substruct::fuzz::input_file("input.bou", data, size);
  for (substruct::Index vertices : {substruct::Index(1000), substruct::Index(-1)}) {
    try {
      (void)substruct::read_bou(file, vertices);
    } catch (const substruct::Error&) {
    }
  }
  return 0;
}
