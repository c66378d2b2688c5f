// Host entry points to the hf integral code, one shell block at a time, for the tests and for
// anyone who wants a single integral: they run the same functions the kernels run.
//
// Conventions: contracted Cartesian Gaussians whose components share one contraction, normalised
// so that the x^l component has unit self-overlap (every s and p function, and d_xx, d_yy, d_zz;
// d_xy, d_xz, d_yz then have 1/3); a shell's functions in the order of hf/basis/cartesian.hpp (x,
// y, z; xx, xy, xz, yy, yz, zz); blocks in row-major order of their shells' functions, (ab|cd) at
// ((i * nb + j) * nc + k) * nd + l. Chemists' notation for the ERIs. Atomic units.
#pragma once

#include <vector>

#include <Kokkos_Core.hpp>

#include "hf/basis/gaussian_shell.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/shell_pairs.hpp"

namespace kmini::hf {

// The Boys function F_m(T) as the kernels whose highest order is `top` evaluate it: from order
// top's table, its series or erf (boys.hpp) or the asymptote, and the recursions.
// m <= top <= kBoysMaxOrder.
double boys_function(int m, double t, int top = kBoysMaxOrder);

std::vector<double> overlap_block(const GaussianShell& a, const GaussianShell& b);
std::vector<double> kinetic_block(const GaussianShell& a, const GaussianShell& b);
// <a| -sum_C charge_C / |r - C| |b>: nuclei attract electrons, so it is negative for s shells.
std::vector<double> nuclear_block(const GaussianShell& a, const GaussianShell& b,
                                  const std::vector<PointCharge>& charges);
// (ab|cd), for s, p and d shells in any order.
std::vector<double> eri_block(const GaussianShell& a, const GaussianShell& b,
                              const GaussianShell& c, const GaussianShell& d);

// (ab|cd) for the canonical pairs `bra` and `ket` of host shell pairs, whose kinds are
// bra_kind >= ket_kind, into out[((i nb + j) nc + k) nd + l] in the shells' own component order,
// primitive quartets left out as the screen for `cutoff` says: eri.hpp's eri_quartet for that
// class. Every class's host integrals are compiled here once, and the tests call them rather
// than compile their own copies (each copy took a minute or more of every build).
void eri_quartet_block(const ShellPairs<Kokkos::HostSpace>& pairs,
                       const BoysTable<Kokkos::HostSpace>& boys, int bra_kind, int ket_kind,
                       int bra, int ket, double* out, double cutoff = 0.0);

}  // namespace kmini::hf
