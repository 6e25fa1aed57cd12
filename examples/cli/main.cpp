// tpuprof: the command-line tool built on the library.
#include <cstdio>

#include <CLI/CLI.hpp>

#include <tpuprof/tpuprof.hpp>

int main(int argc, char** argv) {
  CLI::App app{"tpuprof: Sophgo TPU profile decoder"};
  app.set_version_flag("--version", std::string("tpuprof ") + tpuprof::version_string);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
