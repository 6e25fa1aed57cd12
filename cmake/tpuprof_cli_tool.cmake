# The CLI installed like a tool: bin/tpuprof, its man page (help2man, from the
# CLI's own --help; skipped with a message when help2man is absent) and bash and
# zsh completion (from `tpuprof --completion`), all regenerated after each link.
# Included from examples/CMakeLists.txt after tpuprof_cli is defined.
find_program(TPUPROF_HELP2MAN help2man)
set(_cli_share ${CMAKE_CURRENT_BINARY_DIR}/cli_share)
if(NOT TPUPROF_HELP2MAN)
  message(STATUS "tpuprof: help2man not found: no man page (apt-get install help2man)")
endif()
if(NOT CMAKE_CROSSCOMPILING)
  add_custom_command(TARGET tpuprof_cli POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:tpuprof_cli> -DOUT=${_cli_share}
            -DHELP2MAN=${TPUPROF_HELP2MAN} -P ${PROJECT_SOURCE_DIR}/cmake/tpuprof_cli_docs.cmake
    COMMENT "tpuprof: completion scripts and man page"
    VERBATIM)
endif()

if(TPUPROF_INSTALL)
  install(TARGETS tpuprof_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  if(TPUPROF_CLI_MODULES)  # the xlsx and SQLite modules, where the CLI looks for them
    install(TARGETS ${TPUPROF_CLI_MODULES} LIBRARY DESTINATION ${TPUPROF_MODULE_INSTALL_DIR})
  endif()
  if(NOT CMAKE_CROSSCOMPILING)
    install(FILES ${_cli_share}/tpuprof.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
            RENAME tpuprof)
    install(FILES ${_cli_share}/_tpuprof DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
    if(TPUPROF_HELP2MAN)
      install(FILES ${_cli_share}/tpuprof.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
    endif()
  endif()
endif()

# Tests: install into a prefix, render the installed man page, complete in bash.
if(TPUPROF_BUILD_TESTS AND TPUPROF_INSTALL AND NOT CMAKE_CROSSCOMPILING)
  set(_pfx ${CMAKE_CURRENT_BINARY_DIR}/cli_install)
  add_test(NAME cli.install COMMAND ${CMAKE_COMMAND} --install ${PROJECT_BINARY_DIR} --prefix ${_pfx})
  set_tests_properties(cli.install PROPERTIES FIXTURES_SETUP tpuprof_cli_installed)
  add_test(NAME cli.installed_binary COMMAND ${_pfx}/${CMAKE_INSTALL_BINDIR}/tpuprof --version)
  set_tests_properties(cli.installed_binary PROPERTIES FIXTURES_REQUIRED tpuprof_cli_installed
    PASS_REGULAR_EXPRESSION "^tpuprof [0-9]")
  if(TPUPROF_WITH_SQLITE AND TPUPROF_WITH_XLSX)  # the installed CLI finds its modules
    add_test(NAME cli.installed_modules COMMAND sh -c
      "d=${CMAKE_CURRENT_BINARY_DIR}/cli_install_run && rm -rf $d && t=${_pfx}/${CMAKE_INSTALL_BINDIR}/tpuprof && $t synth -q --chip aks --records 50 -o $d/in && $t convert -q --sqlite --xlsx -o $d/out $d/in && test -s $d/out/trace.sqlite && test -s $d/out/perfdoc.xlsx && echo modules ok")
    set_tests_properties(cli.installed_modules PROPERTIES FIXTURES_REQUIRED tpuprof_cli_installed
      PASS_REGULAR_EXPRESSION "modules ok")
  endif()
  add_test(NAME cli.completion.bash
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/cli/completion_test.sh
            ${_pfx}/${CMAKE_INSTALL_DATADIR}/bash-completion/completions/tpuprof)
  set_tests_properties(cli.completion.bash PROPERTIES FIXTURES_REQUIRED tpuprof_cli_installed
    PASS_REGULAR_EXPRESSION "completion ok")
  find_program(TPUPROF_ZSH zsh)
  if(TPUPROF_ZSH)  # parses (zsh -n); completing needs an interactive zsh
    add_test(NAME cli.completion.zsh_syntax
      COMMAND ${TPUPROF_ZSH} -n ${_pfx}/${CMAKE_INSTALL_DATADIR}/zsh/site-functions/_tpuprof)
    set_tests_properties(cli.completion.zsh_syntax PROPERTIES FIXTURES_REQUIRED tpuprof_cli_installed)
  endif()
  find_program(TPUPROF_MAN man)
  if(TPUPROF_HELP2MAN AND TPUPROF_MAN)
    add_test(NAME cli.man_page
      COMMAND sh ${PROJECT_SOURCE_DIR}/tests/cli/man_test.sh
              ${_pfx}/${CMAKE_INSTALL_MANDIR}/man1/tpuprof.1)
    set_tests_properties(cli.man_page PROPERTIES FIXTURES_REQUIRED tpuprof_cli_installed
      PASS_REGULAR_EXPRESSION "man page ok")
  endif()
endif()
