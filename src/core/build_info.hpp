// How this binary was built, for --version and the report's meta section.
#pragma once

#include <string>

namespace kmini {

struct BuildInfo {
  std::string version;
  std::string git_revision;  // `git describe --always --dirty` at build time
  std::string preset;        // the CMake preset, or "custom"
  std::string build_type;
  std::string compiler;    // the host compiler, and nvcc where it compiled the device code
  long cxx_standard = 0;   // __cplusplus
  std::string sanitizers;  // empty when none
  std::string kokkos_version;
  std::string kokkos_patches;  // digest of the Kokkos patches (scripts/setup.sh's stamp), or "none"
  std::string kokkos_backends;  // "Cuda OpenMP Serial"
};

const BuildInfo& build_info();

}  // namespace kmini
