/// chips::all: every chip tpuprof supports, for runtime dispatch
/// (with_chip(chips::all{}, name, f), detect_dump(files, chips::all{})).
#pragma once

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/chips/bm1688/traits.hpp>
#include <tpuprof/chips/cv184x/traits.hpp>

namespace tpuprof::chips {

/// The supported chips, in the order messages list them.
using all = chip_list<bm1684x, aks, aksv, bm1688, cv184x>;

}  // namespace tpuprof::chips
