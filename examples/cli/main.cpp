// tpuprof: the command-line tool built on the library (subcommands via CLI11).
// Each subcommand lives in its own file; this one parses, dispatches and maps
// exceptions to exit codes.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

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
  sc->add_option("-j,--threads", o.threads,
                 "dumps of a parent directory decoded at once (default: all hardware threads)")
      ->check(CLI::Range(1u, 1024u));
  sc->add_option(
        "--time-base", o.time_base,
        "vendor (as the vendor tools; the default) or shared-counter (SG2260 bmodel dumps: "
        "GDMA/SDMA not re-phased onto TIU, see docs/chips/aks.md; the default of "
        "critical-path and whatif)")
      ->check(CLI::IsMember({"vendor", "shared-counter"}));
  sc->add_flag("--strict", o.strict,
               "exit 4 when the dump lost data (wraps are fine; lost records are not)");
}

}  // namespace cli

namespace {

/// Every spelling of the options of `a` ("-n", "--by", ...).
std::vector<std::string> option_names(const CLI::App& a) {
  std::vector<std::string> v;
  for (const CLI::Option* op : a.get_options()) {
    for (const auto& n : op->get_snames()) v.push_back("-" + n);
    for (const auto& n : op->get_lnames()) v.push_back("--" + n);
  }
  return v;
}

/// An option-looking word that is no negative number ("-1", "-0.5").
bool is_option_word(const std::string& w) {
  if (w.size() < 2 || w[0] != '-' || w == "--") return false;
  return !(std::isdigit(static_cast<unsigned char>(w[1])) || w[1] == '.');
}

/// Names an unknown subcommand or option of the command line with the closest
/// known one; nullopt when every word is known (CLI11's own message then).
std::optional<std::string> unknown_word(const CLI::App& app, int argc, char** argv) {
  const CLI::App* sc = nullptr;
  std::vector<std::string> subs;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
    subs.push_back(s->get_name());
  auto suggest = [](const std::string& what, const std::string& w, const std::string& where,
                    const std::string& near) {
    return what + " '" + w + "'" + where + (near.empty() ? "" : "; did you mean '" + near + "'?");
  };
  for (int i = 1; i < argc; ++i) {
    const std::string w = argv[i];
    if (w == "--") break;
    if (is_option_word(w)) {
      const std::string name = w.substr(0, w.find('='));
      if (app.get_option_no_throw(name) || (sc && sc->get_option_no_throw(name))) continue;
      auto names = option_names(app);
      if (sc)
        for (auto& n : option_names(*sc)) names.push_back(n);
      return suggest("unknown option", name, sc ? " for " + sc->get_name() : "",
                     cli::closest(name, names));
    }
    if (sc) continue;  // a positional or an option's value
    if (std::find(subs.begin(), subs.end(), w) == subs.end())
      return suggest("unknown subcommand", w, "", cli::closest(w, subs));
    sc = app.get_subcommand_ptr(w).get();
  }
  return std::nullopt;
}

}  // namespace

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
  // `tpuprof --completion bash|zsh`: the completion script, from the options and
  // subcommands registered above (the build installs its output; not in --help).
  if (argc == 3 && std::string(argv[1]) == "--completion") {
    const std::string shell = argv[2];
    if (shell != "bash" && shell != "zsh") {
      std::fprintf(stderr, "tpuprof: --completion: bash or zsh\n");
      return cli::usage;
    }
    std::fputs(cli::completion_script(app, shell).c_str(), stdout);
    return cli::ok;
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (auto w = unknown_word(app, argc, argv)) {
      std::fprintf(stderr, "tpuprof: %s\nRun with --help for more information.\n", w->c_str());
      return cli::usage;
    }
    app.exit(e);
    return cli::usage;
  }
  o.color = !no_color && std::getenv("NO_COLOR") == nullptr && ::isatty(2) && ::isatty(1);
  if (o.quiet) o.color = false;
  o.show_progress = !o.quiet && ::isatty(2);
  o.progress_color = !no_color && std::getenv("NO_COLOR") == nullptr;

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
