// libFuzzer target: raw command descriptors. First byte picks the engine
// (even: TIU, odd: GDMA); the rest is decoded as a command buffer, command by
// command, with the BM1684X tables, and read field by field with the AKS and
// AKSV tables, and converted (operands, memory ranges, ops) by the SG2260-family ISA
// (chips/sg2260/isa.hpp) for both chips. Decoding must never crash, whatever the bytes.
#include <cstddef>
#include <cstdint>
#include <span>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/detail/extern_templates.hpp>  // compiled mode: descriptor decoding from tpuprof_compiled

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const auto eng = (data[0] & 1) ? tpuprof::engine::gdma : tpuprof::engine::tiu;
  std::span<const std::byte> buf(reinterpret_cast<const std::byte*>(data + 1), size - 1);
  std::uint64_t sum = 0;
  std::size_t off = 0;
  for (int n = 0; n < 64 && off < buf.size(); ++n) {
    tpuprof::regs::instruction ins;
    const auto st = tpuprof::chips::bm1684x::decode_command(eng, buf.subspan(off), ins);
    for (const auto& m : ins.memory) sum += m.address ^ m.size ^ m.data_size;
    if (ins.alg_ops) sum += static_cast<std::uint64_t>(*ins.alg_ops);
    sum += static_cast<std::uint64_t>(ins.uarch_rate() > 0.5f);
    if (st == tpuprof::regs::bm1684x_isa::decode_status::truncated ||
        st == tpuprof::regs::bm1684x_isa::decode_status::unknown_opcode || ins.length == 0)
      break;
    off += ins.length;
  }
  const auto pick = static_cast<std::size_t>(data[0] >> 1);
  const auto& aks = tpuprof::regs::aks::all_tables;
  const auto& aksv = tpuprof::regs::aksv::all_tables;
  for (const auto* t : {aks[pick % aks.size()], aksv[pick % aksv.size()]}) {
    tpuprof::regs::reg_view v(t, buf);
    for (const auto& f : t->fields) sum += v.get(f.name);
  }
  auto convert = [&]<class Chip>() {
    tpuprof::regs::instruction ins;
    (void)Chip::decode_descriptor(eng, buf, ins);
    for (const auto& m : ins.memory) sum += m.address ^ m.size ^ m.data_size;
    if (ins.arch_ops) sum += static_cast<std::uint64_t>(*ins.arch_ops);
    sum += static_cast<std::uint64_t>(Chip::descriptor_ops(buf).uarch_rate() > 0.5f);
  };
  convert.template operator()<tpuprof::chips::aks>();
  convert.template operator()<tpuprof::chips::aksv>();
  volatile std::uint64_t sink = sum;
  (void)sink;
  return 0;
}
