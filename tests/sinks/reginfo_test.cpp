// RegInfo files and the register columns of `csv --registers`: a hand-built
// DMA block, and the first BM1684X TIU command against its bytes read by hand.
#include <algorithm>
#include <string>

#include <doctest/doctest.h>

#include <tpuprof/decode.hpp>
#include <tpuprof/sinks/reginfo.hpp>
#include <tpuprof/sinks/register_fields.hpp>

using namespace tpuprof;

TEST_CASE("RegInfo: header and a DMA block without descriptor, line by line") {
  trace_info info;
  info.chip = "SG2260";
  info.cores = 8;
  info.tracks.push_back({0, 2, engine::tiu, 1000, 0, 0});
  info.tracks.push_back({0, 2, engine::sdma, 750, 0, 0});
  engine_event e;
  e.engine = engine::sdma;
  e.unit = 2;
  e.cmd_id = 7;
  e.begin_cycle = 100;
  e.end_cycle = 299;  // 200 cycles as the vendor counts them (end - start + 1)
  e.bytes = 1000;
  e.set_flag(engine_event::flag_has_bytes);
  e.set_dir(direction::s2l);
  std::string out;
  sinks::reg_info_writer w(out, info, sinks::reg_info_kind::tdma);
  w.write(e, nullptr);
  w.write(e, nullptr);
  w.finish();
  const std::string block =
      "__TDMA_REG_INFO__\n\tmask_start_addr_h8: 0\n\tmask_start_addr_l32: 0\n"
      "\tdst_start_addr: 0\n\tsrc_start_addr: 0\n\tEngine Id: 3\n\tDirection: DDR->LMEM\n"
      "\tfrom_addr: DDR\n\tto_addr: LMEM\n\tFunction Type: \n\tFunction Name: \n"
      "\tStart Cycle: 100\n\tEnd Cycle: 299\n\tCmd Id: 7\n\tData Type: \n\tAsic Cycle: 200\n"
      "\tStall Cycle: 0\n\tDMA data size(B): 1000\n\tDDR Bandwidth(GB/s): 5\n"
      "\tL2M Bandwidth(GB/s): 0\n";
  CHECK(out ==
        "__CHIP_ARCH_ARGS__\n\tChip Arch: SG2260\n\tPlatform: ASIC\n\tCore Num: 8\n"
        "\tTIU Frequency(MHz): 1000\n\tDMA Frequency(MHz): 750\n" +
            block + "\tGlobal Idx: 0\n\tCore Id: 2\n" + block + "\tGlobal Idx: 1\n\tCore Id: 2\n");
}

TEST_CASE("register CSV columns: the header and an event without descriptor agree in count") {
  const std::string h = sinks::register_csv_header();
  std::string row;
  sinks::append_register_csv(row, nullptr);
  CHECK(std::count(h.begin(), h.end(), ',') == 72);
  CHECK(row == std::string(72, ','));
  CHECK(h.starts_with(",tsk_typ,tsk_eu_typ,cmd_short,cmd_id_dep,alg_ops,arch_ops,res0_mem,"));
}

#ifdef TPUPROF_SAMPLES_DIR
// The first TIU command of the BM1684X capture (cmd_12425c000_0_0.dat, offset
// 0), read by hand with xxd: 03 00 20 00 00 c6 a1 00 | 11 10 80 00 01 00 03 00
// | 80 00 80 00 00 00 01 00: bit 0 = 1 (short form sAR), cmd_id_dep (bits
// 21..40) = 1, tsk_typ (41..44) = 3, tsk_eu_typ (45..49) = 14, res0_n/c/h/w
// (bytes 12..19) = 1, 3, 128, 128, res0_addr (bytes 20..23) = 0x10000.
TEST_CASE("RegInfo and CSV register columns of a real BM1684X command match its bytes") {
  bmprofile_decoder<chips::bm1684x> d(io::dump_files::open_directory(
      std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1"));
  const engine_event& e = *d.events(engine::tiu).begin();
  const regs::instruction* ins = d.command(e);
  REQUIRE(ins != nullptr);
  REQUIRE(ins->raw.size() == 64);
  CHECK(sinks::register_field(*ins, "des_tsk_typ") == 3);
  CHECK(sinks::register_field(*ins, "des_res0_addr") == 0x10000);
  CHECK(!sinks::register_field(*ins, "tsk_typ"));  // TIU names carry des_
  std::string out;
  sinks::reg_info_writer w(out, d.info(), sinks::reg_info_kind::tiu);
  w.write(e, ins);
  w.finish();
  CHECK(out.find("__TIU_REG_INFO__\n\tFunction Name: arith.cast\n\tFunction Type: AR\n"
                 "\tStart Cycle: 30169\n\tEnd Cycle: 31202\n\tCmd Id: 0\n\tAsic Cycle: 1034\n"
                 "\tEngine Id: 0\n\tAlg Ops: 49152\n\tuArch Ops: 1048576\n\tuArch Rate: 4.7%\n"
                 "\tAlg Cycle: 0\n\tGlobal Idx: 0\n\tCore Id: 0\nAR:\n\tdes_cmd_short: 1\n") !=
        std::string::npos);
  CHECK(out.find("\tdes_cmd_id_dep: 1\n\tdes_tsk_typ: 3\n\tdes_tsk_eu_typ: 14\n") !=
        std::string::npos);
  CHECK(out.find("\tdes_res0_n: 1\n\tdes_res0_c: 3\n\tdes_res0_h: 128\n\tdes_res0_w: 128\n"
                 "\tdes_res0_addr: 65536\n") != std::string::npos);
  std::string row;
  sinks::append_register_csv(row, ins);
  // Decoded: the local-memory result at 0x8000000 + 0x10000, f16, 1x3x128x128.
  CHECK(row.starts_with(",3,14,1,1,49152,1048576,local,0x8010000,f16,1,3,128,128,"));
}
#endif
