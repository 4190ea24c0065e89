// SPDX-License-Identifier: GPL-3.0-or-later
// TetGen meshes (read_tetgen): the input is the .node file, then a line "#ele", then the .ele
// file (and optionally "#face" and a .face file), so that the fuzzer varies all of them.
#include <string>
#include <string_view>

#include "fuzz_input.hpp"
#include "substruct/core/error.hpp"
#include "substruct/mesh/mesh_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto part = [&](std::string_view from, std::string_view to) {
    const std::size_t begin = from.empty() ? 0 : input.find(from);
    if (begin == std::string_view::npos) return std::string_view();
    const std::size_t start = from.empty() ? 0 : begin + from.size();
    const std::size_t end = to.empty() ? input.npos : input.find(to, start);
    return input.substr(start, end == input.npos ? input.npos : end - start);
  };
  auto write = [](const std::string& name, std::string_view text) {
    return substruct::fuzz::input_file(name, reinterpret_cast<const std::uint8_t*>(text.data()),
                                       text.size());
  };
  write("input.node", part("", "#ele\n"));
  const auto ele = write("input.ele", part("#ele\n", "#face\n"));
  const std::string_view face = part("#face\n", "");
  if (!face.empty())
    write("input.face", face);
  else
    std::filesystem::remove(ele.parent_path() / "input.face");
  try {
    (void)substruct::read_tetgen(ele);
  } catch (const substruct::Error&) {
  }
  return 0;
}
