// One quartet class's plan where the kernels read it, and the part of it each G build recomputes.
//
// The plan (quartet_plan.hpp) lists a class's bras and kets by their Schwarz bounds' ceilings,
// largest first, so that each bra's candidate kets are a prefix of the ket list. A build may
// shorten those prefixes further (density screening bounds every quartet by the largest density
// element of the build); the per-build views hold the prefixes, their offsets and the reach of each
// ket for that build, and point at the plan's own views when nothing shortens them.
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

namespace kmini::hf {

// What the screen reads of a pair (quartet_screen.hpp): its Schwarz bound Q and its two shells.
// Kept per position in the plan's order, a warp's consecutive kets read theirs in one coalesced
// load each, where by pair index they gathered the bound and the shells apart.
struct alignas(16) ScreenedPair {
  double bound;
  int shells[2];
};

template <class Memory>
struct ClassData {
  using Ints = Kokkos::View<const int*, Memory>;
  using Bounds = Kokkos::View<const double*, Memory>;
  using Offsets = Kokkos::View<const std::int64_t*, Memory>;
  int bra_kind = 0, ket_kind = 0;
  Ints bra_pairs, ket_pairs;  // pair indices, in the plan's order
  Kokkos::View<const ScreenedPair*, Memory> bra_screen, ket_screen;  // the same pairs' bounds
  Bounds bra_ceilings, ket_ceilings;  // their Schwarz bounds' ceilings, descending
  Ints ket_uncut;                  // per bra position: the plan's prefix up to the diagonal q <= p
  int bra_begin = 0, bra_end = 0;  // this rank's bras

  // This build: per bra position its kets (0 outside this rank's bras), per ket position the end
  // of the bras that reach it (p in [q or 0, reach(q)), the plan's bra_reach at most), and per
  // bra of this rank the first of its quartets in the rank's numbering (one more entry).
  Ints ket_count, bra_reach;
  Offsets offsets;

  // For the gather: the bra and ket position of each pair (-1 where not listed or not this
  // rank's bra), and per shell the rank's bras and the kets whose first (a or c) or second (b or
  // d) shell it is, ascending (compressed rows: begin has shells + 1 entries).
  Ints bra_position, ket_position;
  Ints bra_first_begin, bra_first, bra_second_begin, bra_second;
  Ints ket_first_begin, ket_first, ket_second_begin, ket_second;

  KOKKOS_INLINE_FUNCTION bool diagonal() const { return bra_kind == ket_kind; }

  // The last local bra (position p - bra_begin) whose offset is <= t, searched between lo and
  // hi: offsets(lo) <= t < offsets(hi).
  KOKKOS_INLINE_FUNCTION int local_bra(std::int64_t t, int lo, int hi) const {
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      if (offsets(mid) <= t)
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }
  KOKKOS_INLINE_FUNCTION int local_bra(std::int64_t t) const {
    return local_bra(t, 0, static_cast<int>(offsets.extent(0)) - 1);
  }

  // The bra position p and ket position q of this rank's quartet t.
  KOKKOS_INLINE_FUNCTION void quartet(std::int64_t t, int& p, int& q) const {
    const int local = local_bra(t);
    p = bra_begin + local;
    q = static_cast<int>(t - offsets(local));
  }

  // The ket position of this rank's quartet t, whose bra position is p.
  KOKKOS_INLINE_FUNCTION int ket_of(std::int64_t t, int p) const {
    return static_cast<int>(t - offsets(p - bra_begin));
  }

  KOKKOS_INLINE_FUNCTION std::int64_t quartet_index(int p, int q) const {
    return offsets(p - bra_begin) + q;
  }
};

// Shells of the basis where the kernels read them.
template <class Memory>
struct ShellData {
  Kokkos::View<const int*, Memory> first_function, functions;
  Kokkos::View<const int**, Kokkos::LayoutRight, Memory> pair_of;  // canonical pair or -1
};

}  // namespace kmini::hf
