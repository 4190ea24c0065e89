// SPDX-License-Identifier: GPL-3.0-or-later
// Reduced-model cache files (decode_reduced_model): as they come, and with a consistent header
// (fuzz_input.hpp) so that the payload decoder is reached.
#include "fuzz_input.hpp"
#include "substruct/reduction/reduced_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  substruct::fuzz::decode_record(data, size, [](std::string_view bytes, std::uint64_t hash) {
    (void)substruct::decode_reduced_model(bytes, hash);
  });
  return 0;
}
