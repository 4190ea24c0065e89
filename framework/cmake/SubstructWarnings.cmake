# substruct_warnings(target): the warning set every target of the project builds with, and the
# project-wide options that go with it:
#   SUBSTRUCT_WARNINGS_AS_ERRORS  every warning fails the build (CMakePresets.json: werror)
#   SUBSTRUCT_SANITIZE            a list of sanitizers, e.g. "address;undefined" (preset debug)
option(SUBSTRUCT_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
set(SUBSTRUCT_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address;undefined")
if(SUBSTRUCT_SANITIZE)
  string(REPLACE ";" "," SUBSTRUCT_SANITIZE_FLAGS "${SUBSTRUCT_SANITIZE}")
  # The host compiler's code only (nvcc does not take these flags).
  add_compile_options(
    "$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${SUBSTRUCT_SANITIZE_FLAGS};-fno-omit-frame-pointer>")
  add_link_options(-fsanitize=${SUBSTRUCT_SANITIZE_FLAGS})
endif()

# g++'s flags reach g++ only, never nvcc.
function(substruct_warnings target)
  set(flags -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor -Wno-deprecated-declarations)
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${flags}>")
  if(SUBSTRUCT_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:-Werror>")
  endif()
endfunction()
