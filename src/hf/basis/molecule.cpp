#include "hf/basis/molecule.hpp"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <vector>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/text.hpp"
#include "hf/basis/elements.hpp"

namespace kmini::hf {
namespace {

// Closer than this, two nuclei are almost certainly an input mistake rather than chemistry.
constexpr double kMinimumDistanceAngstrom = 0.1;
// More atoms than any G build could hold (10,000 waters: 130,000 functions in 6-31G, a Fock
// matrix of 135 GB): refused before they are read.
constexpr long kMaxAtoms = 30000;
// Farther out than this, a coordinate is no molecule's: past it, distances of 1e200 made the
// overlap matrix's eigensolver fail (exit 4) instead of the input being refused.
constexpr double kMostCoordinateAngstrom = 1e4;

std::string trimmed(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = line.find_last_not_of(" \t");
  return line.substr(first, last - first + 1);
}

double distance(const Atom& a, const Atom& b) {
  const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

std::string atom_name(const Molecule& molecule, std::size_t index) {
  return std::to_string(index + 1) + " (" + element_symbol(molecule.atoms[index].atomic_number) +
         ")";
}

[[noreturn]] void fail_at(const std::string& path, int line, const std::string& message) {
  throw InputError(path + ":" + std::to_string(line) + ": " + message);
}

}  // namespace

int Molecule::electrons() const {
  int total = 0;
  for (const Atom& atom : atoms)
    total += atom.atomic_number;
  return total - charge;
}

double Molecule::nuclear_repulsion() const {
  double energy = 0.0;
  for (std::size_t a = 0; a < atoms.size(); ++a) {
    for (std::size_t b = 0; b < a; ++b) {
      energy += atoms[a].atomic_number * atoms[b].atomic_number / distance(atoms[a], atoms[b]);
    }
  }
  return energy;
}

Atom parse_atom(const std::string& text, Units units, std::string& problem) {
  problem.clear();
  Atom atom;
  const std::vector<std::string> words = split_words(trimmed(text));
  if (words.size() != 4) {
    problem = "expected an atom line 'Symbol x y z', found " + quoted(trimmed(text));
    if (words.size() > 4)
      problem += " (" + std::to_string(words.size()) + " fields; kmini reads no fifth)";
    return atom;
  }
  atom.atomic_number = atomic_number(words[0]);
  if (atom.atomic_number == 0) {
    problem = "expected an element symbol H..Kr, found " + quoted(words[0]);
    return atom;
  }
  const double scale = units == Units::angstrom ? kBohrPerAngstrom : 1.0;
  double position[3] = {0.0, 0.0, 0.0};
  for (int c = 0; c < 3; ++c) {
    if (!parse_finite_number(words[c + 1], position[c])) {
      problem = "expected a coordinate (a number), found " + quoted(words[c + 1]);
      return atom;
    }
    const double most = kMostCoordinateAngstrom * kBohrPerAngstrom / scale;
    if (std::fabs(position[c]) > most) {
      problem = "expected a coordinate within +-" + format_significant(most, 6) +
                (units == Units::angstrom ? " Angstrom" : " bohr") + ", found " +
                quoted(words[c + 1]);
      return atom;
    }
  }
  atom.x = position[0] * scale;
  atom.y = position[1] * scale;
  atom.z = position[2] * scale;
  return atom;
}

Molecule molecule_from_atoms(const std::vector<std::string>& lines, Units units) {
  if (lines.empty()) throw InputError("expected at least one atom 'Symbol x y z', found none");
  if (lines.size() > static_cast<std::size_t>(kMaxAtoms)) {
    throw InputError("expected at most " + std::to_string(kMaxAtoms) + " atoms, found " +
                     std::to_string(lines.size()));
  }
  Molecule molecule;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string problem;
    molecule.atoms.push_back(parse_atom(lines[i], units, problem));
    if (!problem.empty()) throw InputError("item " + std::to_string(i + 1) + ": " + problem);
  }
  return molecule;
}

Molecule read_xyz(const std::string& path, Units units) {
  std::ifstream in = open_input_file(path, "the molecule file");
  auto fail = [&path](int line, const std::string& message) { fail_at(path, line, message); };

  std::string line;
  int line_number = 1;
  if (!std::getline(in, line)) fail(1, "expected the number of atoms, found an empty file");
  const std::string count_text = trimmed(line);
  long count = 0;
  {
    const char* begin = count_text.c_str();
    char* end = nullptr;
    errno = 0;
    count = std::strtol(begin, &end, 10);
    if (count_text.empty() || end == begin || *end != '\0' || errno != 0 || count < 1) {
      fail(1, "expected the number of atoms (a positive integer), found " + quoted(count_text));
    }
    if (count > kMaxAtoms) {
      fail(1, "expected at most " + std::to_string(kMaxAtoms) + " atoms, found a count of " +
                  count_text);
    }
  }
  // The comment line is free text; it only has to be there.
  if (!std::getline(in, line)) {
    fail(2, "expected a comment line and " + std::to_string(count) +
                " atom lines, found the end of the file");
  }
  line_number = 2;

  Molecule molecule;
  for (long i = 0; i < count; ++i) {
    ++line_number;
    if (!std::getline(in, line)) {
      fail(line_number, "expected " + std::to_string(count) + " atom lines, found " +
                            std::to_string(i) + " before the end of the file");
    }
    std::string problem;
    const Atom atom = parse_atom(trimmed(line), units, problem);
    if (!problem.empty()) fail(line_number, problem);
    molecule.atoms.push_back(atom);
  }
  // A count that is too small would silently drop atoms (count 1 on water ran a lone O atom).
  while (std::getline(in, line)) {
    ++line_number;
    if (trimmed(line).empty()) continue;
    fail(line_number, "expected " + std::to_string(count) +
                          " atom lines (line 1's count) and then only blank lines, found " +
                          quoted(trimmed(line)) +
                          "; the count must match the atom lines (one molecule per file)");
  }
  return molecule;
}

std::string molecule_problem(const Molecule& molecule) {
  const double minimum_bohr = kMinimumDistanceAngstrom * kBohrPerAngstrom;
  // Atoms closer than the minimum share a grid cell of that size or sit in neighbouring ones, so
  // each atom is measured against its 27 cells' earlier atoms only: linear in the atoms, where
  // every pair took minutes for 200,000. The first pair reported is the one that comparing every
  // pair in order would find: the lowest later atom, then the lowest earlier one.
  using Cell = std::array<double, 3>;
  std::map<Cell, std::vector<std::size_t>> cells;
  const auto cell_of = [&](const Atom& atom) {
    return Cell{std::floor(atom.x / minimum_bohr), std::floor(atom.y / minimum_bohr),
                std::floor(atom.z / minimum_bohr)};
  };
  for (std::size_t a = 0; a < molecule.atoms.size(); ++a) {
    const Cell home = cell_of(molecule.atoms[a]);
    std::size_t closest = a;
    double r_closest = 0.0;
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          const auto found = cells.find(Cell{home[0] + dx, home[1] + dy, home[2] + dz});
          if (found == cells.end()) continue;
          for (const std::size_t b : found->second) {
            const double r = distance(molecule.atoms[a], molecule.atoms[b]);
            if (r < minimum_bohr && b < closest) {
              closest = b;
              r_closest = r;
            }
          }
        }
    if (closest < a) {
      return "atoms " + atom_name(molecule, closest) + " and " + atom_name(molecule, a) + " are " +
             format_significant(r_closest / kBohrPerAngstrom, 3) + " Angstrom apart, closer than " +
             format_significant(kMinimumDistanceAngstrom, 3) + " Angstrom";
    }
    cells[home].push_back(a);
  }
  const int electrons = molecule.electrons();
  if (electrons < 1) {
    return "the molecule has " + std::to_string(electrons) + " electrons (charge " +
           std::to_string(molecule.charge) + "); it needs at least one";
  }
  if (electrons % 2 != 0) {
    return "restricted Hartree-Fock needs an even number of electrons; the molecule has " +
           std::to_string(electrons) + " (charge " + std::to_string(molecule.charge) + ")";
  }
  return "";
}

}  // namespace kmini::hf
