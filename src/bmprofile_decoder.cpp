// Compiled mode (TPUPROF_COMPILED_LIB): the BM1684X-family decoders, compiled
// once; include/tpuprof/detail/extern_templates.hpp declares them extern.
#include <tpuprof/detail/extern_templates.hpp>

template class tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x>;
template class tpuprof::bmprofile_decoder<tpuprof::chips::bm1688>;
template class tpuprof::bmprofile_decoder<tpuprof::chips::cv184x>;
