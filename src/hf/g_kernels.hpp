// The G-build kernels, shared by every update variant: the quartets of one class, computed and
// scattered (atomic, warp_aggregated, cpu), computed into a buffer (kernel_split's first kernel,
// host_update's device part), scattered from that buffer (host_update's host part), or gathered
// from it block by block with no atomics (kernel_split's second kernel).
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

#include "hf/boys.hpp"
#include "hf/eri.hpp"
#include "hf/fock_roles.hpp"
#include "hf/quartet_plan.hpp"
#include "hf/shell_pairs.hpp"
#include "reduce/atomics.hpp"

namespace kmini::hf {

template <class Memory>
using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Memory>;

// One class's plan where the kernels read it.
template <class Memory>
struct ClassData {
  using Ints = Kokkos::View<const int*, Memory>;
  int bra_kind = 0, ket_kind = 0;
  Ints bra_pairs, ket_pairs, ket_count, bra_reach;
  Kokkos::View<const std::int64_t*, Memory> offsets;  // this rank's bras
  int bra_begin = 0, bra_end = 0;
  // For the gather: the bra and ket position of each pair (-1 where not listed or not this
  // rank's bra), and per shell the rank's bras and the kets whose first (a or c) or second (b or
  // d) shell it is, ascending (compressed rows: begin has shells + 1 entries).
  Ints bra_position, ket_position;
  Ints bra_first_begin, bra_first, bra_second_begin, bra_second;
  Ints ket_first_begin, ket_first, ket_second_begin, ket_second;

  std::int64_t local_quartets() const { return static_cast<std::int64_t>(offsets.extent(0)) - 1; }

  // The bra position p and ket position q of this rank's quartet t.
  KOKKOS_INLINE_FUNCTION void quartet(std::int64_t t, int& p, int& q) const {
    // The last local bra whose offset is <= t.
    int lo = 0, hi = static_cast<int>(offsets.extent(0)) - 1;
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      if (offsets(mid) <= t)
        lo = mid;
      else
        hi = mid;
    }
    p = bra_begin + lo;
    q = static_cast<int>(t - offsets(lo));
  }

  KOKKOS_INLINE_FUNCTION std::int64_t quartet_index(int p, int q) const {
    return offsets(p - bra_begin) + q;
  }
};

// Shells of the basis where the gather reads them.
template <class Memory>
struct ShellData {
  Kokkos::View<const int*, Memory> first_function, functions;
  Kokkos::View<const int**, Kokkos::LayoutRight, Memory> pair_of;  // canonical pair or -1
};

// The shells' first functions and the weight 1/2 per coincidence (see fock_roles.hpp).
template <class Memory>
KOKKOS_INLINE_FUNCTION double quartet_layout(const ShellPairs<Memory>& pairs, int bra, int ket,
                                             bool same_pair, int first[4]) {
  first[0] = pairs.first_functions(bra, 0);
  first[1] = pairs.first_functions(bra, 1);
  first[2] = pairs.first_functions(ket, 0);
  first[3] = pairs.first_functions(ket, 1);
  double weight = 1.0;
  if (pairs.shells(bra, 0) == pairs.shells(bra, 1)) weight *= 0.5;
  if (pairs.shells(ket, 0) == pairs.shells(ket, 1)) weight *= 0.5;
  if (same_pair) weight *= 0.5;
  return weight;
}

// How the scattering kernels add to G.
template <class Memory>
struct PlainAtomicAdd {
  Matrix<Memory> g;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, double v) const {
    Kokkos::atomic_add(&g(i, j), v);
  }
};

template <class Memory>
struct WarpAggregatedAdd {
  Matrix<Memory> g;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, double v) const {
    reduce::atomic_add_match(&g(i, j), v);
  }
};

// A thread's private copy of G through Kokkos' ScatterView (the host variants).
template <class Access>
struct ScatterAdd {
  Access access;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, double v) const { access(i, j) += v; }
};

// One thread per quartet: its integrals, computed (Source::compute) or read from `buffer`,
// scattered into G by the thread that has them. `Target` gives each thread its adder.
template <class Class, class Memory, class Target, bool FromBuffer>
struct ScatterQuartets {
  ShellPairs<Memory> pairs;
  BoysTable<Memory> boys;
  ClassData<Memory> data;
  Kokkos::View<const double**, Kokkos::LayoutLeft, Memory> density;
  Kokkos::View<const double*, Memory> buffer;  // FromBuffer: the quartets from `first` on
  std::int64_t first = 0;
  Target target;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    int p, q;
    data.quartet(t, p, q);
    const int bra = data.bra_pairs(p), ket = data.ket_pairs(q);
    int shells_first[4];
    const double weight =
        quartet_layout(pairs, bra, ket, data.bra_kind == data.ket_kind && p == q, shells_first);
    double eri[Class::integrals];
    if constexpr (FromBuffer) {
      for (int k = 0; k < Class::integrals; ++k)
        eri[k] = buffer((t - first) * Class::integrals + k);
    } else {
      eri_quartet<Class>(pairs, boys, bra, ket, eri);
      KMINI_HF_UNROLL
      for (int k = 0; k < Class::integrals; ++k)
        eri[k] *= weight;
    }
    scatter_quartet<Class>(shells_first, eri, density, target.adder());
  }
};

template <class Add>
struct DirectTarget {
  Add add;
  KOKKOS_INLINE_FUNCTION const Add& adder() const { return add; }
};

template <class ScatterView>
struct ScatterTarget {
  ScatterView view;
  KOKKOS_INLINE_FUNCTION auto adder() const {
    return ScatterAdd<decltype(view.access())>{view.access()};
  }
};

// kernel_split's first kernel (and host_update's device part): the weighted integrals of quartets
// [first, first + extent) into the buffer, quartet after quartet.
template <class Class, class Memory>
struct ComputeQuartets {
  ShellPairs<Memory> pairs;
  BoysTable<Memory> boys;
  ClassData<Memory> data;
  Kokkos::View<double*, Memory> buffer;
  std::int64_t first = 0;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::int64_t t = first + i;
    int p, q;
    data.quartet(t, p, q);
    const int bra = data.bra_pairs(p), ket = data.ket_pairs(q);
    int shells_first[4];
    const double weight =
        quartet_layout(pairs, bra, ket, data.bra_kind == data.ket_kind && p == q, shells_first);
    double eri[Class::integrals];
    eri_quartet<Class>(pairs, boys, bra, ket, eri);
    for (int k = 0; k < Class::integrals; ++k)
      buffer(i * Class::integrals + k) = eri[k] * weight;
  }
};

// kernel_split's second kernel: one team per ordered shell pair (s, t) owns G's block (s, t)
// and sums, in a fixed order, every contribution the buffered quartets (bras [p_begin, p_end))
// make to it in each of the six roles. No atomics, and the same sums in the same order every run
// with the same team size.
template <class Class, class Memory>
struct GatherBlocks {
  ShellPairs<Memory> pairs;
  ShellData<Memory> shells;
  ClassData<Memory> data;
  Kokkos::View<const double**, Kokkos::LayoutLeft, Memory> density;
  Kokkos::View<const double*, Memory> buffer;  // the quartets of bras [p_begin, p_end)
  int p_begin = 0, p_end = 0;
  Matrix<Memory> g;

  KOKKOS_INLINE_FUNCTION const double* eri_of(int p, int q) const {
    return &buffer((data.quartet_index(p, q) - data.quartet_index(p_begin, 0)) * Class::integrals);
  }

  // acc(x, y) += the Role contribution of quartet (p, q).
  template <int Role>
  KOKKOS_INLINE_FUNCTION void add_quartet(int p, int q, double acc[3][3]) const {
    using R = FockRole<Role>;
    int first[4];
    quartet_layout(pairs, data.bra_pairs(p), data.ket_pairs(q), false, first);
    const double* eri = eri_of(p, q);
    for (int x = 0; x < slot_functions<Class>(R::row); ++x)
      for (int y = 0; y < slot_functions<Class>(R::col); ++y)
        acc[x][y] += role_contribution<Class, Role>(first, eri, density, x, y);
  }

  // The exchange roles: bras with shell s in slot `bra_list`, kets with t in `ket_list`; this
  // lane takes every lanes-th bra.
  template <int Role>
  KOKKOS_INLINE_FUNCTION void gather_exchange(const Kokkos::View<const int*, Memory>& bra_begin,
                                              const Kokkos::View<const int*, Memory>& bras,
                                              const Kokkos::View<const int*, Memory>& ket_begin,
                                              const Kokkos::View<const int*, Memory>& kets, int s,
                                              int t, int lane, int lanes, double acc[3][3]) const {
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
  using Partials = Kokkos::View<double* [9], typename Memory::execution_space::scratch_memory_space,
                                Kokkos::MemoryUnmanaged>;

  // Scratch per team: every lane's partial sums.
  static std::size_t scratch_bytes(int lanes) { return Partials::shmem_size(lanes); }

  // One team per ordered shell pair (s, t): each lane sums its share of the block's contributions,
  // then lane 0 adds the lanes' partial sums in lane order, so the result does not depend on
  // timing. A thread per block alone left the GPU nearly idle where shells are few (70 shells:
  // 4900 threads).
  KOKKOS_INLINE_FUNCTION void operator()(const Team& team) const {
    const int n = static_cast<int>(shells.first_function.extent(0));
    const int index = team.league_rank(), lane = team.team_rank(), lanes = team.team_size();
    const int s = index / n, t = index % n;
    double acc[3][3] = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    const int pair = shells.pair_of(s, t);
    if (pair >= 0) {
      // Coulomb, bra: the pair is the quartets' bra; all its kets.
      const int p = data.bra_position(pair);
      if (p >= p_begin && p < p_end) {
        for (int q = lane; q < data.ket_count(p); q += lanes)
          add_quartet<0>(p, q, acc);
      }
      // Coulomb, ket: every bra of the batch that reaches it.
      const int q = data.ket_position(pair);
      if (q >= 0) {
        const int lo = data.bra_kind == data.ket_kind && q > p_begin ? q : p_begin;
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
    for (int x = 0; x < 3; ++x)
      for (int y = 0; y < 3; ++y)
        partial(lane, 3 * x + y) = acc[x][y];
    team.team_barrier();
    if (lane != 0) return;
    const int fs = shells.first_function(s), ft = shells.first_function(t);
    for (int x = 0; x < shells.functions(s); ++x)
      for (int y = 0; y < shells.functions(t); ++y) {
        double sum = 0.0;
        for (int l = 0; l < lanes; ++l)
          sum += partial(l, 3 * x + y);
        g(fs + x, ft + y) += sum;
      }
  }
};

}  // namespace kmini::hf
