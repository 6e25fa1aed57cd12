/// The synthetic dump generators (tests, benchmarks, demos): dumps of every
/// supported chip with the events they encode. Entry header, outside the
/// umbrella tpuprof.hpp.
#pragma once

#include <tpuprof/synth/bm1684x_synth.hpp>
#include <tpuprof/synth/cdm_synth.hpp>
#include <tpuprof/synth/cdm_tiu_images.hpp>
#include <tpuprof/synth/dump_writer.hpp>
#include <tpuprof/synth/indexed_synth.hpp>
