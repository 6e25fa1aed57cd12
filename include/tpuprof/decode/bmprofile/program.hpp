/// The static program of a subnet: its cmd_*.dat command buffers framed and decoded, and
/// each static node (global.profile's node lines) tied to its command: op names, function
/// names, layer, uArch rate and DMA direction (format notes §4, §5.2).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tpuprof/decode/bmprofile/blocks.hpp>
#include <tpuprof/decode/bmprofile/chip.hpp>
#include <tpuprof/decode/bmprofile/commands.hpp>
#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/decode/bmprofile/records.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/names.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof::bmprofile {

/// Per subnet: decoded commands in buffer order, and per static node its command and facts.
struct subnet_program {
  std::vector<regs::instruction> tiu_cmds, gdma_cmds;
  std::vector<const regs::instruction*> tiu_ins, gdma_ins;
  std::vector<node_facts> tiu_facts, gdma_facts;
};

/// Full descriptor decoding where the chip provides it (Chip::decode_command).
template <bmprofile_chip Chip>
void decode_commands(const io::byte_reader& r, engine eng,
                     const std::vector<framed_command>& framed, std::vector<regs::instruction>& out,
                     decode_diagnostics& diag) {
  out.clear();
  if constexpr (requires(std::span<const std::byte> d, regs::instruction& i) {
                  Chip::decode_command(eng, d, i);
                }) {
    out.resize(framed.size());
    std::uint64_t unsupported = 0;
    for (std::size_t k = 0; k < framed.size(); ++k) {
      const std::uint64_t off = framed[k].offset - r.base();
      if (off >= r.size()) continue;
      const auto st = Chip::decode_command(eng, r.bytes().subspan(off), out[k]);
      if (st != decltype(st)::ok) ++unsupported;
      if (st == decltype(st)::unknown_opcode || st == decltype(st)::truncated)
        out[k] = regs::instruction{};
    }
    if (unsupported)
      diag.add(diag::other, r.file(), r.base(),
               std::string(name(eng)) +
                   " descriptors the vendor's converters do not cover: no operands "
                   "or ops for them",
               unsupported);
  } else {
    (void)r;
    (void)eng;
    (void)framed;
    (void)diag;
  }
}

/// The command file of a buffer base and engine (0 TIU, 1 GDMA), with or without a core.
inline std::optional<io::byte_reader> find_command_file(const io::dump_files& files,
                                                        std::uint64_t base, int eng) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "cmd_%llx_%d.dat", static_cast<unsigned long long>(base), eng);
  if (auto r = files.find(buf)) return r;
  std::snprintf(buf, sizeof buf, "cmd_%llx_0_%d.dat", static_cast<unsigned long long>(base), eng);
  return files.find(buf);
}

/// Ties the static nodes of one engine to their framed and decoded commands.
template <bmprofile_chip Chip>
void attach_nodes(const subnet_info& subnet, const std::vector<node_info>& nodes,
                  const std::vector<framed_command>& cmds, bool tiu, subnet_program& prog,
                  name_table& names, const func_ids<Chip>& fids, const std::string& label,
                  decode_diagnostics& diag) {
  std::vector<name_id> ops, types;
  const auto& decoded = tiu ? prog.tiu_cmds : prog.gdma_cmds;
  auto& ins = tiu ? prog.tiu_ins : prog.gdma_ins;
  ins.assign(nodes.size(), nullptr);
  auto& facts = tiu ? prog.tiu_facts : prog.gdma_facts;
  facts.assign(nodes.size(), {});
  for (std::size_t k = 0; k < nodes.size(); ++k)
    if (nodes[k].layer >= 0)
      facts[k].layer_id = subnet.layers[static_cast<std::size_t>(nodes[k].layer)].layer_id;
  for (std::size_t k = 0; k < nodes.size() && k < decoded.size(); ++k)
    if (decoded[k].table) {
      ins[k] = &decoded[k];
      if (tiu) facts[k].uarch_rate = decoded[k].uarch_rate();
      facts[k].dir = decoded[k].dir;
    }
  if (!cmds.empty() && cmds.size() != nodes.size())
    diag.add(diag::other, label, decode_error::no_offset,
             std::string(tiu ? "TIU" : "GDMA") + ": " + std::to_string(cmds.size()) +
                 " commands framed for " + std::to_string(nodes.size()) + " node lines");
  ops.assign(nodes.size(), 0);
  types.assign(nodes.size(), 0);
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    if (k < cmds.size()) ops[k] = names.intern(cmds[k].frame.op);
    auto f = static_cast<std::size_t>(nodes[k].func);
    if (tiu) {
      if (f < Chip::bd_func_names.size() && !Chip::bd_func_names[f].empty())
        types[k] = fids.bd[f];
      else
        diag.add(diag::unknown_enum, label + "/global.profile", decode_error::no_offset,
                 "unknown bd_func " + std::to_string(nodes[k].func));
    } else {
      if (f < Chip::gdma_func_names.size())
        types[k] = fids.gdma[f];
      else
        diag.add(diag::unknown_enum, label + "/global.profile", decode_error::no_offset,
                 "unknown gdma_func " + std::to_string(nodes[k].func));
    }
  }
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    facts[k].op = ops[k];
    facts[k].op_type = types[k];
  }
}

/// Without node lines, the framed commands are the static list (a synthetic subnet).
inline std::unique_ptr<subnet_info> subnet_from_commands(std::int64_t sid,
                                                         const std::vector<framed_command>& tiu,
                                                         const std::vector<framed_command>& gdma) {
  auto s = std::make_unique<subnet_info>();
  s->subnet_id = sid;
  for (const auto& f : tiu)
    s->tiu_nodes.push_back(
        {f.frame.cmd_id, f.frame.dep_id, static_cast<int>(f.frame.type), -1, -1, 0});
  for (const auto& f : gdma)
    s->gdma_nodes.push_back(
        {f.frame.dep_id, f.frame.cmd_id, static_cast<int>(f.frame.type), -1, -1, 0});
  return s;
}

/// Loads the static program of the subnet an iteration ran: frames and decodes its command
/// buffers into `prog` and ties them to `subnet`'s nodes. Returns the subnet to use, which
/// is a new synthetic one (kept in `synthetic`) when the dump has no node lines for it.
template <bmprofile_chip Chip>
const subnet_info* load_program(const io::dump_files& files, const iter_blocks& ib,
                                const subnet_info* subnet, subnet_program& prog, name_table& names,
                                const func_ids<Chip>& fids,
                                std::vector<std::unique_ptr<subnet_info>>& synthetic,
                                decode_diagnostics& diag) {
  std::vector<framed_command> tiu_cmds, gdma_cmds;
  if (!ib.commands.empty()) {
    const auto& c = ib.commands[0];
    if (auto r = find_command_file(files, c.bd_base, 0)) {
      tiu_cmds = frame_commands<Chip>(*r, engine::tiu, c.bd_offset, c.bd_count, diag);
      decode_commands<Chip>(*r, engine::tiu, tiu_cmds, prog.tiu_cmds, diag);
    } else if (c.bd_count)
      diag.add(diag::missing_file, files.label(), decode_error::no_offset,
               "TIU command file missing: no op names");
    if (auto r = find_command_file(files, c.gdma_base, 1)) {
      gdma_cmds = frame_commands<Chip>(*r, engine::gdma, c.gdma_offset, c.gdma_count, diag);
      decode_commands<Chip>(*r, engine::gdma, gdma_cmds, prog.gdma_cmds, diag);
    } else if (c.gdma_count)
      diag.add(diag::missing_file, files.label(), decode_error::no_offset,
               "GDMA command file missing: no op names");
  }
  if (!subnet && (!tiu_cmds.empty() || !gdma_cmds.empty())) {
    synthetic.push_back(subnet_from_commands(ib.summary.subnet_id, tiu_cmds, gdma_cmds));
    subnet = synthetic.back().get();
  }
  if (subnet) {
    attach_nodes<Chip>(*subnet, subnet->tiu_nodes, tiu_cmds, true, prog, names, fids, files.label(),
                       diag);
    attach_nodes<Chip>(*subnet, subnet->gdma_nodes, gdma_cmds, false, prog, names, fids,
                       files.label(), diag);
  }
  return subnet;
}

}  // namespace tpuprof::bmprofile
