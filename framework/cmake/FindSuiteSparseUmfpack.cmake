# SPDX-License-Identifier: GPL-3.0-or-later
# Finds UMFPACK from SuiteSparse (Debian: libsuitesparse-dev), which ships no CMake config.
# Defines the imported target SuiteSparse::umfpack.
find_path(UMFPACK_INCLUDE_DIR umfpack.h PATH_SUFFIXES suitesparse)
find_library(UMFPACK_LIBRARY umfpack)
find_library(UMFPACK_SUITESPARSE_CONFIG_LIBRARY suitesparseconfig)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SuiteSparseUmfpack
  REQUIRED_VARS UMFPACK_LIBRARY UMFPACK_INCLUDE_DIR UMFPACK_SUITESPARSE_CONFIG_LIBRARY)
if(SuiteSparseUmfpack_FOUND AND NOT TARGET SuiteSparse::umfpack)
  add_library(SuiteSparse::umfpack UNKNOWN IMPORTED)
  set_target_properties(SuiteSparse::umfpack PROPERTIES
    IMPORTED_LOCATION "${UMFPACK_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${UMFPACK_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${UMFPACK_SUITESPARSE_CONFIG_LIBRARY}")
endif()
