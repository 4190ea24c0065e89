# substruct_warnings(target): the warning set every target of the project builds with, and the
# project-wide options that go with it:
#   SUBSTRUCT_WARNINGS_AS_ERRORS  every warning fails the build (CMakePresets.json: werror)
#   SUBSTRUCT_SANITIZE            a list of sanitizers, e.g. "address;undefined" (preset debug)
option(SUBSTRUCT_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
set(SUBSTRUCT_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address;undefined")
if(SUBSTRUCT_SANITIZE)
  string(REPLACE ";" "," SUBSTRUCT_SANITIZE_FLAGS "${SUBSTRUCT_SANITIZE}")
  add_compile_options(-fsanitize=${SUBSTRUCT_SANITIZE_FLAGS} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${SUBSTRUCT_SANITIZE_FLAGS})
endif()

function(substruct_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
                                           -Wnon-virtual-dtor -Wno-deprecated-declarations)
  if(SUBSTRUCT_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
