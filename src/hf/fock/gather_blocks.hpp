// kernel_split's second kernel: one team per ordered shell pair (s, t) owns G's block (s, t) and
// sums, in a fixed order, every contribution the buffered quartets (bras [p_begin, p_end)) make
// to it in each of the six roles. No atomics, and the same sums in the same order every run with
// the same team size. Quartets the screen dropped were never computed: the same test skips them,
// and the same screen's needs_exchange decides a quartet's exchange roles, as in the other
// variants.
#pragma once

#include <Kokkos_Core.hpp>

#include "hf/fock/fock_roles.hpp"
#include "hf/fock/g_kernels.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "hf/screening/class_data.hpp"
#include "hf/screening/quartet_screen.hpp"

namespace kmini::hf {

template <class Class, class Memory>
struct GatherBlocks {
  // The most functions a shell of the class has, which bounds a G block it adds to.
  static constexpr int kF = functions_of_l(Class::la > Class::lc ? Class::la : Class::lc);
  ShellPairs<Memory> pairs;
  ShellData<Memory> shells;
  ClassData<Memory> data;
  QuartetScreen<Memory> screen;
  Kokkos::View<const double**, Kokkos::LayoutLeft, Memory> density;
  Kokkos::View<const double*, Memory> buffer;  // the quartets of bras [p_begin, p_end)
  int p_begin = 0, p_end = 0;
  Matrix<Memory> g;
  int first_block = 0;  // the launch's first team's block, s * shells + t

  // acc(x, y) += the Role contribution of quartet (p, q), if it was computed and the screen
  // makes that update.
  template <int Role>
  KOKKOS_INLINE_FUNCTION void add_quartet(int p, int q, double acc[kF][kF]) const {
    using R = FockRole<Role>;
    using Extents = QuartetExtents<Class>;
    const int bra = data.bra_pairs(p), ket = data.ket_pairs(q);
    if (!screen.keeps(bra, ket)) return;
    if (Role >= kCoulombRoles && !screen.needs_exchange(bra, ket)) return;
    BlockFunctions functions;
    quartet_layout(pairs, bra, ket, false, functions.first);
    const double* eri =
        &buffer((data.quartet_index(p, q) - data.quartet_index(p_begin, 0)) * Class::integrals);
    for (int x = 0; x < Extents::n(R::row); ++x)
      for (int y = 0; y < Extents::n(R::col); ++y)
        acc[x][y] += role_contribution<Extents, Role>(functions, eri, density, x, y);
  }

  // The exchange roles: bras with shell s in slot `bra_list`, kets with t in `ket_list`; this
  // lane takes every lanes-th bra.
  template <int Role>
  KOKKOS_INLINE_FUNCTION void gather_exchange(const Kokkos::View<const int*, Memory>& bra_begin,
                                              const Kokkos::View<const int*, Memory>& bras,
                                              const Kokkos::View<const int*, Memory>& ket_begin,
                                              const Kokkos::View<const int*, Memory>& kets, int s,
                                              int t, int lane, int lanes,
                                              double acc[kF][kF]) const {
    for (int i = bra_begin(s) + lane; i < bra_begin(s + 1); i += lanes) {
      const int p = bras(i);
      if (p < p_begin) continue;
      if (p >= p_end) break;  // the lists ascend
      const int count = data.ket_count(p);
      for (int j = ket_begin(t); j < ket_begin(t + 1) && kets(j) < count; ++j)
        add_quartet<Role>(p, kets(j), acc);
    }
  }

  using Team = typename Kokkos::TeamPolicy<typename Memory::execution_space>::member_type;
  using Partials =
      Kokkos::View<double * [kF * kF], typename Memory::execution_space::scratch_memory_space,
                   Kokkos::MemoryUnmanaged>;

  // Scratch per team: every lane's partial sums.
  static std::size_t scratch_bytes(int lanes) { return Partials::shmem_size(lanes); }

  // One team per ordered shell pair (s, t): each lane sums its share of the block's contributions,
  // then lane 0 adds the lanes' partial sums in lane order, so the result does not depend on
  // timing. A thread per block alone left the GPU nearly idle where shells are few (70 shells:
  // 4900 threads).
  KOKKOS_INLINE_FUNCTION void operator()(const Team& team) const {
    const int n = static_cast<int>(shells.first_function.extent(0));
    const int index = first_block + team.league_rank(), lane = team.team_rank(),
              lanes = team.team_size();
    const int s = index / n, t = index % n;
    // A shell larger than the class's shells has no part in its quartets (the whole team leaves).
    if (shells.functions(s) > kF || shells.functions(t) > kF) return;
    double acc[kF][kF] = {};
    const int pair = shells.pair_of(s, t);
    if (pair >= 0 && screen.coulomb) {
      // Coulomb, bra: the pair is the quartets' bra; all its kets.
      const int p = data.bra_position(pair);
      if (p >= p_begin && p < p_end) {
        for (int q = lane; q < data.ket_count(p); q += lanes)
          add_quartet<0>(p, q, acc);
      }
      // Coulomb, ket: every bra of the batch that reaches it.
      const int q = data.ket_position(pair);
      if (q >= 0) {
        const int lo = data.diagonal() && q > p_begin ? q : p_begin;
        const int hi = data.bra_reach(q) < p_end ? data.bra_reach(q) : p_end;
        for (int b = lo + lane; b < hi; b += lanes)
          add_quartet<1>(b, q, acc);
      }
    }
    gather_exchange<2>(data.bra_first_begin, data.bra_first, data.ket_first_begin, data.ket_first,
                       s, t, lane, lanes, acc);
    gather_exchange<3>(data.bra_second_begin, data.bra_second, data.ket_second_begin,
                       data.ket_second, s, t, lane, lanes, acc);
    gather_exchange<4>(data.bra_first_begin, data.bra_first, data.ket_second_begin, data.ket_second,
                       s, t, lane, lanes, acc);
    gather_exchange<5>(data.bra_second_begin, data.bra_second, data.ket_first_begin, data.ket_first,
                       s, t, lane, lanes, acc);
    const Partials partial(team.team_scratch(0), lanes);
    for (int x = 0; x < kF; ++x)
      for (int y = 0; y < kF; ++y)
        partial(lane, kF * x + y) = acc[x][y];
    team.team_barrier();
    if (lane != 0) return;
    const int fs = shells.first_function(s), ft = shells.first_function(t);
    for (int x = 0; x < shells.functions(s); ++x)
      for (int y = 0; y < shells.functions(t); ++y) {
        double sum = 0.0;
        for (int l = 0; l < lanes; ++l)
          sum += partial(l, kF * x + y);
        g(fs + x, ft + y) += sum;
      }
  }
};

}  // namespace kmini::hf
