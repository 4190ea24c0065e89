# SPDX-License-Identifier: GPL-3.0-or-later
# substruct_library(<name> AREAS <area…> [PUBLIC <targets…>] [PRIVATE <targets…>])
#
# One layer of the framework: the shared library substruct_<name> (target substruct::<name>)
# built from framework/src/<area>/ of each area, its public headers under
# framework/include/substruct/<area>/. A library links only the layers below it, named in
# PUBLIC (its headers include theirs) or PRIVATE (only its sources do); the linker refuses a
# symbol from a layer it does not link (--no-undefined), and the test architecture.layers
# refuses an #include of an area it does not link. The layers and their edges are written to
# <build>/architecture/layers.txt for that test and for framework/tools/architecture_graph.py.
set(SUBSTRUCT_FRAMEWORK_DIR "${CMAKE_CURRENT_LIST_DIR}/..")
set_property(GLOBAL PROPERTY SUBSTRUCT_LAYERS "")

function(substruct_library name)
  cmake_parse_arguments(LIB "" "" "AREAS;PUBLIC;PRIVATE" ${ARGN})
  set(target substruct_${name})
  set(sources "")
  foreach(area ${LIB_AREAS})
    file(GLOB_RECURSE area_sources CONFIGURE_DEPENDS "${SUBSTRUCT_FRAMEWORK_DIR}/src/${area}/*.cpp")
    list(APPEND sources ${area_sources})
  endforeach()
  if(sources)
    add_library(${target} SHARED ${sources})
    target_include_directories(${target} PUBLIC
      $<BUILD_INTERFACE:${SUBSTRUCT_FRAMEWORK_DIR}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_link_libraries(${target} PUBLIC ${LIB_PUBLIC} PRIVATE ${LIB_PRIVATE})
    # (Not in a fuzzing build: there the coverage hooks come from the program, from libFuzzer.)
    if(NOT SUBSTRUCT_FUZZ)
      target_link_options(${target} PRIVATE "LINKER:--no-undefined")
    endif()
    substruct_warnings(${target})
  else()  # headers only (interfaces)
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE
      $<BUILD_INTERFACE:${SUBSTRUCT_FRAMEWORK_DIR}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    target_link_libraries(${target} INTERFACE ${LIB_PUBLIC})
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  add_library(substruct::${name} ALIAS ${target})
  # name|areas|public|private, the substruct layers only (external packages are left out).
  set(line "${name}|")
  string(JOIN "," areas ${LIB_AREAS})
  string(APPEND line "${areas}|")
  foreach(kind PUBLIC PRIVATE)
    set(deps "")
    foreach(dep ${LIB_${kind}})
      if(dep MATCHES "^substruct::(.+)$")
        list(APPEND deps ${CMAKE_MATCH_1})
      endif()
    endforeach()
    string(JOIN "," deps ${deps})
    string(APPEND line "${deps}|")
  endforeach()
  set_property(GLOBAL APPEND PROPERTY SUBSTRUCT_LAYERS "${line}")
  set_property(GLOBAL APPEND PROPERTY SUBSTRUCT_LIBRARY_TARGETS ${target})
endfunction()

# Writes <build>/architecture/layers.txt: one line per layer, "name|areas|public|private|".
function(substruct_write_layers)
  get_property(layers GLOBAL PROPERTY SUBSTRUCT_LAYERS)
  string(JOIN "\n" text ${layers})
  file(WRITE "${CMAKE_BINARY_DIR}/architecture/layers.txt" "${text}\n")
endfunction()
