// An independent, deliberately slow reference for the hf app's Gaussian integrals over s, p and
// d shells, which the unit tests hold src/hf's integral code to. It uses another method than the
// production code (McMurchie-Davidson Hermite expansions instead of Obara-Saika/Head-Gordon-Pople
// recurrences, and the Boys function by quadrature instead of a table), computes in long double,
// and shares no code with src/hf: only the shell and charge structs of its public header.
//
// Conventions are those of hf/integrals/integrals_host.hpp: contracted Cartesian Gaussians, a
// shell's functions x^i y^j z^k (i + j + k = l) in the order of i descending, then j descending (p:
// x, y, z; d: xx, xy, xz, yy, yz, zz), blocks row-major, chemists' notation for the ERIs, atomic
// units. A shell's coefficients are Gaussian94's, which multiply normalised primitives; all the
// shell's functions share them, scaled so that its x^l function has unit self-overlap. So s and p
// functions, and d's xx, yy and zz, have unit self-overlap, and d's xy, xz and yz have 1/3.
#pragma once

#include <vector>

#include "hf/integrals/integrals_host.hpp"

namespace kmini::test::hf_reference {

// F_0(T) ... F_{m_max}(T), F_m(T) = int_0^1 s^{2m} exp(-T s^2) ds, by composite Gauss-Legendre
// quadrature; about 1e-18 relative for m <= 16 and any T >= 0.
std::vector<long double> reference_boys_all(int m_max, long double t);
long double reference_boys(int m, long double t);

// The blocks of hf/integrals/integrals_host.hpp, with the same arguments and layout. They throw
// std::invalid_argument for a shell with l outside {0, 1, 2} or a malformed contraction.
std::vector<double> reference_overlap(const hf::GaussianShell& a, const hf::GaussianShell& b);
std::vector<double> reference_kinetic(const hf::GaussianShell& a, const hf::GaussianShell& b);
std::vector<double> reference_nuclear(const hf::GaussianShell& a, const hf::GaussianShell& b,
                                      const std::vector<hf::PointCharge>& charges);
std::vector<double> reference_eri(const hf::GaussianShell& a, const hf::GaussianShell& b,
                                  const hf::GaussianShell& c, const hf::GaussianShell& d);

}  // namespace kmini::test::hf_reference
