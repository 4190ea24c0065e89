# SPDX-License-Identifier: GPL-3.0-or-later
# The `docs` target: the HTML reference of the SDK headers by Doxygen (Debian: doxygen), in
# <build>/docs/sdk/html, installed as <prefix>/share/doc/substruct/sdk when it was made. Without
# doxygen the target says so and fails. Not part of `all`.
find_program(SUBSTRUCT_DOXYGEN doxygen)
set(SUBSTRUCT_DOCS_DIR "${CMAKE_BINARY_DIR}/docs/sdk")
set(SUBSTRUCT_DOCS_INPUT "${CMAKE_CURRENT_LIST_DIR}/../include/substruct")
get_filename_component(SUBSTRUCT_DOCS_INPUT "${SUBSTRUCT_DOCS_INPUT}" ABSOLUTE)
get_filename_component(SUBSTRUCT_DOCS_STRIP "${SUBSTRUCT_DOCS_INPUT}/.." ABSOLUTE)
configure_file("${CMAKE_CURRENT_LIST_DIR}/Doxyfile.in" "${SUBSTRUCT_DOCS_DIR}/Doxyfile" @ONLY)
if(SUBSTRUCT_DOXYGEN)
  add_custom_target(docs
    COMMAND "${CMAKE_COMMAND}" -E rm -rf "${SUBSTRUCT_DOCS_DIR}/html"
    COMMAND "${SUBSTRUCT_DOXYGEN}" "${SUBSTRUCT_DOCS_DIR}/Doxyfile"
    WORKING_DIRECTORY "${SUBSTRUCT_DOCS_DIR}"
    COMMENT "The SDK reference: ${SUBSTRUCT_DOCS_DIR}/html/index.html"
    VERBATIM)
else()
  add_custom_target(docs
    COMMAND "${CMAKE_COMMAND}" -E echo "docs: doxygen is not installed (Debian: doxygen)"
    COMMAND "${CMAKE_COMMAND}" -E false
    VERBATIM)
endif()
install(DIRECTORY "${SUBSTRUCT_DOCS_DIR}/html/" DESTINATION "${CMAKE_INSTALL_DOCDIR}/sdk" OPTIONAL)
