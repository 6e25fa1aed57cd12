/// command_dep: what a hardware command waits for, as its descriptor says
/// (cmd_id_dep, sync messages). Core vocabulary: decoders fill it from the chip's
/// bit layout (chips/), algo::dependency_graph resolves it to events.
#pragma once

#include <concepts>
#include <cstdint>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>

namespace tpuprof {

/// Role of a command in a message (send_msg / wait_msg, SDMA/CDMA sys send/wait).
enum class sync_role : std::uint8_t { none = 0, send, wait };

/// The dependency fields of one command's descriptor. Kept beside the events
/// (engine_event stays 64 B): trace::dependency(e).
struct command_dep {
  /// This command's own id as other commands' wait_id name it (the descriptor's
  /// cmd_id where it has one, e.g. BM1684X: PMU inst_id + 1; else the 1-based
  /// command number the chip's ids count), modulo 2^id_bits.
  std::uint32_t self_id = 0;
  /// self_id of the command on `on` (same device and core) this one waits
  /// for; 0 = none.
  std::uint32_t wait_id = 0;
  /// Message id of a send/wait sync command (role != none).
  std::uint32_t msg_id = 0;
  /// Engine whose command `wait_id` names.
  engine on = engine::gdma;
  /// Width of the id field: ids wrap at 2^id_bits (0 = not wrapped).
  std::uint8_t id_bits = 0;
  sync_role role = sync_role::none;
  /// The descriptor was decoded: false means "no dependency data" (SG2260
  /// modes 0/1, unmatched records), never "no dependency".
  bool known = false;

  constexpr bool waits() const noexcept { return known && wait_id != 0; }
};

/// Anything that tells the dependency fields of an event's command:
/// `src.dependency(e)` (command_dep::known false when it cannot).
template <class P>
concept dependency_source = requires(const P& src, const engine_event& e) {
  { src.dependency(e) } -> std::convertible_to<command_dep>;
};

}  // namespace tpuprof
