// Kokkos renamed command-line flags between the versions kmini builds with (3.4.01 to 5.x):
// 3.7 introduced --kokkos-num-threads for --kokkos-threads, and 4.3 removed the old spelling,
// so each version ignores (with a warning) one of the two. kmini takes either and hands Kokkos
// the spelling its version knows.
#pragma once

#include <string>
#include <vector>

namespace kmini {

// `args` (--kokkos-... flags) respelled for the Kokkos of version `kokkos_version`, which is
// written as KOKKOS_VERSION is (30401 for 3.4.01). Flags not renamed pass unchanged.
std::vector<std::string> respelled_for_kokkos(const std::vector<std::string>& args,
                                              int kokkos_version);

}  // namespace kmini
