/// sync_messages: where a chip's send / wait sync commands keep their message id
/// and count (TIU SYS send_msg / wait_msg, tsk_typ 15, eu 8 / 9; GDMA and SDMA
/// sys_send / sys_wait, cmd_type 6, special function 3 / 4). Each chip states its
/// layout (docs/registers.md, "Sync messages", names the vendor files).
#pragma once

#include <cstdint>
#include <string_view>

#include <tpuprof/command_dep.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/regs/reg_table.hpp>

namespace tpuprof::chips::common {

/// Bits of one register field (TIU `imm`, DMA `constant_value`) holding a message:
/// id = low `id_bits` | (`hi_bits` bits at `hi_at`) << id_bits; count = `cnt_bits` at `cnt_at`.
/// id_bits 0: the chip's form has no message id (the command's role is not decoded).
struct msg_field {
  unsigned id_bits = 0, hi_at = 0, hi_bits = 0, cnt_at = 0, cnt_bits = 0;
};

/// A chip's message layout: TIU SYS `imm`, DMA sys `constant_value`.
struct msg_layout {
  msg_field tiu, dma;
};

/// Fills out.sync / msg_id / msg_count of a decoded GDMA, SDMA or TIU command (`out.table`,
/// `out.raw`, `out.type`, `out.eu` set) from layout `m`; leaves them unset for every other
/// command and where the form has no such field.
inline void read_message(const msg_layout& m, regs::instruction& out) noexcept {
  if (!out.table) return;
  const bool tiu = out.eng == engine::tiu;
  if (!tiu && out.eng != engine::gdma && out.eng != engine::sdma) return;
  const unsigned sys_type = tiu ? 15 : 6, send = tiu ? 8 : 3;
  if (out.type != sys_type || (out.eu != send && out.eu != send + 1)) return;
  const msg_field& f = tiu ? m.tiu : m.dma;
  const std::string_view name = tiu ? "imm" : "constant_value";
  const regs::reg_view rv(out.table, out.raw);
  if (f.id_bits == 0 || !rv.has(name)) return;
  const std::uint64_t v = rv.get(name);
  auto bits = [v](unsigned at, unsigned n) {
    return n == 0 ? 0 : static_cast<std::uint32_t>((v >> at) & ((std::uint64_t{1} << n) - 1));
  };
  out.sync = out.eu == send ? sync_role::send : sync_role::wait;
  out.msg_id = bits(0, f.id_bits) | bits(f.hi_at, f.hi_bits) << f.id_bits;
  out.msg_count = bits(f.cnt_at, f.cnt_bits);
}

/// Writes message `id` and `count` into `v` (the field's value) in layout `f`: what a
/// compiler writes (the generators use it).
constexpr std::uint64_t message_value(const msg_field& f, std::uint32_t id,
                                      std::uint32_t count) noexcept {
  const std::uint64_t lo = id & ((std::uint64_t{1} << f.id_bits) - 1);
  const std::uint64_t hi = f.hi_bits ? (std::uint64_t{id} >> f.id_bits) : 0;
  return lo | hi << f.hi_at |
         (std::uint64_t{count} & ((std::uint64_t{1} << f.cnt_bits) - 1)) << f.cnt_at;
}

}  // namespace tpuprof::chips::common
