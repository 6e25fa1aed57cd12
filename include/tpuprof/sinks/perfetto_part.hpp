/// perfetto_sink::part: the events of one unit (a core) formatted on a
/// worker thread from a copy of that unit's tracks, then joined into the
/// sink in unit order, which makes perfetto_sink a forkable_sink
/// (forkable_sink.hpp). Include it where cores are streamed in parallel
/// (tpuprof/stream.hpp does); the umbrella does not (compile budget).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/forkable_sink.hpp>
#include <tpuprof/sinks/detail/block_list.hpp>
#include <tpuprof/sinks/perfetto.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::sinks {

template <class Sink>
class perfetto_sink::basic_part {
 public:
  void write(const engine_event& e) { enc_->write(e); }

 private:
  friend class perfetto_sink;
  /// The formatted bytes: blocks the encoder filled in place (at a stable
  /// address: enc_ writes into it).
  std::unique_ptr<tpuprof::detail::block_list> bytes_;
  std::unique_ptr<Sink> enc_;
  std::vector<std::size_t> home_;       ///< the sink's index of enc_'s track k
  std::vector<std::uint64_t> written_;  ///< their write counts at fork
  std::uint64_t uuid0_ = 0;
  std::uint32_t counter0_ = 0;
};

template <class Info, class P>
P perfetto_sink::fork(std::uint8_t device, std::uint8_t unit, const Info& names) const {
  P p;
  p.bytes_ = std::make_unique<tpuprof::detail::block_list>();
  if (!pool_) pool_ = std::make_shared<tpuprof::detail::block_pool>();
  p.bytes_->pool = pool_;
  p.enc_ = std::unique_ptr<perfetto_sink>(new perfetto_sink(p.bytes_->hooks(), opt_));
  auto& c = *p.enc_;  // dependent: compiled only where used
  c.info_ = &names;
  c.shift_ = shift_;
  c.window_begin_ = window_begin_;
  c.window_ = window_;
  c.next_uuid_ = next_uuid_;
  c.next_seq_ = next_seq_;
  // No device/group tracks: a part that needs a new track is not used.
  c.counter_seq_ = counter_seq_;
  // This sink through a dependent type: the loop is compiled only where used.
  const auto& self = static_cast<const std::remove_reference_t<decltype(c)>&>(*this);
  const std::uint32_t unit_key = (std::uint32_t{device} << 8) | unit;
  for (const auto& [key, at] : self.index_)
    if ((key >> 8) == unit_key) {
      c.index_.emplace(key, c.tracks_.size());
      c.tracks_.push_back(self.tracks_[at]);
      p.home_.push_back(at);
      p.written_.push_back(self.tracks_[at].written);
    }
  p.uuid0_ = next_uuid_;
  p.counter0_ = counter_seq_ ? counter_seq_ : next_seq_;
  return p;
}

template <class P, class Events>
bool perfetto_sink::join(P&& p, Events events) {
  bool ok = p.enc_ && next_uuid_ == p.uuid0_ &&
            (counter_seq_ ? counter_seq_ : next_seq_) == p.counter0_ &&
            p.enc_->tracks_.size() == p.home_.size();
  for (std::size_t k = 0; ok && k < p.home_.size(); ++k)
    ok = tracks_[p.home_[k]].written == p.written_[k];
  if (!ok) {
    for (const auto& e : events) write(e);
    return false;
  }
  auto& c = *p.enc_;  // dependent: compiled only where used
  c.buf_.flush();
  for (std::size_t k = 0; k < p.home_.size(); ++k) tracks_[p.home_[k]] = std::move(c.tracks_[k]);
  next_uuid_ = c.next_uuid_;
  if (!counter_seq_ && c.counter_seq_) {
    counter_seq_ = c.counter_seq_;
    next_seq_ = c.next_seq_;
  }
  for (const auto& [b, n] : p.bytes_->full) buf_.pass({b.data(), n});
  p.bytes_->give_back();
  last_key_ = ~0u;
  return true;
}

static_assert(forkable_sink<perfetto_sink>);

}  // namespace tpuprof::sinks
