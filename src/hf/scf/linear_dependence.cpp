#include "hf/scf/linear_dependence.hpp"

#include <sstream>
#include <vector>

#include "hf/basis/cartesian.hpp"
#include "hf/integrals/one_electron.hpp"
#include "hf/scf/symmetric_eigen.hpp"

namespace kmini::hf {

std::string linear_dependence_problem(double smallest_overlap_eigenvalue) {
  if (smallest_overlap_eigenvalue >= kLinearDependence) return "";
  std::ostringstream message;
  message << "the basis is linearly dependent: the overlap matrix's smallest eigenvalue is "
          << smallest_overlap_eigenvalue << " (below " << kLinearDependence
          << "); check for duplicated atoms or shells, or use a smaller basis";
  return message.str();
}

double smallest_overlap_eigenvalue(const MolecularBasis& basis) {
  const int n = basis.functions;
  if (n == 0) return 1.0;
  std::vector<double> overlap(static_cast<std::size_t>(n) * n);
  // Without charges the nuclear block reads no Boys function: an empty table will do.
  const BoysTable<Kokkos::HostSpace> no_boys{};
  std::vector<double> s, t, v;
  // S is symmetric: each pair of shells once, its block placed on both sides of the diagonal.
  for (std::size_t sa = 0; sa < basis.shells.size(); ++sa) {
    for (std::size_t sb = 0; sb <= sa; ++sb) {
      const PlacedShell &a = basis.shells[sa], &b = basis.shells[sb];
      const int na = functions_of_l(a.l), nb = functions_of_l(b.l);
      s.resize(static_cast<std::size_t>(na) * nb);
      t.resize(s.size());
      v.resize(s.size());
      one_electron_blocks(a, b, {}, no_boys, s.data(), t.data(), v.data());
      for (int i = 0; i < na; ++i)
        for (int j = 0; j < nb; ++j) {
          const std::size_t row = a.first_function + i, column = b.first_function + j;
          overlap[column * n + row] = overlap[row * n + column] =
              s[static_cast<std::size_t>(i) * nb + j];
        }
    }
  }
  return symmetric_eigenvalues(overlap, n).front();
}

}  // namespace kmini::hf
