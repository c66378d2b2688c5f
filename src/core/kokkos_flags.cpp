#include "core/kokkos_flags.hpp"

namespace kmini {

namespace {

struct Rename {
  const char* old_flag;
  const char* new_flag;
  int first_version_with_new;  // as KOKKOS_VERSION
};

// --kokkos-num-devices is known to 3.4 already; --kokkos-ndevices went with 4.3.
constexpr Rename kRenames[] = {
    {"--kokkos-threads", "--kokkos-num-threads", 30700},
    {"--kokkos-ndevices", "--kokkos-num-devices", 30400},
};

// `arg` with `from` replaced by `to` when it is that flag, alone or with "=VALUE".
bool respell(std::string& arg, const std::string& from, const std::string& to) {
  if (arg.compare(0, from.size(), from) != 0) return false;
  if (arg.size() > from.size() && arg[from.size()] != '=') return false;
  arg = to + arg.substr(from.size());
  return true;
}

}  // namespace

std::vector<std::string> respelled_for_kokkos(const std::vector<std::string>& args,
                                              int kokkos_version) {
  std::vector<std::string> out = args;
  for (std::string& arg : out) {
    for (const Rename& r : kRenames) {
      const bool has_new = kokkos_version >= r.first_version_with_new;
      if (respell(arg, has_new ? r.old_flag : r.new_flag, has_new ? r.new_flag : r.old_flag)) break;
    }
  }
  return out;
}

}  // namespace kmini
