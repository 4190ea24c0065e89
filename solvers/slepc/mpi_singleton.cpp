// SPDX-License-Identifier: GPL-3.0-or-later
#include "mpi_singleton.hpp"

#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <system_error>

#include "substruct/core/mpi_launch.hpp"

namespace substruct::slepc_plugin {
namespace {

std::string& session_folder() {
  static std::string folder;
  return folder;
}

// Runs after MPI's own finalisation (registered before it): Open MPI has emptied the folder by
// then; whatever a crashed finalisation left is removed with it.
void remove_session_folder() {
  std::error_code ignored;
  if (!session_folder().empty()) std::filesystem::remove_all(session_folder(), ignored);
}

// A fresh folder under $TMPDIR (or /tmp) for this process's Open MPI session files, or "" when
// none can be made (Open MPI then uses its shared default).
std::string make_session_folder() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = (base != nullptr && base[0] != '\0') ? base : "/tmp";
  pattern += "/substruct-mpi-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) return "";
  return pattern;
}

}  // namespace

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
  const char* const tmpdir_variable = "OMPI_MCA_orte_tmpdir_base";
  if (std::getenv(tmpdir_variable) == nullptr && session_folder().empty()) {
    session_folder() = make_session_folder();
    if (!session_folder().empty() && setenv(tmpdir_variable, session_folder().c_str(), 0) == 0) {
      std::atexit(remove_session_folder);
      ++set;
    }
  }
  return set;
}

std::string mpi_singleton_session_folder() {
  return session_folder();
}

}  // namespace substruct::slepc_plugin
