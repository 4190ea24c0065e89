// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/io/vtk_frame.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "substruct/core/error.hpp"

namespace substruct {

namespace {

std::vector<std::int32_t> per_tet(std::span<const std::int32_t> values, std::size_t tets,
                                  const char* what) {
  std::vector<std::int32_t> out(tets, 0);
  if (values.empty()) return out;
  if (values.size() != tets)
    throw Error(fmt::format("vtk: {} has {} entries for {} elements", what, values.size(), tets));
  std::copy(values.begin(), values.end(), out.begin());
  return out;
}

}  // namespace

VtuWriter run_frame_writer(const Tets& tets, std::span<const std::int32_t> domain,
                           std::span<const std::int32_t> material, VtkEncoding encoding) {
  const auto m = static_cast<std::size_t>(tets.rows());
  const std::vector<std::int32_t> domains = per_tet(domain, m, "the domain partition");
  const std::vector<std::int32_t> materials = per_tet(material, m, "the element materials");
  const VtkData cell_data{{{"domain", 1, std::span<const std::int32_t>(domains)},
                           {"material", 1, std::span<const std::int32_t>(materials)}},
                          "domain",
                          ""};
  return VtuWriter(tets, cell_data, encoding);
}

void write_run_frame(const VtuWriter& writer, const std::filesystem::path& file, const Points& rest,
                     const Points& positions, const Points& velocities, double time, long step,
                     Durability durability) {
  if (rest.rows() != positions.rows())
    throw Error(fmt::format("vtk: a frame of {} positions for {} rest positions", positions.rows(),
                            rest.rows()));
  const Points displacement = positions - rest;
  VtkData point_data{{{"displacement", 3, flat_values(displacement)}}, "", "displacement"};
  if (velocities.rows() != 0) point_data.arrays.push_back({"velocity", 3, flat_values(velocities)});
  const double times[] = {time};
  const std::int64_t steps[] = {step};
  const VtkArray field_data[] = {{"TimeValue", 1, std::span<const double>(times)},
                                 {"Step", 1, std::span<const std::int64_t>(steps)}};
  writer.write(file, positions, point_data, field_data, durability);
}

}  // namespace substruct
