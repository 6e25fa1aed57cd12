// tpuprof: the command-line tool built on the library (subcommands via CLI11).
// Each subcommand lives in its own file; this one parses, dispatches and maps
// exceptions to exit codes.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/chips/all.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/version.hpp>

#include "cli.hpp"
#include "validators.hpp"

namespace {

/// The subcommands, in --help order (subcommands.def: adding one is its file
/// and one line there).
constexpr cli::register_fn subcommands[] = {
#define TPUPROF_SUBCOMMAND(name) cli::register_##name,
#include "subcommands.def"
#undef TPUPROF_SUBCOMMAND
};

}  // namespace

namespace cli {

void add_common(CLI::App* sc, common_options& o) {
  sc->add_option("dir", o.input, "dump directory (global.profile inside), or a parent of several")
      ->required();
  sc->add_option("--chip", o.chip,
                 tpuprof::chips_help(tpuprof::chips::all{}) + "; default: from global.profile")
      ->check(CLI::IsMember(tpuprof::chip_names(tpuprof::chips::all{})));
  sc->add_option("--tiu-freq,--tiu_freq", o.tiu_freq_mhz, "TIU clock in MHz (overrides the dump)")
      ->check(clock_mhz);
  sc->add_option("--dma-freq,--dma_freq", o.dma_freq_mhz, "DMA clock in MHz (overrides the dump)")
      ->check(clock_mhz);
  sc->add_option("--num-core,--num_core", o.num_core, "keep only cores 0..N-1")->check(core_count);
  sc->add_flag("--strict", o.strict,
               "exit 4 when the dump lost data (wraps are fine; lost records are not)");
}

}  // namespace cli

int main(int argc, char** argv) {
  CLI::App app{"tpuprof: timelines, tables and answers from Sophgo TPU hardware profiles"};
  app.set_version_flag("--version", std::string("tpuprof ") + tpuprof::version_string +
                                        "\nchips: " + tpuprof::chips_help(tpuprof::chips::all{}));
  app.require_subcommand(1);
  app.fallthrough();  // -q and --no-color also after the subcommand
  cli::common_options o;
  bool no_color = false;
  app.add_flag("-q,--quiet", o.quiet, "no progress, no chatter on stdout");
  app.add_flag("--no-color", no_color, "no colours (also: NO_COLOR set)");

  std::vector<cli::subcommand> commands;
  for (auto reg : subcommands) commands.push_back(reg(app, o));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return cli::usage;
  }
  o.color = !no_color && std::getenv("NO_COLOR") == nullptr && ::isatty(2) && ::isatty(1);
  if (o.quiet) o.color = false;

  try {
    for (const auto& c : commands)
      if (*c.app) return c.run();
  } catch (const tpuprof::decode_error& e) {
    std::fprintf(stderr, "tpuprof: %s\n", e.what());
    return cli::bad_input;
  } catch (const tpuprof::io::output_error& e) {
    std::fprintf(stderr, "tpuprof: %s\n", e.what());
    return cli::io_error;
  } catch (const std::filesystem::filesystem_error& e) {
    std::fprintf(stderr, "tpuprof: %s\n", e.what());
    return cli::io_error;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "tpuprof: %s\n", e.what());
    return cli::usage;
  }
  return cli::ok;
}
