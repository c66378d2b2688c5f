#include "core/standard_output.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace kmini {

std::string standard_output_lost(std::ostream& out) {
  errno = 0;
  out.flush();
  if (out.good() && std::fflush(stdout) == 0 && !std::ferror(stdout)) return "";
  return errno != 0 ? std::strerror(errno) : "a write failed";
}

}  // namespace kmini
