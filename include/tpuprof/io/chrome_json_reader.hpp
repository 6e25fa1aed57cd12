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
      fail(bad_number_.empty() ? std::string_view(simdjson::error_message(e.error()))
                               : std::string_view(bad_number_));
    }
    close_open();
  }

  /// Fast path: the `traceEvents` array is parsed in chunks of about
  /// `chunk` bytes, each copied into one reused padded buffer as a small
  /// array and parsed by one reused parser, so the structural index and the
  /// text stay in cache and memory is bounded (the whole-document parse
  /// indexes 4 bytes per structural character of the whole file). The text
  /// before and after the array is checked by parsing it alone (a field
  /// `"traceEvents": []` in its place). Returns false on anything unusual or
  /// wrong; the caller then discards the output and calls run(), which
  /// reports errors with their offsets. Each element is parsed from the same
  /// bytes with the same code as in run(), so the results are equal.
  bool run_chunked(std::string_view json, std::size_t chunk = std::size_t{1} << 18) {
    const char* b = json.data();
    const std::size_t n = json.size();
    auto ws = [&](std::size_t i) {
      while (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) ++i;
      return i;
    };
    std::size_t i = ws(0);
    if (i >= n || n < 2 || (b[0] == '\x1F' && b[1] == '\x8B')) return false;
    const bool in_object = b[i] == '{';
    std::size_t arr = i;
    if (in_object) {
      // The first occurrences of the key that are the top-level one (the
      // same text may appear nested or inside strings before it).
      constexpr std::string_view key = "\"traceEvents\"";
      std::size_t k = i;
      for (int tries = 0;; ++tries) {
        k = json.find(key, k + 1);
        if (k == std::string_view::npos || tries == 8) return false;
        std::size_t c = ws(k + key.size());
        if (c >= n || b[c] != ':') continue;
        arr = ws(c + 1);
        if (arr < n && b[arr] == '[' && prefix_ok(json.substr(0, arr), k)) break;
      }
    }
    if (arr >= n || b[arr] != '[') return false;
    size_ = n;
    out_.spans.reserve(out_.spans.size() + n / 160);

    simdjson::ondemand::parser parser;
    // Elements sit one level higher in a chunk than inside {"traceEvents":[...]}.
    const std::size_t depth = simdjson::DEFAULT_MAX_DEPTH - (in_object ? 1 : 0);
    if (parser.allocate(chunk + 2, depth)) return false;
    std::string buf;
    std::size_t p = ws(arr + 1), arr_end = n;
    if (p < n && b[p] == ']') arr_end = p;
    std::size_t want = chunk;
    while (arr_end == n) {
      // p: start of an element (outside any string, depth 1 of the array).
      std::size_t cut = std::min(n, p + want);
      while (cut > p && cut < n && (static_cast<unsigned char>(b[cut]) & 0xC0) == 0x80) --cut;
      simdjson::ondemand::document doc;
      for (int tries = 0;; ++tries) {
        buf.assign(1, '[');
        buf.append(b + p, cut - p);
        buf.push_back(']');
        std::size_t len = buf.size();
        buf.append(simdjson::SIMDJSON_PADDING, '\0');
        if (len > parser.capacity() && parser.allocate(len, depth)) return false;
        if (!parser.iterate(simdjson::padded_string_view(buf.data(), len, buf.size())).get(doc))
          break;
        // Stage 1 failed: the cut is inside a string (or the text is bad).
        // Cut before the last quote; a few steps reach the string's start.
        if (cut == n || tries == 8) return false;
        std::size_t q = std::string_view(b + p, cut - p).rfind('"');
        if (q == std::string_view::npos || q == 0) return false;
        cut = p + q;
      }
      const char* base = buf.data() + 1;  // buf[1 + x] is b[p + x]
      std::size_t resume = p;             // where the next chunk starts
      bool at_separator = false;          // resume at ',' or ']' (else at an element)
      bool progress = false;
      try {
        simdjson::ondemand::array a = doc.get_array().value();
        for (auto item : a) {
          simdjson::ondemand::value v;
          if (item.get(v)) break;
          std::string_view tok = v.raw_json_token();
          resume = p + static_cast<std::size_t>(tok.data() - base), at_separator = false;
          event(v.get_object().value());
          const char* after = nullptr;
          if (doc.current_location().get(after)) break;
          resume = p + static_cast<std::size_t>(after - base), at_separator = true;
          progress = true;
        }
      } catch (const simdjson::simdjson_error&) {
        // The element at `resume` is cut by the chunk end, or bad: it is
        // parsed again at the start of the next, larger chunk.
        bad_number_.clear();
      }
      if (!progress) {
        if (cut == n) return false;  // a real error: run() reports it
        want *= 4;
        continue;
      }
      want = chunk;
      if (!at_separator) {
        p = resume;
        continue;
      }
      std::size_t j = ws(resume);
      if (j < n && b[j] == ']') {
        arr_end = j;
      } else if (j < n && b[j] == ',') {
        p = ws(j + 1);
        if (p >= n || b[p] == ']') return false;  // trailing comma: let run() decide
      } else {
        return false;
      }
    }
    if (!suffix_ok(json.substr(arr_end + 1), in_object)) return false;
    close_open();
    return true;
  }

 private:
  /// B without E: kept as zero-length spans at their start.
  void close_open() {
    for (auto& [k, stack] : open_)
      for (auto& s : stack) out_.spans.push_back(std::move(s));
  }

  /// `pre` is the text up to the `[` of `"traceEvents"` at offset `key_at`:
  /// true when it is a valid object head whose only top-level `traceEvents`
  /// key is that one (checked by parsing it with an empty array).
  static bool prefix_ok(std::string_view pre, std::size_t key_at) {
    simdjson::padded_string doc_text(std::string(pre) + "[]}");
    simdjson::ondemand::parser parser;
    bool hit = false;
    try {
      simdjson::ondemand::document doc = parser.iterate(doc_text);
      for (auto f_r : doc.get_object()) {
        simdjson::ondemand::field f;
        if (std::move(f_r).get(f)) return false;
        if (f.key().raw() == doc_text.data() + key_at + 1) {
          hit = true;
          for (auto e : f.value().get_array()) {
            (void)e;
            return false;
          }
        } else if (f.unescaped_key().value() == "traceEvents") {
          return false;
        }
      }
    } catch (const simdjson::simdjson_error&) {
      return false;
    }
    return hit;
  }

  /// `tail` is the text after the array's `]`: true when the document ends
  /// validly and has no further `traceEvents` (parsed with a dummy head).
  static bool suffix_ok(std::string_view tail, bool in_object) {
    simdjson::padded_string doc_text(std::string(in_object ? "{\"\":0" : "[]") + std::string(tail));
    simdjson::ondemand::parser parser;
    try {
      simdjson::ondemand::document doc = parser.iterate(doc_text);
      if (!in_object) {
        for (auto e : doc.get_array()) {
          (void)e;
          return false;
        }
        return true;
      }
      for (auto f_r : doc.get_object()) {
        simdjson::ondemand::field f;
        if (std::move(f_r).get(f)) return false;
        if (f.unescaped_key().value() == "traceEvents") return false;
      }
    } catch (const simdjson::simdjson_error&) {
      return false;
    }
    return true;
  }

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
      // A plain loop: find_first_of with a 2-character set calls memchr per byte.
      std::size_t end = 1;
      while (end < tok.size() && tok[end] != '"' && tok[end] != '\\') ++end;
      if (end < tok.size() && tok[end] == '"') return tok.substr(1, end - 1);
    }
    return v.get_string().value();
  }

  /// A number, or a string holding one (non-standard traces); anything else
  /// is an error that names the key (`bad_number_`), reported by run().
  double number(simdjson::ondemand::value v, std::string_view key) {
    if (v.type().value() == simdjson::ondemand::json_type::string) {
      std::string_view s = v.get_string().value();
      double d = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), d);
      if (r.ec == std::errc{} && r.ptr == s.data() + s.size()) return d;
      bad_number_ =
          "\"" + std::string(key) + "\" is not a number: \"" + std::string(s.substr(0, 32)) + "\"";
      throw simdjson::simdjson_error(simdjson::NUMBER_ERROR);
    }
    return v.get_double().value();
  }

  void events(simdjson::ondemand::array arr) {
    // Typical traces take 150-250 bytes per event: one allocation up front
    // (pages are only touched as spans arrive).
    out_.spans.reserve(out_.spans.size() + size_ / 160);
    for (auto item : arr) event(item.get_object().value());
  }

  /// One element of `traceEvents`. Its only effects before it completes are
  /// string pid/tid registrations, which a second pass over the same element
  /// finds already made (the chunked parse relies on that).
  void event(simdjson::ondemand::object obj) {
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
        ts = number(v, key);
      } else if (key == "dur") {
        dur = number(v, key);
        has_dur = true;
      } else if (key == "args" && (ph_.empty() || ph_ == "M")) {
        // Only M events use args (their "name"); once the phase is known to
        // be another one, args are skipped unread (no field-by-field walk).
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
    if (ph_.size() != 1) return;
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

  static std::uint64_t key(const host_span& s) noexcept {
    return (std::uint64_t{s.pid} << 32) | s.tid;
  }

  std::string source_;
  std::string bad_number_;  ///< why number() threw, for run()'s message
  host_trace& out_;
  simdjson::ondemand::document* doc_ = nullptr;
  const char* base_ = nullptr;
  std::size_t size_ = 0;
  std::string ph_;
  std::map<std::uint64_t, std::vector<host_span>> open_;
  std::map<std::string, std::uint32_t> named_ids_;
};

/// The chunked parse of the `traceEvents` array, or, when it declines or
/// fails, `parse_whole(reader&)` on a fresh result (whose errors are the ones
/// callers see: same offsets and reasons as without chunking).
template <class Whole>
host_trace parse_with_fallback(std::string_view json, std::string_view source,
                               Whole&& parse_whole) {
  host_trace out;
  out.source = std::string(source);
  if (reader(source, out).run_chunked(json)) return out;
  out = host_trace{};
  out.source = std::string(source);
  reader r(source, out);
  parse_whole(r);
  return out;
}

}  // namespace detail_json

/// Parses Chrome JSON text (`{"traceEvents":[...]}` or a bare array) into
/// host spans on the host clock (ns). `X` and matched `B`/`E` become spans;
/// `M` process_name/thread_name become names; other phases are ignored.
/// Throws decode_error(source, byte offset, reason) on malformed JSON.
inline host_trace parse_chrome_json(std::string_view json, std::string_view source = "<memory>") {
  return detail_json::parse_with_fallback(json, source, [&](detail_json::reader& r) {
    simdjson::padded_string padded(json);
    r.run(padded);
  });
}

/// Same for a std::string. The usual `traceEvents` array is read in
/// chunks without copying the whole text; otherwise (and for any error) the
/// whole document is parsed, in place when the string has simdjson's
/// padding (64 bytes) as spare capacity, copied otherwise.
template <class S>
  requires std::same_as<S, std::string>
inline host_trace parse_chrome_json(const S& json, std::string_view source = "<memory>") {
  if (json.capacity() - json.size() < simdjson::SIMDJSON_PADDING)
    return parse_chrome_json(std::string_view{json}, source);
  return detail_json::parse_with_fallback(
      json, source, [&](detail_json::reader& r) { r.run(simdjson::padded_string_view(json)); });
}

/// Reads a Chrome JSON file; gzip is not supported (decode_error says so).
/// Throws decode_error for a missing file or malformed JSON.
inline host_trace read_chrome_json(const std::filesystem::path& file) {
  const std::string source = file.string();
  simdjson::padded_string padded;
  if (auto err = simdjson::padded_string::load(source).get(padded))
    throw decode_error(source, decode_error::no_offset,
                       std::string("cannot read: ") + simdjson::error_message(err));
  return detail_json::parse_with_fallback(padded, source,
                                          [&](detail_json::reader& r) { r.run(padded); });
}

}  // namespace tpuprof::io
