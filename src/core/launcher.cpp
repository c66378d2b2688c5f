#include "core/launcher.hpp"

#include <cstdlib>
#include <initializer_list>
#include <string>

namespace kmini {

namespace {

// The first of `variables` set to a non-empty value, or nullptr.
const char* first_set(std::initializer_list<const char*> variables) {
  for (const char* variable : variables) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') return value;
  }
  return nullptr;
}

}  // namespace

bool first_rank_or_alone() {
  const char* rank = first_set(
      {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK", "SLURM_PROCID"});
  return rank == nullptr || std::string(rank) == "0";
}

int launched_processes() {
  const char* size =
      first_set({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE", "SLURM_NTASKS"});
  if (size == nullptr) return 1;
  char* end = nullptr;
  const long n = std::strtol(size, &end, 10);
  return end != size && *end == '\0' && n >= 1 && n <= 1L << 30 ? static_cast<int>(n) : 1;
}

}  // namespace kmini
