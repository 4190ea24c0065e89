# SPDX-License-Identifier: GPL-3.0-or-later
# Finds CHOLMOD from SuiteSparse (Debian: libsuitesparse-dev), which ships no CMake config.
# Defines the imported target SuiteSparse::cholmod.
find_path(CHOLMOD_INCLUDE_DIR cholmod.h PATH_SUFFIXES suitesparse)
find_library(CHOLMOD_LIBRARY cholmod)
find_library(SUITESPARSE_CONFIG_LIBRARY suitesparseconfig)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SuiteSparseCholmod
  REQUIRED_VARS CHOLMOD_LIBRARY CHOLMOD_INCLUDE_DIR SUITESPARSE_CONFIG_LIBRARY)
if(SuiteSparseCholmod_FOUND AND NOT TARGET SuiteSparse::cholmod)
  add_library(SuiteSparse::cholmod UNKNOWN IMPORTED)
  set_target_properties(SuiteSparse::cholmod PROPERTIES
    IMPORTED_LOCATION "${CHOLMOD_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CHOLMOD_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${SUITESPARSE_CONFIG_LIBRARY}")
endif()
