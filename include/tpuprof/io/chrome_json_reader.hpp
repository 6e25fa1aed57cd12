/// chrome_json_reader: reads host spans from an external Chrome Trace Event
/// JSON file (tpudnn --trace_file, torch profiler, MegEngine
/// chrome_timeline.json). The only tpuprof header that includes simdjson.
#pragma once

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tpuprof/error.hpp>
#include <tpuprof/io/host_trace.hpp>

namespace tpuprof::io {

namespace detail_json {

/// Chrome µs (double) to ns the way Perfetto does it: integral values exactly,
/// others llround(us * 1000).
inline std::int64_t us_to_ns(double us) noexcept {
  if (!std::isfinite(us) || std::fabs(us) > 9.0e15) return 0;
  double t = std::trunc(us);
  if (t == us) return static_cast<std::int64_t>(t) * 1000;
  return static_cast<std::int64_t>(std::llround(us * 1000.0));
}

class reader {
 public:
  reader(std::string_view source, host_trace& out) : source_(source), out_(out) {}

  void run(simdjson::padded_string_view json) {
    if (json.size() >= 2 && static_cast<unsigned char>(json.data()[0]) == 0x1F &&
        static_cast<unsigned char>(json.data()[1]) == 0x8B)
      throw decode_error(source_, 0, "gzip-compressed trace: not supported, gunzip it first");
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    base_ = json.data();
    size_ = json.size();
    try {
      doc = parser.iterate(json);
      doc_ = &doc;
      auto type = doc.type().value();
      if (type == simdjson::ondemand::json_type::array) {
        events(doc.get_array().value());
      } else if (type == simdjson::ondemand::json_type::object) {
        bool found = false;
        for (auto field : doc.get_object()) {
          std::string_view key = field.unescaped_key().value();
          if (key == "traceEvents") {
            events(field.value().get_array().value());
            found = true;
          }
          // other keys (metadata, displayTimeUnit, ...) are skipped
        }
        if (!found) fail("object without a \"traceEvents\" array");
      } else {
        fail("top level must be an array or an object");
      }
    } catch (const simdjson::simdjson_error& e) {
      fail(simdjson::error_message(e.error()));
    }
    // B without E: keep as zero-length spans at their start.
    for (auto& [k, stack] : open_)
      for (auto& s : stack) out_.spans.push_back(std::move(s));
  }

 private:
  [[noreturn]] void fail(std::string_view reason) {
    std::uint64_t off = size_;
    if (doc_) {
      const char* p = nullptr;
      if (doc_->current_location().get(p) == simdjson::SUCCESS && p >= base_ && p <= base_ + size_)
        off = static_cast<std::uint64_t>(p - base_);
    }
    throw decode_error(source_, off, std::string("chrome json: ") + std::string(reason));
  }

  std::uint32_t id_of(simdjson::ondemand::value v, bool process, std::uint32_t pid) {
    switch (v.type().value()) {
      case simdjson::ondemand::json_type::number: {
        double d = v.get_double().value();
        return d >= 0 && d < 4294967296.0 ? static_cast<std::uint32_t>(d) : 0;
      }
      case simdjson::ondemand::json_type::string: {
        // Non-standard string pid/tid: a synthetic id, the string is its name.
        std::string s(v.get_string().value());
        auto [it, fresh] =
            named_ids_.try_emplace(s, 0x7F000000u + static_cast<std::uint32_t>(named_ids_.size()));
        if (fresh)
          (process ? out_.processes : out_.threads)
              .push_back({process ? it->second : pid, it->second, s});
        return it->second;
      }
      default:
        return 0;
    }
  }

  /// Key of `f`, read in place when it has no escapes (no copy through
  /// simdjson's string buffer).
  static std::string_view key_of(simdjson::ondemand::field& f) {
    const char* r = f.key().raw();
    const char* q = r;
    while (*q != '"' && *q != '\\') ++q;  // a key always ends with a quote
    if (*q == '"') return {r, static_cast<std::size_t>(q - r)};
    return f.unescaped_key().value();
  }
  /// String value `v`, read in place when it has no escapes; throws like
  /// get_string() when `v` is not a string.
  static std::string_view string_of(simdjson::ondemand::value& v) {
    std::string_view tok = v.raw_json_token();
    if (tok.size() >= 2 && tok[0] == '"') {
      std::size_t end = tok.find_first_of("\"\\", 1);
      if (end != std::string_view::npos && tok[end] == '"') return tok.substr(1, end - 1);
    }
    return v.get_string().value();
  }

  static double number(simdjson::ondemand::value v) {
    if (v.type().value() == simdjson::ondemand::json_type::string) {
      std::string_view s = v.get_string().value();
      double d = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), d);
      return r.ec == std::errc{} ? d : 0.0;
    }
    return v.get_double().value();
  }

  void events(simdjson::ondemand::array arr) {
    // Typical traces take 150-250 bytes per event: one allocation up front
    // (pages are only touched as spans arrive).
    out_.spans.reserve(out_.spans.size() + size_ / 160);
    for (auto item : arr) {
      simdjson::ondemand::object obj = item.get_object().value();
      ph_.clear();
      host_span s;
      bool has_tid = false, has_dur = false;
      double ts = 0, dur = 0;
      std::string meta_name;
      for (auto field_r : obj) {
        simdjson::ondemand::field field;
        if (auto err = std::move(field_r).get(field)) throw simdjson::simdjson_error(err);
        std::string_view key = key_of(field);
        simdjson::ondemand::value v = field.value();
        if (key == "ph") {
          ph_ = string_of(v);
        } else if (key == "name") {
          if (v.type().value() == simdjson::ondemand::json_type::string) s.name = string_of(v);
        } else if (key == "cat") {
          if (v.type().value() == simdjson::ondemand::json_type::string) s.cat = string_of(v);
        } else if (key == "pid") {
          s.pid = id_of(v, true, 0);
        } else if (key == "tid") {
          has_tid = true;
          s.tid = id_of(v, false, s.pid);
        } else if (key == "ts") {
          ts = number(v);
        } else if (key == "dur") {
          dur = number(v);
          has_dur = true;
        } else if (key == "args") {
          if (v.type().value() == simdjson::ondemand::json_type::object) {
            simdjson::ondemand::object args = v.get_object().value();  // must outlive the loop
            for (auto a_r : args) {
              simdjson::ondemand::field a;
              if (auto err = std::move(a_r).get(a)) throw simdjson::simdjson_error(err);
              std::string_view ak = key_of(a);
              simdjson::ondemand::value av = a.value();
              if (ak == "name" && av.type().value() == simdjson::ondemand::json_type::string)
                meta_name = std::string(string_of(av));
            }
          }
        }
      }
      if (!has_tid) s.tid = s.pid;
      if (ph_.size() != 1) continue;
      s.ts_ns = us_to_ns(ts);
      switch (ph_[0]) {
        case 'X':
          s.dur_ns = has_dur ? std::max<std::int64_t>(0, us_to_ns(dur)) : 0;
          out_.spans.push_back(std::move(s));
          break;
        case 'B':
          open_[key(s)].push_back(std::move(s));
          break;
        case 'E': {
          auto it = open_.find(key(s));
          if (it == open_.end() || it->second.empty()) break;  // unmatched E: ignored
          host_span b = std::move(it->second.back());
          it->second.pop_back();
          b.dur_ns = std::max<std::int64_t>(0, s.ts_ns - b.ts_ns);
          out_.spans.push_back(std::move(b));
          break;
        }
        case 'M':
          if (s.name == "process_name") out_.processes.push_back({s.pid, 0, std::move(meta_name)});
          if (s.name == "thread_name") out_.threads.push_back({s.pid, s.tid, std::move(meta_name)});
          break;
        default:
          break;  // counters, instants, flows: not host spans
      }
    }
  }
  static std::uint64_t key(const host_span& s) noexcept {
    return (std::uint64_t{s.pid} << 32) | s.tid;
  }

  std::string source_;
  host_trace& out_;
  simdjson::ondemand::document* doc_ = nullptr;
  const char* base_ = nullptr;
  std::size_t size_ = 0;
  std::string ph_;
  std::map<std::uint64_t, std::vector<host_span>> open_;
  std::map<std::string, std::uint32_t> named_ids_;
};

}  // namespace detail_json

/// Parses Chrome JSON text (`{"traceEvents":[...]}` or a bare array) into
/// host spans on the host clock (ns). `X` and matched `B`/`E` become spans;
/// `M` process_name/thread_name become names; other phases are ignored.
/// Throws decode_error(source, byte offset, reason) on malformed JSON.
inline host_trace parse_chrome_json(std::string_view json, std::string_view source = "<memory>") {
  host_trace out;
  out.source = std::string(source);
  simdjson::padded_string padded(json);
  detail_json::reader(source, out).run(padded);
  return out;
}

/// Same for a std::string: parsed in place, without copying the text, when
/// the string has simdjson's padding (64 bytes) as spare capacity (call
/// `json.reserve(json.size() + 64)` first); copied otherwise. Copying a
/// 100 MB trace costs about a third of its parse time.
template <class S>
  requires std::same_as<S, std::string>
inline host_trace parse_chrome_json(const S& json, std::string_view source = "<memory>") {
  if (json.capacity() - json.size() < simdjson::SIMDJSON_PADDING)
    return parse_chrome_json(std::string_view{json}, source);
  host_trace out;
  out.source = std::string(source);
  detail_json::reader(source, out).run(simdjson::padded_string_view(json));
  return out;
}

/// Reads a Chrome JSON file; gzip is not supported (decode_error says so).
/// Throws decode_error for a missing file or malformed JSON.
inline host_trace read_chrome_json(const std::filesystem::path& file) {
  host_trace out;
  out.source = file.string();
  simdjson::padded_string padded;
  if (auto err = simdjson::padded_string::load(file.string()).get(padded))
    throw decode_error(out.source, decode_error::no_offset,
                       std::string("cannot read: ") + simdjson::error_message(err));
  detail_json::reader(out.source, out).run(padded);
  return out;
}

}  // namespace tpuprof::io
