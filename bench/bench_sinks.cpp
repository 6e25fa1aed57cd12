// Sink throughput over synthetic in-memory traces: events/s and bytes/event.
#include <cstdint>
#include <string>

#include <benchmark/benchmark.h>

#include <tpuprof/io/chrome_json_reader.hpp>
#include <tpuprof/sinks/chrome_json.hpp>
#include <tpuprof/sinks/csv.hpp>
#include <tpuprof/sinks/perfetto.hpp>

namespace {

// 4 cores x (TIU, GDMA), events grouped by track and in time order; every
// event has 3 annotations (TIU: cmd_id, uarch_rate, layer_id; GDMA: cmd_id,
// bytes, ddr_bandwidth_gbps). 50 distinct op names.
const tpuprof::materialized_trace& synthetic(std::size_t n) {
  static tpuprof::materialized_trace t;
  if (t.hw.size() == n) return t;
  t = {};
  t.meta.chip = "SG2260";
  tpuprof::name_id ops[50];
  for (int i = 0; i < 50; ++i) ops[i] = t.meta.names.intern("op.kind_" + std::to_string(i));
  std::uint64_t state = 12345;
  auto rnd = [&] {
    return (state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33;
  };
  std::size_t per_track = n / 8;
  for (std::uint8_t core = 0; core < 4; ++core)
    for (auto eng : {tpuprof::engine::tiu, tpuprof::engine::gdma}) {
      double ns = 1000;
      for (std::size_t i = 0; i < per_track; ++i) {
        tpuprof::engine_event e;
        e.unit = core;
        e.engine = eng;
        e.begin_ns = ns + double(rnd() % 64);
        e.end_ns = e.begin_ns + 100 + double(rnd() % 2000);
        ns = e.end_ns;
        e.begin_cycle = std::uint64_t(e.begin_ns);
        e.end_cycle = std::uint64_t(e.end_ns);
        e.cmd_id = std::uint32_t(i);
        e.op = ops[rnd() % 50];
        e.set_flag(tpuprof::engine_event::flag_matched);
        if (eng == tpuprof::engine::gdma) {
          e.bytes = 512 * (1 + rnd() % 256);
          e.set_flag(tpuprof::engine_event::flag_has_bytes);
        } else {
          e.uarch_rate = float(rnd() % 1000) / 1000.f;
          e.layer_id = std::int32_t(i / 100);
        }
        t.hw.push_back(e);
      }
      t.meta.tracks.push_back({0, core, eng, 1000, per_track, per_track});
    }
  t.meta.begin_ns = 1000;
  t.meta.end_ns = 1000 + double(per_track) * 1100;
  return t;
}

template <class Sink, class Opt>
void run_sink(benchmark::State& state, Opt opt) {
  const auto& t = synthetic(std::size_t(state.range(0)));
  std::string out;
  // Touch the output's pages once, outside the timed loop: otherwise the
  // first iteration (often the only one) pays ~100 ns/event of page faults.
  out.resize(std::size_t(state.range(0)) * 200);
  out.clear();
  for (auto _ : state) {
    out.clear();
    Sink s(out, opt);
    tpuprof::write_trace(t, s);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(t.hw.size()));
  state.SetBytesProcessed(state.iterations() * std::int64_t(out.size()));
  state.counters["bytes_per_event"] = double(out.size()) / double(t.hw.size());
}

void BM_perfetto(benchmark::State& state) {
  tpuprof::sinks::perfetto_options o;
  o.counters = false;
  run_sink<tpuprof::sinks::perfetto_sink>(state, o);
}
void BM_perfetto_with_counters(benchmark::State& state) {
  run_sink<tpuprof::sinks::perfetto_sink>(state, tpuprof::sinks::perfetto_options{});
}
void BM_chrome_json(benchmark::State& state) {
  tpuprof::sinks::chrome_json_options o;
  o.counters = false;
  run_sink<tpuprof::sinks::chrome_json_sink>(state, o);
}
void BM_csv(benchmark::State& state) {
  run_sink<tpuprof::sinks::csv_sink>(state, tpuprof::sinks::csv_options{});
}
void BM_csv_summary(benchmark::State& state) {
  run_sink<tpuprof::sinks::csv_summary_sink>(state, tpuprof::sinks::csv_options{});
}

// A torch-profiler-like host trace: X events with args, M names.
// BM_host_import parses a std::string in place (it has simdjson's padding
// as spare capacity); BM_host_import_view passes a string_view, which
// makes the reader copy the text first.
template <bool View>
void host_import(benchmark::State& state) {
  std::string json = R"({"displayTimeUnit":"ms","traceEvents":[)";
  json += R"({"ph":"M","name":"process_name","pid":100,"tid":0,"args":{"name":"python"}})";
  for (std::int64_t i = 0; i < state.range(0); ++i) {
    json += R"(,{"ph":"X","cat":"cpu_op","name":"aten::linear_)" + std::to_string(i % 97) +
            R"(","pid":100,"tid":)" + std::to_string(100 + i % 4) + R"(,"ts":)" +
            std::to_string(1700000000000 + i * 3) + ".125,\"dur\":2.5," +
            R"("args":{"External id":)" + std::to_string(i) +
            R"(,"Input Dims":[[64,1024],[1024,1024]],"Input type":["float","float"]}})";
  }
  json += "]}";
  json.reserve(json.size() + 64);
  std::size_t spans = 0;
  for (auto _ : state) {
    auto h = View ? tpuprof::io::parse_chrome_json(std::string_view{json})
                  : tpuprof::io::parse_chrome_json(json);
    spans = h.spans.size();
    benchmark::DoNotOptimize(h.spans.data());
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(json.size()));
  state.SetItemsProcessed(state.iterations() * std::int64_t(spans));
  state.counters["json_bytes_per_span"] = double(json.size()) / double(spans);
}

void BM_host_import(benchmark::State& state) {
  host_import<false>(state);
}
void BM_host_import_view(benchmark::State& state) {
  host_import<true>(state);
}

}  // namespace

BENCHMARK(BM_perfetto)->Arg(2'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_perfetto_with_counters)->Arg(2'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chrome_json)->Arg(2'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_csv)->Arg(2'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_csv_summary)->Arg(2'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_host_import)->Arg(500'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_host_import_view)->Arg(500'000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
