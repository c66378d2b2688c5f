// Molecules for the hf app, read from xyz files (inputs/molecules/*.xyz) or given inline.
#pragma once

#include <string>
#include <vector>

namespace kmini::hf {

// CODATA 2018 Bohr radius, 0.529177210903 Angstrom; the integrals work in bohr.
constexpr double kBohrPerAngstrom = 1.0 / 0.529177210903;

enum class Units { angstrom, bohr };

struct Atom {
  int atomic_number = 0;
  double x = 0.0, y = 0.0, z = 0.0;  // bohr
};

struct Molecule {
  std::vector<Atom> atoms;
  int charge = 0;

  // Sum of the atomic numbers less the charge.
  int electrons() const;
  // Sum over atom pairs of Z_a Z_b / r_ab, in hartree.
  double nuclear_repulsion() const;
};

// Reads a standard xyz file: the atom count, a comment line, then one "Symbol x y z" line per
// atom (further columns ignored, lines after the last atom ignored). Coordinates are converted
// from `units` to bohr. Throws InputError "PATH:LINE: ..." naming what was expected and found.
Molecule read_xyz(const std::string& path, Units units);

// One atom from "Symbol x y z" (further words ignored), its coordinates given in `units`; sets
// `problem` to what was expected and found when the text is not one ("" when it is).
Atom parse_atom(const std::string& text, Units units, std::string& problem);

// A molecule given inline, one "Symbol x y z" per item (the hf app's `atoms`). Throws
// InputError "item N: ..." for the first item that is not an atom.
Molecule molecule_from_atoms(const std::vector<std::string>& lines, Units units);

// "" when restricted Hartree-Fock can start from the molecule; otherwise why not: two atoms
// closer than 0.1 Angstrom (a duplicated line or mixed-up units, which would make the integrals
// blow up), fewer than one electron, or an odd number of electrons (RHF pairs them all).
std::string molecule_problem(const Molecule& molecule);

}  // namespace kmini::hf
