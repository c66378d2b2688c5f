// Whether this build has the host backends that host-side variants run on: an empty string when
// it does, else the reason a variant gives for not being applicable.
#pragma once

#include <string>

namespace kmini {

std::string serial_backend_missing();
std::string openmp_backend_missing();

}  // namespace kmini
