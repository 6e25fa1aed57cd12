# Script mode (cmake -P), run after every link of the CLI (tpuprof_cli_tool.cmake):
# writes into OUT the bash and zsh completion scripts (`tpuprof --completion`)
# and, when HELP2MAN is given, the man page tpuprof.1 from the CLI's own --help,
# --version and each subcommand's --help. Both follow the subcommands and
# options as the binary registers them, so nothing here lists them.
#   -DEXE=path/to/tpuprof -DOUT=dir [-DHELP2MAN=path/to/help2man]
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND "${EXE}" --completion bash OUTPUT_FILE "${OUT}/tpuprof.bash"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tpuprof --completion bash failed (${rc})")
endif()
execute_process(COMMAND "${EXE}" --completion zsh OUTPUT_FILE "${OUT}/_tpuprof" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tpuprof --completion zsh failed (${rc})")
endif()
if(NOT HELP2MAN)
  return()
endif()

# The subcommands, from the generated bash script's `local subs="..."` line.
file(STRINGS "${OUT}/tpuprof.bash" _subs_line REGEX "^  local subs=")
string(REGEX REPLACE "^  local subs=\"([^\"]*)\".*" "\\1" _subs "${_subs_line}")
separate_arguments(_subs UNIX_COMMAND "${_subs}")

# help2man include file: one section with each subcommand's --help, verbatim.
set(_inc "[SUBCOMMANDS]\nEach subcommand has its own options; \\fBtpuprof SUBCOMMAND --help\\fR prints them.\n")
foreach(sub IN LISTS _subs)
  execute_process(COMMAND "${EXE}" ${sub} --help OUTPUT_VARIABLE _help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tpuprof ${sub} --help failed (${rc})")
  endif()
  string(REPLACE "\\" "\\e" _help "${_help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" _help "${_help}")
  string(APPEND _inc ".SS \"tpuprof ${sub}\"\n.nf\n${_help}.fi\n")
endforeach()
string(APPEND _inc "[EXIT STATUS]\n0 success, 1 bad input, 2 usage error, 3 I/O error, 4 data loss under \\fB--strict\\fR, 5 \\fBdiff --fail-above\\fR exceeded.\n"
                   "[ENVIRONMENT]\n\\fBNO_COLOR\\fR: no colours. \\fBCOLUMNS\\fR: table width (default: the terminal's).\n"
                   "[SEE ALSO]\ndocs/cli.md in the tpuprof sources.\n")
file(WRITE "${OUT}/tpuprof.h2m" "${_inc}")
execute_process(
  COMMAND "${HELP2MAN}" --no-info --no-discard-stderr
          --name "timelines, tables and answers from Sophgo TPU hardware profiles"
          --include "${OUT}/tpuprof.h2m" --output "${OUT}/tpuprof.1" "${EXE}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed (${rc})")
endif()
