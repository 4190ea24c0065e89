# SPDX-License-Identifier: GPL-3.0-or-later
# Finds METIS (Debian: libmetis-dev), which ships no CMake config. Defines Metis::metis.
find_path(METIS_INCLUDE_DIR metis.h)
find_library(METIS_LIBRARY metis)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Metis REQUIRED_VARS METIS_LIBRARY METIS_INCLUDE_DIR)
if(Metis_FOUND AND NOT TARGET Metis::metis)
  add_library(Metis::metis UNKNOWN IMPORTED)
  set_target_properties(Metis::metis PROPERTIES
    IMPORTED_LOCATION "${METIS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${METIS_INCLUDE_DIR}")
endif()
