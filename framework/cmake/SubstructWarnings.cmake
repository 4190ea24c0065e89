# SPDX-License-Identifier: GPL-3.0-or-later
# substruct_warnings(target): the warning set every target of the project builds with, and the
# project-wide options that go with it:
#   SUBSTRUCT_WARNINGS_AS_ERRORS  every warning fails the build (CMakePresets.json: werror)
#   SUBSTRUCT_SANITIZE            a list of sanitizers, e.g. "address;undefined" (preset debug)
#   SUBSTRUCT_FUZZ                libFuzzer coverage everywhere and the fuzz_* targets (clang;
#                                 preset fuzz, tests/fuzz/README.md)
option(SUBSTRUCT_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
set(SUBSTRUCT_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address;undefined")
option(SUBSTRUCT_FUZZ "Build the libFuzzer harnesses (clang), with coverage in every library" OFF)
if(SUBSTRUCT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "SUBSTRUCT_FUZZ needs clang (libFuzzer): configure with the fuzz preset "
                        "or -DCMAKE_CXX_COMPILER=clang++ (Debian: clang)")
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>")
  # One sanitizer runtime for the programs and the framework's shared libraries, found where
  # clang keeps it.
  add_link_options(-shared-libsan)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
                  OUTPUT_VARIABLE asan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(asan_runtime_dir "${asan_runtime}" DIRECTORY)
  add_link_options("LINKER:-rpath,${asan_runtime_dir}")
endif()
if(SUBSTRUCT_SANITIZE)
  string(REPLACE ";" "," SUBSTRUCT_SANITIZE_FLAGS "${SUBSTRUCT_SANITIZE}")
  # The host compiler's code only (nvcc does not take these flags).
  add_compile_options(
    "$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${SUBSTRUCT_SANITIZE_FLAGS};-fno-omit-frame-pointer>")
  add_link_options(-fsanitize=${SUBSTRUCT_SANITIZE_FLAGS})
endif()

# g++'s flags reach g++ only, never nvcc.
function(substruct_warnings target)
  set(flags -Wall -Wextra -Wpedantic)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    list(APPEND flags -Wshadow=local)  # g++ only (clang: -Wshadow has no such level)
  endif()
  list(APPEND flags -Wnon-virtual-dtor -Wno-deprecated-declarations)
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${flags}>")
  if(SUBSTRUCT_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:-Werror>")
  endif()
endfunction()
