# A clone without ../shared must build: the test files that use the samples
# (#ifdef TPUPROF_SAMPLES_DIR) compiled once more without them, with the same
# warnings (-Werror), so an unused helper outside the #ifdef fails a test here
# instead of a user's build. Built only by the ctest below (EXCLUDE_FROM_ALL).
# Included from tests/CMakeLists.txt after tpuprof_tests is defined.
set(_no_samples_srcs)
foreach(src IN LISTS _tests)
  file(READ "${src}" _text)
  string(FIND "${_text}" "TPUPROF_SAMPLES_DIR" _at)
  if(NOT _at EQUAL -1)
    list(APPEND _no_samples_srcs "${src}")
  endif()
endforeach()
if(_no_samples_srcs)
  if(TPUPROF_UNITY_TESTS)
    tpuprof_unity_batches(_no_samples_srcs ${CMAKE_CURRENT_BINARY_DIR}/unity_no_samples 23
                          ${_no_samples_srcs})
  endif()
  add_library(tpuprof_tests_no_samples OBJECT EXCLUDE_FROM_ALL ${_no_samples_srcs})
  target_link_libraries(tpuprof_tests_no_samples PRIVATE ${TPUPROF_OWN_LIB} doctest::doctest)
  target_include_directories(tpuprof_tests_no_samples PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(tpuprof_tests_no_samples PRIVATE
    TPUPROF_TEST_TMP="${CMAKE_CURRENT_BINARY_DIR}/tmp" TPUPROF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  tpuprof_enable_warnings(tpuprof_tests_no_samples)
  # A compile check, never linked or run: no sanitizers or debug info.
  target_compile_options(tpuprof_tests_no_samples PRIVATE -fno-sanitize=all -g0)
  add_test(NAME build.tests_without_samples
    COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --target tpuprof_tests_no_samples)
  # The longest test (a compile, ~2 min in CI): ctest -j starts it first, so
  # it runs beside the others instead of after them.
  set_tests_properties(build.tests_without_samples PROPERTIES COST 1000)
endif()
