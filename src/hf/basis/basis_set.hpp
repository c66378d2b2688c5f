// Gaussian basis sets for the hf app, read from Gaussian94 files (inputs/basis/*.gbs).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace kmini::hf {

// One contracted shell as the file gives it. The coefficients are the file's, unnormalised:
// normalisation depends on the integral code's conventions, so it is left to that code.
struct Shell {
  int l = 0;                         // 0 = s, 1 = p, 2 = d, 3 = f
  std::vector<double> exponents;     // already multiplied by SCALE^2
  std::vector<double> coefficients;  // one per exponent
  int line = 0;                      // of its "TYPE NPRIM SCALE" line in the file, for messages
};

struct BasisSet {
  std::string name;  // the file name without folder and extension ("sto-3g")
  std::string path;  // as given to read_gaussian94, for messages
  // Shells per atomic number, in file order. A Pople SP shell is stored as an s shell and a p
  // shell with the same exponents, so that every consumer sees shells of a single l.
  std::map<int, std::vector<Shell>> shells_of_element;

  // The highest l of any shell; -1 when there are none.
  int max_l() const;
};

// Cartesian functions of a shell of angular momentum l, (l+1)(l+2)/2: whether d and f shells
// will be spherical is the integral code's choice; for s and p both counts agree.
int cartesian_functions(int l);

// Reads a Gaussian94 file: '!' comments and blank lines anywhere; blocks of "Symbol 0", shells
// "TYPE NPRIM SCALE" (S, P, D, F, SP or L) with NPRIM lines of numbers each (Fortran "D"
// exponents allowed), and "****" after each block. Throws InputError "PATH:LINE: ..." naming
// what was expected and what was found.
BasisSet read_gaussian94(const std::string& path);

// "PATH:LINE: the D shell of element O", naming `shell` of element `z` for messages.
std::string shell_name(const BasisSet& basis, int z, const Shell& shell);

// "" when the basis covers every atomic number given; otherwise a message naming the first that
// it lacks.
std::string missing_element_problem(const BasisSet& basis, const std::vector<int>& atomic_numbers);

// "" when no shell of the given elements has l > max_l; otherwise a message naming the first such
// shell of the lightest of them that has one, by its file and line. Elements the basis lacks are
// missing_element_problem's to report.
std::string unsupported_shell_problem(const BasisSet& basis, const std::vector<int>& atomic_numbers,
                                      int max_l);

}  // namespace kmini::hf
