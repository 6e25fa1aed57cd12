// A small independent .pftrace reader for the tests: it knows only the wire
// format and Perfetto's import rules (interning per sequence, clock 64 deltas
// from the sequence's ClockSnapshot, BEGIN/END stacks per track).
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sink_test::pf {

struct field {
  std::uint32_t num;
  std::uint32_t wt;
  std::uint64_t v = 0;  // varint or fixed64 bits
  std::string_view b;   // length-delimited
};

inline std::uint64_t varint(std::string_view s, std::size_t& i) {
  std::uint64_t v = 0;
  for (int sh = 0; sh < 70; sh += 7) {
    if (i >= s.size()) throw std::runtime_error("truncated varint");
    auto c = static_cast<unsigned char>(s[i++]);
    v |= std::uint64_t(c & 0x7F) << sh;
    if (!(c & 0x80)) return v;
  }
  throw std::runtime_error("varint too long");
}

inline std::vector<field> fields(std::string_view s) {
  std::vector<field> out;
  std::size_t i = 0;
  while (i < s.size()) {
    auto key = varint(s, i);
    field f{std::uint32_t(key >> 3), std::uint32_t(key & 7), 0, {}};
    if (f.wt == 0) {
      f.v = varint(s, i);
    } else if (f.wt == 1) {
      if (i + 8 > s.size()) throw std::runtime_error("truncated fixed64");
      std::memcpy(&f.v, s.data() + i, 8);
      i += 8;
    } else if (f.wt == 2) {
      auto n = varint(s, i);
      if (i + n > s.size()) throw std::runtime_error("truncated bytes");
      f.b = s.substr(i, n);
      i += n;
    } else {
      throw std::runtime_error("bad wire type");
    }
    out.push_back(f);
  }
  return out;
}

inline double as_double(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

using value = std::variant<std::int64_t, double, std::string, bool>;

struct track {
  std::uint64_t uuid = 0, parent = 0;
  std::string name;
  bool counter = false;
  std::string unit;
  std::int64_t pid = -1, tid = -1;
};
struct slice {
  std::uint64_t track = 0;
  std::string name;
  std::int64_t ts = 0, dur = -1;
  std::vector<std::string> cats;
  std::map<std::string, value> args;
  std::vector<std::uint64_t> flows;  // flow_ids (field 47, fixed64)
};
struct counter {
  std::uint64_t track;
  std::int64_t ts;
  double v;
};
struct trace {
  std::map<std::uint64_t, track> tracks;
  std::vector<slice> slices;
  std::vector<counter> counters;
  std::size_t packets = 0;
};

inline trace read(std::string_view file) {
  struct seq_state {
    std::map<std::uint64_t, std::string> names, anames, strs;
    std::uint64_t def_track = 0;
    std::uint32_t def_clock = 0;
    bool have64 = false;
    std::int64_t ref = 0, base = 0, last = 0;
  };
  trace t;
  std::map<std::uint32_t, seq_state> seqs;
  std::map<std::uint64_t, std::vector<std::size_t>> open;  // per track
  for (const auto& pk : fields(file)) {
    if (pk.num != 1 || pk.wt != 2) throw std::runtime_error("not a Trace.packet");
    ++t.packets;
    auto pf = fields(pk.b);
    std::uint32_t sid = 0, clock = 0;
    std::uint64_t flags = 0;
    bool has_ts = false;
    std::uint64_t ts_raw = 0;
    for (auto& f : pf) {
      if (f.num == 10) sid = std::uint32_t(f.v);
      if (f.num == 13) flags = f.v;
      if (f.num == 58) clock = std::uint32_t(f.v);
      if (f.num == 8) has_ts = true, ts_raw = f.v;
    }
    auto& st = seqs[sid];
    if (flags & 1) st = seq_state{};
    for (auto& f : pf) {
      if (f.num == 59) {
        for (auto& d : fields(f.b)) {
          if (d.num == 58) st.def_clock = std::uint32_t(d.v);
          if (d.num == 11)
            for (auto& e : fields(d.b))
              if (e.num == 11) st.def_track = e.v;
        }
      } else if (f.num == 12) {
        for (auto& d : fields(f.b)) {
          std::uint64_t iid = 0;
          std::string s;
          for (auto& e : fields(d.b)) {
            if (e.num == 1) iid = e.v;
            if (e.num == 2) s = std::string(e.b);
          }
          (d.num == 2 ? st.names : d.num == 3 ? st.anames : st.strs)[iid] = s;
        }
      }
    }
    bool snapshot = false;
    for (auto& f : pf)
      if (f.num == 6) {
        snapshot = true;
        std::int64_t ref = 0, c64 = 0;
        for (auto& c : fields(f.b)) {
          std::uint64_t id = 0, v = 0;
          for (auto& e : fields(c.b)) {
            if (e.num == 1) id = e.v;
            if (e.num == 2) v = e.v;
          }
          if (id == 6) ref = std::int64_t(v);
          if (id == 64) c64 = std::int64_t(v), st.have64 = true;
        }
        st.ref = ref, st.base = st.last = c64;
      }
    if (snapshot) continue;
    std::int64_t ts = 0;
    std::uint32_t ck = clock ? clock : st.def_clock;
    if (has_ts) {
      if (ck == 64) {
        if (!st.have64) throw std::runtime_error("clock 64 without snapshot");
        st.last += std::int64_t(ts_raw);
        ts = st.ref + (st.last - st.base);
      } else {
        ts = std::int64_t(ts_raw);
      }
    }
    for (auto& f : pf) {
      if (f.num == 60) {
        track tr;
        for (auto& d : fields(f.b)) {
          if (d.num == 1) tr.uuid = d.v;
          if (d.num == 5) tr.parent = d.v;
          if (d.num == 2) tr.name = std::string(d.b);
          if (d.num == 8) {
            tr.counter = true;
            for (auto& e : fields(d.b))
              if (e.num == 6) tr.unit = std::string(e.b);
          }
          if (d.num == 3 || d.num == 4)
            for (auto& e : fields(d.b)) {
              if (e.num == 1) tr.pid = std::int64_t(e.v);
              if (e.num == 2) tr.tid = std::int64_t(e.v);
              if (e.num == 5 || e.num == 6) tr.name = std::string(e.b);
            }
        }
        t.tracks[tr.uuid] = tr;
      }
      if (f.num != 11) continue;
      if (!sid || !has_ts) throw std::runtime_error("track event without sequence id or timestamp");
      std::uint64_t type = 0, tu = st.def_track;
      slice s;
      double cv = 0;
      for (auto& d : fields(f.b)) {
        if (d.num == 9) type = d.v;
        if (d.num == 11) tu = d.v;
        if (d.num == 10) s.name = st.names.at(d.v);
        if (d.num == 23) s.name = std::string(d.b);
        if (d.num == 22) s.cats.emplace_back(d.b);
        if (d.num == 44) cv = as_double(d.v);
        if (d.num == 47 && d.wt == 1) s.flows.push_back(d.v);
        if (d.num == 4) {
          std::string key;
          value v;
          for (auto& a : fields(d.b)) {
            if (a.num == 1) key = st.anames.at(a.v);
            if (a.num == 10) key = std::string(a.b);
            if (a.num == 2) v = a.v != 0;
            if (a.num == 4) v = std::int64_t(a.v);
            if (a.num == 5) v = as_double(a.v);
            if (a.num == 6) v = std::string(a.b);
            if (a.num == 17) v = st.strs.at(a.v);
          }
          s.args["debug." + key] = v;
        }
      }
      if (!t.tracks.count(tu)) throw std::runtime_error("event on undeclared track");
      if (type == 4) {
        if (!t.tracks[tu].counter) throw std::runtime_error("counter on slice track");
        t.counters.push_back({tu, ts, cv});
      } else if (type == 1) {
        s.track = tu;
        s.ts = ts;
        open[tu].push_back(t.slices.size());
        t.slices.push_back(std::move(s));
      } else if (type == 2) {
        auto& o = open[tu];
        if (o.empty()) throw std::runtime_error("END without BEGIN");
        auto& b = t.slices[o.back()];
        if (ts < b.ts) throw std::runtime_error("END before BEGIN");
        b.dur = ts - b.ts;
        for (auto& [k, v] : s.args) b.args[k] = v;
        o.pop_back();
      }
    }
  }
  return t;
}

/// "TPU0 SG2260/Core 0/GDMA" style path of a track (names up the parent chain).
inline std::string track_path(const trace& t, std::uint64_t uuid) {
  std::string p;
  while (uuid) {
    const auto& tr = t.tracks.at(uuid);
    p = p.empty() ? tr.name : tr.name + "/" + p;
    uuid = tr.parent;
  }
  return p;
}

}  // namespace sink_test::pf
