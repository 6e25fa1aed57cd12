// What the tpuprof subcommands share: loading through tpuprof::open, the
// --strict exit code, and small formatting helpers.
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include <fmt/core.h>
#include <fmt/format.h>

#include <tpuprof/open.hpp>

#include "cli.hpp"

using namespace tpuprof;

namespace cli {

common_options analysis_options(const common_options& o) {
  common_options a = o;
  if (a.time_base.empty()) a.time_base = "shared-counter";
  return a;
}

trace load(const common_options& o, progress& p, bool operands, bool dependencies) {
  open_options opt;
  opt.chip = o.chip;
  if (o.tiu_freq_mhz > 0) opt.tiu_freq_mhz = o.tiu_freq_mhz;
  if (o.dma_freq_mhz > 0) opt.dma_freq_mhz = o.dma_freq_mhz;
  opt.num_core = o.num_core > 0 ? static_cast<unsigned>(o.num_core) : 0;
  opt.threads = o.threads;
  opt.keep_operands = operands;
  opt.dependencies = dependencies;
  opt.time = parse_time_base(o.time_base).value_or(time_base::vendor);
  opt.on_dump = [&](const std::filesystem::path& dir, std::size_t i, std::size_t n) {
    p.set(fmt::format("decoding {} ({}/{})", dir.filename().string(), i + 1, n),
          n ? static_cast<double>(i) / static_cast<double>(n) : -1.0);
  };
  try {
    p.step("decoding " + o.input);
    auto t = open(o.input, opt);
    p.done();
    return t;
  } catch (const detect_error& e) {  // the CLI way to give the chip explicitly
    throw decode_error(e.file(), e.offset(),
                       e.reason() + "; use --chip " + cli_names(chips::all{}));
  }
}

int finish(const common_options& o, const trace& t) {
  return finish(o, t.diagnostics());
}

int finish(const common_options& o, const decode_diagnostics& d) {
  if (o.strict && d.data_loss()) {
    fmt::print(stderr, "tpuprof: decoded with data loss (--strict):");
    for (std::size_t i = 0; i < diag_count; ++i) {
      auto k = static_cast<diag>(i);
      if (is_data_loss(k) && d[k]) fmt::print(stderr, " {}={}", name(k), d[k]);
    }
    fmt::print(stderr, "\n");
    return data_loss;
  }
  return ok;
}

std::string json_str(std::string_view s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\r':
        o += "\\r";
        break;
      case '\t':
        o += "\\t";
        break;
      default:
        if (c < 0x20)
          o += fmt::format("\\u{:04x}", c);
        else
          o += static_cast<char>(c);
    }
  }
  return o + "\"";
}

std::string json_num(double v) {
  return std::isfinite(v) ? fmt::format("{}", v) : "null";
}

std::string num(double v, int prec) {
  if (!std::isfinite(v)) return "";
  return fmt::format("{:.{}f}", v, prec);
}

std::string json_engine(tpuprof::engine e) {
  std::string s(tpuprof::name(e));
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

std::string json_fixed(double v, int prec) {
  return std::isfinite(v) ? num(v, prec) : "null";
}

std::string op_text(const trace_info& i, const engine_event& e) {
  auto s = i.names[e.op];
  return s.empty() ? std::string("unknown") : std::string(s);
}

group_key parse_group_key(const std::string& by) {
  static const std::map<std::string, group_key> keys = {{"op", group_key::op},
                                                        {"op_type", group_key::op_type},
                                                        {"function", group_key::function},
                                                        {"layer", group_key::layer},
                                                        {"engine", group_key::engine},
                                                        {"core", group_key::core}};
  auto k = keys.find(by);
  if (k == keys.end())
    throw std::invalid_argument("unknown --by '" + by +
                                "' (op, op_type, function, layer, engine, core)");
  return k->second;
}

void print_table(const text_table& table) {
  fmt::print("{}", table.render(terminal_width()));
}

std::optional<double> parse_duration_ns(const std::string& s) {
  double v = 0;
  std::size_t used = 0;
  try {
    v = std::stod(s, &used);
  } catch (...) {
    return std::nullopt;
  }
  const std::string unit = s.substr(used);
  if (unit.empty() || unit == "ns") return v;
  if (unit == "us") return v * 1e3;
  if (unit == "ms") return v * 1e6;
  if (unit == "s") return v * 1e9;
  return std::nullopt;
}

}  // namespace cli
