// Element symbols for the hf app's inputs: H to Kr, the elements its basis sets and molecules
// may name.
#pragma once

#include <string>

namespace kmini::hf {

// The heaviest element known here (Kr).
constexpr int kMaxAtomicNumber = 36;

// 8 for "O" or "o"; 0 for a symbol that is not H..Kr. Case is ignored because xyz writers
// differ ("CL", "cl", "Cl").
int atomic_number(const std::string& symbol);

// "O" for 8; "Z=99" style text for a number outside 1..kMaxAtomicNumber, so that messages about
// a bad number still read.
std::string element_symbol(int z);

}  // namespace kmini::hf
