// SPDX-License-Identifier: GPL-3.0-or-later
// Spectral-basis cache files (decode_spectral_basis), as fuzz_reduced_model.cpp.
#include "fuzz_input.hpp"
#include "substruct/reduction/spectral_basis.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  substruct::fuzz::decode_record(data, size, [](std::string_view bytes, std::uint64_t hash) {
    (void)substruct::decode_spectral_basis(bytes, hash);
  });
  return 0;
}
