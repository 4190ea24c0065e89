# substruct_warnings(target): the warning set every target of the project builds with.
function(substruct_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
                                           -Wnon-virtual-dtor -Wno-deprecated-declarations)
endfunction()
