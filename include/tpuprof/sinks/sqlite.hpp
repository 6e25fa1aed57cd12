/// sqlite_sink: a trace as an SQLite database (docs/sinks.md, "SQLite"): one
/// row per event and per span, the tracks, the dump's facts and diagnostics,
/// and (render only) a summary computed by algo::summary. Several dumps can go
/// into one database: every row carries its `run_id`, and `runs` says which
/// dump (source, chip, device count, call number) it came from.
///
/// Needs <sqlite3.h> and libsqlite3 (Debian: libsqlite3-dev); outside the
/// umbrella header. Link SQLite::SQLite3 (CMake) or `pkg-config sqlite3`.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <tpuprof/diagnostics.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/sinks/detail/sqlite_schema.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/track_layout.hpp>

namespace tpuprof::sinks {

struct sqlite_options {
  /// The dump's call number (`cdm_profile_data_devD-N` -> N); empty = taken
  /// from the source directory's name when it ends in "-N", else NULL.
  std::optional<long long> call;
  /// Free text stored in runs.label (e.g. a model name or a git revision).
  std::string label;
  /// The database is shared by several runs (`--sqlite-db`): never use the
  /// fast, non-durable settings, even when this run creates the file.
  bool shared = false;
  /// How long to wait for another writer's transaction on the same database.
  std::chrono::milliseconds busy_timeout{std::chrono::minutes(5)};
};

/// Writes into an SQLite database file (created when absent, appended to
/// otherwise) in one transaction: an exception before finish() rolls back,
/// so a failed run leaves the database as it was. Concurrent writers of one
/// database wait for each other (sqlite_options::busy_timeout). Only a file
/// this run creates and does not share gets synchronous=OFF (nothing to lose
/// but itself); an existing or shared database keeps SQLite's durable
/// defaults. Throws io::output_error.
class sqlite_sink {
 public:
  explicit sqlite_sink(const std::filesystem::path& file, sqlite_options opt = {})
      : file_(file.string()), opt_(std::move(opt)) {
    std::error_code ec;
    const bool fresh = !opt_.shared && !std::filesystem::exists(file, ec) && !ec;
    sqlite3* h = nullptr;
    const int rc =
        sqlite3_open_v2(file_.c_str(), &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    db_.reset(h);  // closed by db_ whatever follows
    if (rc != SQLITE_OK)
      throw io::output_error(file_ + ": cannot open: " + (h ? sqlite3_errmsg(h) : "out of memory"));
    const auto ms = opt_.busy_timeout.count();
    sqlite3_busy_timeout(db_.get(), ms > 0x7fffffff ? 0x7fffffff : static_cast<int>(ms));
    if (fresh) exec("PRAGMA journal_mode=DELETE; PRAGMA synchronous=OFF;");
    exec("BEGIN IMMEDIATE;");
    in_tx_ = true;
    exec(std::string(detail::sqlite_schema));
  }
  sqlite_sink(const sqlite_sink&) = delete;
  sqlite_sink& operator=(const sqlite_sink&) = delete;
  ~sqlite_sink() {
    for (sqlite3_stmt* s : {ev_, sp_}) sqlite3_finalize(s);
    if (in_tx_) sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
  }

  /// The run_id of this dump's rows (valid after begin()).
  long long run_id() const noexcept { return run_; }

  void begin(const trace_info& info) {
    info_ = &info;
    origin_ = track_layout(info).origin_ns;
    stmt s(*this,
           "INSERT INTO runs(source,chip,mode,devices,cores,call,label,begin_ns,end_ns,origin_ns) "
           "VALUES(?,?,?,?,?,?,?,?,?,?)");
    s.text(1, info.source).text(2, info.chip).text(3, info.mode);
    s.integer(4, info.devices).integer(5, info.cores);
    if (auto c = opt_.call ? opt_.call : call_from_source(info.source)) s.integer(6, *c);
    s.text(7, opt_.label).real(8, info.begin_ns - origin_).real(9, info.end_ns - origin_);
    s.real(10, origin_).run();
    run_ = sqlite3_last_insert_rowid(db_.get());
    for (const auto& [k, v] : info.properties) {
      stmt p(*this, "INSERT INTO run_properties(run_id,key,value) VALUES(?,?,?)");
      p.integer(1, run_).text(2, k).text(3, v).run();
    }
    for (const track& t : info.tracks) {
      stmt p(*this,
             "INSERT INTO tracks(run_id,device,core,port,engine,freq_mhz,records,events) "
             "VALUES(?,?,?,?,?,?,?,?)");
      p.integer(1, run_).integer(2, t.device);
      p.integer(t.eng == engine::cdma ? 4 : 3, t.unit);
      p.text(5, name(t.eng)).real(6, t.freq_mhz).integer(7, static_cast<long long>(t.records));
      p.integer(8, static_cast<long long>(t.events)).run();
    }
    prepare(ev_,
            "INSERT INTO events(run_id,device,core,port,engine,cmd_id,start_cycle,end_cycle,"
            "start_ns,end_ns,dur_ns,op,op_type,bytes,direction,ddr_gbps,l2m_gbps,uarch_rate,"
            "layer_id,function,grp,matched,invalid) "
            "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    prepare(sp_,
            "INSERT INTO spans(run_id,device,core,kind,name,start_cycle,end_cycle,start_ns,"
            "end_ns,dur_ns,layer_id,function,grp,cmd_id) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  }

  void write(const engine_event& e) {
    if (!ev_) throw io::output_error(file_ + ": write() before begin()");
    if (is_hardware(e.engine)) return event_row(e);
    stmt s(*this, sp_);
    s.integer(1, run_).integer(2, e.device).integer(3, e.unit).text(4, name(e.engine));
    s.text(5, text_of(e.op)).integer(6, as_ll(e.begin_cycle)).integer(7, as_ll(e.end_cycle));
    s.real(8, e.begin_ns - origin_).real(9, e.end_ns - origin_).real(10, e.dur_ns());
    if (e.layer_id >= 0) s.integer(11, e.layer_id);
    if (e.function) s.text(12, text_of(e.function));
    s.integer(13, e.group).integer(14, e.cmd_id).run();
  }

  /// Stores a summary computed by algo::summary (render only). `Report` is
  /// algo's summary_report; a template so this header stays below algo/.
  template <class Report>
  void write_summary(const Report& r) {
    for (const auto& c : r.cores) {
      stmt s(*this,
             "INSERT INTO summary(run_id,device,core,parallelism,total_ns,tiu_working_ratio,"
             "tiu_cycles,uarch_rate,gdma_working_cycles,gdma_ddr_gbps,gdma_l2_gbps,"
             "sdma_working_cycles,sdma_ddr_gbps,tiu_events,gdma_events,sdma_events) "
             "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
      s.integer(1, run_).integer(2, c.device).integer(3, c.core).real(4, c.parallelism());
      s.real(5, c.total_ns).real(6, c.tiu_working_ratio()).integer(7, as_ll(c.tiu_cycles));
      s.real(8, c.uarch_rate).integer(9, as_ll(c.gdma_working_cycles()));
      s.real(10, c.gdma_ddr_gbps()).real(11, c.gdma_l2_gbps());
      s.integer(12, as_ll(c.sdma_working_cycles())).real(13, c.sdma_ddr_gbps());
      s.integer(14, as_ll(c.tiu_events)).integer(15, as_ll(c.gdma_events));
      s.integer(16, as_ll(c.sdma_events)).run();
    }
  }

  void finish() {
    if (info_) {
      const decode_diagnostics& d = info_->diagnostics;
      for (std::size_t i = 0; i < diag_count; ++i) {
        const auto k = static_cast<diag>(i);
        if (!d[k]) continue;
        stmt s(*this, "INSERT INTO diagnostics(run_id,kind,count,data_loss) VALUES(?,?,?,?)");
        s.integer(1, run_).text(2, name(k)).integer(3, as_ll(d[k]));
        s.integer(4, is_data_loss(k) ? 1 : 0).run();
      }
      for (const auto& n : d.notes()) {
        stmt s(*this,
               "INSERT INTO diagnostic_notes(run_id,kind,file,offset,text) VALUES(?,?,?,?,?)");
        s.integer(1, run_).text(2, name(n.kind)).text(3, n.file);
        if (n.offset != ~std::uint64_t{0}) s.integer(4, as_ll(n.offset));
        s.text(5, n.text).run();
      }
    }
    exec("COMMIT");
    in_tx_ = false;
  }

 private:
  /// One bound statement; resets on destruction so a prepared one is reusable.
  class stmt {
   public:
    stmt(sqlite_sink& o, const char* sql) : o_(o), owned_(true) { o.prepare(s_, sql); }
    stmt(sqlite_sink& o, sqlite3_stmt* s) : o_(o), s_(s) {}
    ~stmt() {
      if (owned_) {
        sqlite3_finalize(s_);
      } else {
        sqlite3_reset(s_);
        sqlite3_clear_bindings(s_);
      }
    }
    stmt(const stmt&) = delete;
    stmt& operator=(const stmt&) = delete;
    stmt& integer(int i, long long v) { return check(sqlite3_bind_int64(s_, i, v)); }
    stmt& real(int i, double v) {
      return std::isfinite(v) ? check(sqlite3_bind_double(s_, i, v)) : *this;  // NaN -> NULL
    }
    stmt& text(int i, std::string_view v) {
      return check(sqlite3_bind_text64(s_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
    }
    void run() {
      if (sqlite3_step(s_) != SQLITE_DONE) o_.fail("insert");
    }

   private:
    stmt& check(int rc) {
      if (rc != SQLITE_OK) o_.fail("bind");
      return *this;
    }
    sqlite_sink& o_;
    sqlite3_stmt* s_ = nullptr;
    bool owned_ = false;
  };

  void event_row(const engine_event& e) {
    const bool cdma = e.engine == engine::cdma;
    stmt s(*this, ev_);
    s.integer(1, run_).integer(2, e.device).integer(cdma ? 4 : 3, e.unit);
    s.text(5, name(e.engine)).integer(6, e.cmd_id).integer(7, as_ll(e.begin_cycle));
    s.integer(8, as_ll(e.end_cycle)).real(9, e.begin_ns - origin_).real(10, e.end_ns - origin_);
    s.real(11, e.dur_ns()).text(12, e.op ? text_of(e.op) : std::string_view{"unknown"});
    if (e.op_type) s.text(13, text_of(e.op_type));
    if (e.has_bytes()) s.integer(14, as_ll(e.bytes));
    if (e.dir() != direction::none) s.text(15, name(e.dir()));
    const double bw = e.bandwidth_gbps();
    if (ddr_side(e.dir())) s.real(16, bw);
    if (l2_side(e.dir())) s.real(17, bw);
    s.real(18, e.uarch_rate);
    if (e.layer_id >= 0) s.integer(19, e.layer_id);
    if (e.function) s.text(20, text_of(e.function));
    s.integer(21, e.group).integer(22, e.matched() ? 1 : 0);
    s.integer(23, (e.dir_flags & engine_event::flag_invalid) ? 1 : 0).run();
  }

  /// Same split as csv_sink: L2-only transfers have no DDR bandwidth.
  static constexpr bool l2_side(direction d) noexcept {
    switch (d) {
      case direction::l2m:
      case direction::s2m:
      case direction::m2s:
      case direction::m2l:
      case direction::m2m:
      case direction::c2m:
        return true;
      default:
        return false;
    }
  }
  static constexpr bool ddr_side(direction d) noexcept {
    return !l2_side(d) || d == direction::s2m || d == direction::m2s;
  }

  static long long as_ll(std::uint64_t v) noexcept { return static_cast<long long>(v); }

  std::string_view text_of(name_id id) const noexcept {
    return info_ && id ? info_->names[id] : std::string_view{};
  }

  /// "cdm_profile_data_dev0-3" -> 3 (the vendor's CallNum); nullopt otherwise.
  static std::optional<long long> call_from_source(const std::string& source) {
    std::string leaf = std::filesystem::path(source).filename().string();
    if (leaf.empty()) leaf = std::filesystem::path(source).parent_path().filename().string();
    const auto dash = leaf.rfind('-');
    if (dash == std::string::npos || dash + 1 == leaf.size()) return std::nullopt;
    long long v = 0;
    for (std::size_t i = dash + 1; i < leaf.size(); ++i) {
      if (leaf[i] < '0' || leaf[i] > '9' || v > (1LL << 40)) return std::nullopt;
      v = v * 10 + (leaf[i] - '0');
    }
    return v;
  }

  void prepare(sqlite3_stmt*& s, const char* sql) {
    if (sqlite3_prepare_v2(db_.get(), sql, -1, &s, nullptr) != SQLITE_OK) fail("prepare");
  }
  void exec(const std::string& sql) {
    if (sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) fail("exec");
  }
  [[noreturn]] void fail(const char* what) {
    throw io::output_error(file_ + ": sqlite " + what + ": " + sqlite3_errmsg(db_.get()));
  }

  struct closer {
    void operator()(sqlite3* h) const noexcept { sqlite3_close_v2(h); }
  };

  std::string file_;
  sqlite_options opt_;
  std::unique_ptr<sqlite3, closer> db_;
  sqlite3_stmt* ev_ = nullptr;
  sqlite3_stmt* sp_ = nullptr;
  bool in_tx_ = false;
  const trace_info* info_ = nullptr;
  double origin_ = 0;
  long long run_ = 0;
};

}  // namespace tpuprof::sinks
