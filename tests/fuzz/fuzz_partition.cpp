// SPDX-License-Identifier: GPL-3.0-or-later
// Per-element domain files, the partition cache (read_element_partition), for 500 elements.
#include "fuzz_input.hpp"
#include "substruct/core/error.hpp"
#include "substruct/domains/element_partition.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)substruct::read_element_partition(
        substruct::fuzz::input_file("input.domains", data, size), 500);
  } catch (const substruct::Error&) {
  }
  return 0;
}
