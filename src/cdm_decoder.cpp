// Compiled mode (TPUPROF_COMPILED_LIB): the SG2260-family decoders, compiled
// once; include/tpuprof/detail/extern_templates.hpp declares them extern.
#include <tpuprof/detail/extern_templates.hpp>

template class tpuprof::cdm::cdm_decoder<tpuprof::chips::aks>;
template class tpuprof::cdm::cdm_decoder<tpuprof::chips::aksv>;
