/// Op names shared by several chips' TIU ISAs (tpu-mlir opdef names), kept
/// once here so chip folders do not copy each other.
#pragma once

#include <array>
#include <string_view>

namespace tpuprof::chips::common {

/// VC (vector-correlation) ops by tsk_eu_typ; empty = none. Identical on
/// BM1684X and the SG2260 family.
inline constexpr std::array<std::string_view, 24> vc_op_names{"vc.mul",
                                                              "",
                                                              "vc.add",
                                                              "vc.sub",
                                                              "vc.max",
                                                              "vc.min",
                                                              "",
                                                              "vc.and",
                                                              "vc.or",
                                                              "vc.xor",
                                                              "vc.select_gt",
                                                              "vc.select_eq",
                                                              "vc.div",
                                                              "vc.select_lt",
                                                              "",
                                                              "vc.add_satu",
                                                              "vc.sub_satu",
                                                              "",
                                                              "",
                                                              "",
                                                              "vc.mul_satu",
                                                              "",
                                                              "",
                                                              "vc.mulDHR"};

}  // namespace tpuprof::chips::common
