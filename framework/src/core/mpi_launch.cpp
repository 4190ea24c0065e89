// SPDX-License-Identifier: GPL-3.0-or-later
#include "substruct/core/mpi_launch.hpp"

#include <cstdlib>
#include <initializer_list>

namespace substruct {

bool started_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

}  // namespace substruct
