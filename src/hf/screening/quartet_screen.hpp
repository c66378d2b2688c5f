// Which planned quartets one G build computes, and which of their Fock updates.
//
// `schwarz`: every quartet the plan kept (Q_ab Q_cd >= threshold; the plan's candidates hold a
// few more, which this test drops). `density`: a quartet also needs
// Q_ab Q_cd times the largest density element it couples, max |D| over the shell blocks ab and cd
// (its Coulomb pairings) and ac, bd, ad, bc (its exchange pairings), to reach the threshold: a
// quartet's contribution to G is at most that product, so where the density is small (far
// apart shells, or the change of the density in an incremental build) whole quartets drop out.
// The same bound, taken over the exchange pairings alone, decides whether a kept quartet's four
// exchange updates are made (`needs_exchange`): a quartet of two pairs far apart is kept for its
// Coulomb updates, and its exchange updates, each under the threshold, are skipped as a dropped
// quartet's are. Each update that is made is made whole, by every variant alike.
//
// Each build first takes max |D| per shell block on the device (`shell_density_maxima`). The
// largest of them bounds every quartet, so each bra's prefix of kets is cut where the kets'
// ceilings fall below threshold / (the bra's ceiling max|D|) before anything is launched
// (`cut_class`); the kernels then
// test the quartets of that prefix one by one (`QuartetScreen::keeps`). The test is a product
// and a max of stored numbers, no sums, so every kernel and the host evaluate it to the same bit:
// the kernel that computes a quartet and the one that later reads it agree on which exist.
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

#include "hf/integrals/shell_pairs.hpp"
#include "hf/screening/class_data.hpp"

namespace kmini::hf {

enum class Screening { schwarz, density };

template <class Memory>
using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Memory>;

// Kokkos 3.4 has its math functions in Experimental, later versions in Kokkos.
KOKKOS_INLINE_FUNCTION constexpr double larger(double x, double y) {
  return x > y ? x : y;
}

template <class Memory>
struct QuartetScreen {
  Kokkos::View<const double**, Kokkos::LayoutRight, Memory> shell_density;  // max |D| per block
  Kokkos::View<const double*, Memory> pair_bound;                           // Schwarz Q per pair
  Kokkos::View<const int* [2], Kokkos::LayoutRight, Memory> pair_shells;
  double threshold = 0.0;
  bool by_density = false;
  bool primitive_screen = true;
  // false: the build makes the exchange updates alone (G = -K/2), a J engine builds J apart
  // (fock_algorithm: split); a quartet is then kept only where its exchange updates need it.
  bool coulomb = true;

  // Each test reads a quartet's two pairs as ScreenedPair, from the plan's per-position copies
  // (class_data.hpp) or by pair index (`screened`): the same numbers either way, so every kernel
  // decides alike.
  KOKKOS_INLINE_FUNCTION ScreenedPair screened(int pair) const {
    ScreenedPair s{pair_bound(pair), {0, 0}};
    if (by_density) {  // pair_shells is set only for density screening
      s.shells[0] = pair_shells(pair, 0);
      s.shells[1] = pair_shells(pair, 1);
    }
    return s;
  }

  KOKKOS_INLINE_FUNCTION bool keeps(const ScreenedPair& bra, const ScreenedPair& ket) const {
    if (!coulomb && by_density) return needs_exchange(bra, ket);
    return bra.bound * ket.bound * coupled_density(bra, ket) >= threshold;
  }
  KOKKOS_INLINE_FUNCTION bool keeps(int bra, int ket) const {
    return keeps(screened(bra), screened(ket));
  }

  // Whether a kept quartet's exchange updates can reach the threshold (always under Schwarz).
  KOKKOS_INLINE_FUNCTION bool needs_exchange(const ScreenedPair& bra,
                                             const ScreenedPair& ket) const {
    if (!by_density) return true;
    return bra.bound * ket.bound * exchange_density(bra, ket) >= threshold;
  }
  KOKKOS_INLINE_FUNCTION bool needs_exchange(int bra, int ket) const {
    return needs_exchange(screened(bra), screened(ket));
  }

  // What multiplies an integral of the quartet in G, at most: the largest density element it
  // couples under density screening, 1 under Schwarz screening (which bounds the integrals).
  KOKKOS_INLINE_FUNCTION double coupled_density(const ScreenedPair& bra,
                                                const ScreenedPair& ket) const {
    if (!by_density) return 1.0;
    return larger(shell_density(bra.shells[0], bra.shells[1]),
                  larger(shell_density(ket.shells[0], ket.shells[1]), exchange_density(bra, ket)));
  }

  // The largest density element of the quartet's exchange pairings: ac, bd, ad and bc.
  KOKKOS_INLINE_FUNCTION double exchange_density(const ScreenedPair& bra,
                                                 const ScreenedPair& ket) const {
    const int a = bra.shells[0], b = bra.shells[1], c = ket.shells[0], d = ket.shells[1];
    return larger(larger(shell_density(a, c), shell_density(b, d)),
                  larger(shell_density(a, d), shell_density(b, c)));
  }

  // What multiplies an integral of the quartet in the G this build makes, at most: the coupled
  // density, or where the build makes the exchange updates alone, the exchange pairings'. A
  // quartet of two compact pairs some way apart couples D_ab and D_cd near 1 but exchange
  // densities orders of magnitude smaller, which K alone can take at a looser cutoff.
  KOKKOS_INLINE_FUNCTION double updated_density(const ScreenedPair& bra,
                                                const ScreenedPair& ket) const {
    if (!coulomb && by_density) return exchange_density(bra, ket);
    return coupled_density(bra, ket);
  }

  // The primitive screen's cutoff for a kept quartet (eri.hpp): what it leaves out of the
  // quartet's contributions to G stays under kPrimitiveShare of the threshold.
  static constexpr double kPrimitiveShare = 0.1;
  KOKKOS_INLINE_FUNCTION double primitive_cutoff(const ScreenedPair& bra,
                                                 const ScreenedPair& ket) const {
    if (!primitive_screen) return 0.0;
    const double density = updated_density(bra, ket);
    return density > 0.0 ? kPrimitiveShare * threshold / density : 0.0;
  }
  // By pair index: the quartet kernels read the pairs' shells by index anyway.
  KOKKOS_INLINE_FUNCTION double primitive_cutoff(int bra, int ket) const {
    return primitive_cutoff(screened(bra), screened(ket));
  }
};

// out(s, t) = max |D_ij| over the functions i of shell s and j of shell t; returns the largest.
template <class Exec>
double shell_density_maxima(
    const Matrix<typename Exec::memory_space>& density,
    const ShellData<typename Exec::memory_space>& shells,
    const Kokkos::View<double**, Kokkos::LayoutRight, typename Exec::memory_space>& out) {
  const int n = static_cast<int>(out.extent(0));
  double largest = 0.0;
  Kokkos::parallel_reduce(
      "hf::shell_density_maxima",
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(0,
                                                                 static_cast<std::int64_t>(n) * n),
      KOKKOS_LAMBDA(const std::int64_t k, double& running) {
        const int s = static_cast<int>(k / n), t = static_cast<int>(k % n);
        const int fs = shells.first_function(s), ft = shells.first_function(t);
        double m = 0.0;
        for (int i = 0; i < shells.functions(s); ++i)
          for (int j = 0; j < shells.functions(t); ++j)
            m = larger(m, density(fs + i, ft + j) < 0.0 ? -density(fs + i, ft + j)
                                                        : density(fs + i, ft + j));
        out(s, t) = m;
        running = larger(running, m);
      },
      Kokkos::Max<double>(largest));
  return largest;
}

// A class's per-build prefixes, where `cut_class` writes them.
template <class Memory>
struct ClassCut {
  Kokkos::View<int*, Memory> ket_count, bra_reach, ket_uncut;
  Kokkos::View<std::int64_t*, Memory> offsets;
};

// Cuts each of this rank's bras' ket prefixes to the kets that can reach `threshold` where no
// density element exceeds `largest_density`, and recomputes the offsets and reaches to match;
// returns the rank's candidates. The plan's prefixes (plan.ket_uncut) stay the upper bound.
template <class Exec>
std::int64_t cut_class(const ClassData<typename Exec::memory_space>& plan, double threshold,
                       double largest_density, const ClassCut<typename Exec::memory_space>& cut) {
  const int begin = plan.bra_begin, end = plan.bra_end;
  const bool diagonal = plan.diagonal();
  // A hair under the threshold, so that rounding here never drops a quartet `keeps` would keep.
  const double scaled = threshold * (1.0 - 1e-12) / largest_density;
  const auto bra_ceilings = plan.bra_ceilings;
  const auto ket_ceilings = plan.ket_ceilings;
  const auto plan_uncut = plan.ket_uncut;
  Kokkos::deep_copy(cut.ket_count, 0);
  Kokkos::parallel_for(
      "hf::cut_kets", Kokkos::RangePolicy<Exec>(begin, end), KOKKOS_LAMBDA(const int p) {
        // The first ket of the plan's prefix whose ceiling times the bra's is below the scaled
        // threshold.
        const double limit = scaled / bra_ceilings(p);
        int lo = 0, hi = plan_uncut(p);
        while (lo < hi) {
          const int mid = (lo + hi) / 2;
          if (ket_ceilings(mid) >= limit)
            lo = mid + 1;
          else
            hi = mid;
        }
        cut.ket_uncut(p) = lo;
        cut.ket_count(p) = diagonal && lo > p + 1 ? p + 1 : lo;
      });
  std::int64_t total = 0;
  Kokkos::parallel_scan(
      "hf::cut_offsets", Kokkos::RangePolicy<Exec>(0, end - begin + 1),
      KOKKOS_LAMBDA(const int i, std::int64_t& running, const bool last) {
        if (last) cut.offsets(i) = running;
        if (i < end - begin) running += cut.ket_count(begin + i);
      },
      total);
  Kokkos::parallel_for(
      "hf::cut_reach", Kokkos::RangePolicy<Exec>(0, static_cast<int>(cut.bra_reach.extent(0))),
      KOKKOS_LAMBDA(const int q) {
        // The uncut prefixes shrink with p: the first of this rank's bras that stops short of q
        // (never past the plan's reach, whose prefixes are longer).
        int lo = begin, hi = end;
        while (lo < hi) {
          const int mid = (lo + hi) / 2;
          if (cut.ket_uncut(mid) > q)
            lo = mid + 1;
          else
            hi = mid;
        }
        cut.bra_reach(q) = lo;
      });
  return total;
}

}  // namespace kmini::hf
