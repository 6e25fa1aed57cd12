# Warnings as errors on tpuprof's own targets only (never on the INTERFACE target).
function(tpuprof_enable_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Werror)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 false positive on std::string concatenation at -O2 (GCC PR 105329).
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
