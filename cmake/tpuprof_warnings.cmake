# Warnings as errors on tpuprof's own targets only (never on the INTERFACE target).
function(tpuprof_enable_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Werror)
endfunction()
