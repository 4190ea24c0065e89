// SPDX-License-Identifier: GPL-3.0-or-later
#include "mpi_singleton.hpp"

#include <cstdlib>
#include <initializer_list>
#include <string_view>

#include "substruct/core/mpi_launch.hpp"

namespace substruct::slepc_plugin {

int prepare_mpi_singleton() {
  if (started_by_mpi_launcher()) return 0;
  const char* choice = std::getenv("SUBSTRUCT_MPI_SINGLETON");
  if (choice != nullptr && std::string_view(choice) == "openmpi") return 0;
  int set = 0;
  const char* const defaults[][2] = {{"OMPI_MCA_ess_singleton_isolated", "1"},
                                     {"OMPI_MCA_pml", "ob1"},
                                     {"OMPI_MCA_btl", "self"},
                                     {"OMPI_MCA_osc", "pt2pt"}};
  for (const auto& [name, value] : defaults)
    if (std::getenv(name) == nullptr && setenv(name, value, /*overwrite=*/0) == 0) ++set;
  return set;
}

}  // namespace substruct::slepc_plugin
