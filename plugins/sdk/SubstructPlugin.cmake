# SPDX-License-Identifier: GPL-3.0-or-later
# substruct_add_plugin(<name> SOURCES <files…> [LIBRARIES <targets…>])
#
# LIBRARIES may name the framework layers the plugin uses (substruct::coupling,
# substruct::reduction, …: framework/docs/architecture.md); without any, the plugin links the
# whole framework (substruct::substruct).
# Builds one substruct plugin: a shared library named libsubstruct-<name>.so placed in the
# plugin folder the host searches (the build tree's plugins/ folder, or for an out-of-tree
# plugin its own build folder, which users add to SUBSTRUCT_PLUGIN_PATH or --plugin-path).
# `cmake --install` installs it only where SUBSTRUCT_PLUGIN_INSTALL_SUBDIR says (the substruct
# tree sets lib/substruct/plugins; an out-of-tree plugin may set the same before calling this
# and install into substruct's prefix, where the installed host finds it).
# The plugin exports its descriptor with SUBSTRUCT_PLUGIN(...) from
# <substruct/plugin/plugin_descriptor.hpp>; see plugins/sdk/README.md.
function(substruct_add_plugin name)
  cmake_parse_arguments(PLUGIN "" "" "SOURCES;LIBRARIES" ${ARGN})
  set(target substruct-${name})
  add_library(${target} MODULE ${PLUGIN_SOURCES})
  target_link_libraries(${target} PRIVATE ${PLUGIN_LIBRARIES})
  if(NOT "${PLUGIN_LIBRARIES}" MATCHES "substruct::")
    target_link_libraries(${target} PRIVATE substruct::substruct)
  endif()
  set_target_properties(${target} PROPERTIES PREFIX "lib" OUTPUT_NAME "substruct-${name}")
  substruct_place_in_plugin_folder(${target})
  set_property(GLOBAL APPEND PROPERTY SUBSTRUCT_PLUGIN_TARGETS ${target})
  # For the layering check of the framework's own tree: the plugin's folder and the layers it
  # links ("name|folder|layers").
  set(layers "")
  foreach(library ${PLUGIN_LIBRARIES})
    if(library MATCHES "^substruct::(.+)$")
      list(APPEND layers ${CMAKE_MATCH_1})
    endif()
  endforeach()
  string(JOIN "," layers ${layers})
  set_property(GLOBAL APPEND PROPERTY SUBSTRUCT_PLUGIN_LAYERS
               "${name}|${CMAKE_CURRENT_SOURCE_DIR}|${layers}")
  if(COMMAND substruct_warnings)
    substruct_warnings(${target})
  endif()
endfunction()

# substruct_place_in_plugin_folder(<target>)
#
# Builds a shared or module library into the plugin folder and installs it there (when
# SUBSTRUCT_PLUGIN_INSTALL_SUBDIR is set), finding the framework's libraries relative to itself
# (lib/substruct/plugins → lib): every plugin, and a library a plugin opens from its own folder
# (the slepc plugin's engine). A name that does not start with libsubstruct- is not taken for a
# plugin by the host.
function(substruct_place_in_plugin_folder target)
  if(DEFINED SUBSTRUCT_PLUGIN_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${SUBSTRUCT_PLUGIN_DIR}")
  endif()
  if(DEFINED SUBSTRUCT_PLUGIN_INSTALL_SUBDIR)
    if(NOT DEFINED CMAKE_INSTALL_LIBDIR)
      include(GNUInstallDirs)
    endif()
    file(RELATIVE_PATH to_lib "/${SUBSTRUCT_PLUGIN_INSTALL_SUBDIR}" "/${CMAKE_INSTALL_LIBDIR}")
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN/${to_lib}")
    install(TARGETS ${target} LIBRARY DESTINATION "${SUBSTRUCT_PLUGIN_INSTALL_SUBDIR}")
  endif()
endfunction()

# substruct_add_plugin_check(<name> [ARGS <arguments…>])
#
# Adds the CTest check-plugin.<name>: `substruct check-plugin` (the package's command,
# SUBSTRUCT_COMMAND) on the coupling plugin substruct_add_plugin(<name> …) builds, given by its
# file, with ARGS after it (e.g. --scene my.ini --scene.domains=auto:4 --steps 10). It passes
# when every rule of the coupling contract does (framework/docs/coupling_contract.md).
function(substruct_add_plugin_check name)
  cmake_parse_arguments(CHECK "" "" "ARGS" ${ARGN})
  if(NOT SUBSTRUCT_COMMAND)
    message(FATAL_ERROR "substruct_add_plugin_check(${name}): SUBSTRUCT_COMMAND is not set "
                        "(find_package(substruct) sets it)")
  endif()
  add_test(NAME check-plugin.${name}
           COMMAND "${SUBSTRUCT_COMMAND}" check-plugin $<TARGET_FILE:substruct-${name}> ${CHECK_ARGS})
  set_tests_properties(check-plugin.${name} PROPERTIES TIMEOUT 600)
endfunction()
