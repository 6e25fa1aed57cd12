/// Library version, as macros (read back by CMake) and as constants.
#pragma once

#define TPUPROF_VERSION_MAJOR 0
#define TPUPROF_VERSION_MINOR 1
#define TPUPROF_VERSION_PATCH 0
#define TPUPROF_VERSION \
  (TPUPROF_VERSION_MAJOR * 10000 + TPUPROF_VERSION_MINOR * 100 + TPUPROF_VERSION_PATCH)

namespace tpuprof {
/// "major.minor.patch", for --version and trace metadata.
inline constexpr const char* version_string = "0.1.0";
}  // namespace tpuprof
