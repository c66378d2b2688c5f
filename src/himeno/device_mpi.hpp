// Whether MPI may be handed pointers to the default execution space's memory.
#pragma once

#include <string>

namespace kmini::himeno {

// Empty when it may (host memory, or a CUDA-aware MPI), else why not.
std::string device_pointers_unsupported();

}  // namespace kmini::himeno
