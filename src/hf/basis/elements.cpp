#include "hf/basis/elements.hpp"

#include <array>
#include <cctype>

namespace kmini::hf {
namespace {

constexpr std::array<const char*, kMaxAtomicNumber> kSymbols = {
    "H",  "He", "Li", "Be", "B",  "C",  "N",  "O",  "F",  "Ne", "Na", "Mg",
    "Al", "Si", "P",  "S",  "Cl", "Ar", "K",  "Ca", "Sc", "Ti", "V",  "Cr",
    "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr"};

}  // namespace

int atomic_number(const std::string& symbol) {
  if (symbol.empty() || symbol.size() > 2) return 0;
  std::string canonical;
  canonical += static_cast<char>(std::toupper(static_cast<unsigned char>(symbol[0])));
  if (symbol.size() == 2) {
    canonical += static_cast<char>(std::tolower(static_cast<unsigned char>(symbol[1])));
  }
  for (int z = 1; z <= kMaxAtomicNumber; ++z) {
    if (canonical == kSymbols[z - 1]) return z;
  }
  return 0;
}

std::string element_symbol(int z) {
  if (z < 1 || z > kMaxAtomicNumber) return "Z=" + std::to_string(z);
  return kSymbols[z - 1];
}

}  // namespace kmini::hf
