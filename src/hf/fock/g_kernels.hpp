// The G-build kernels, shared by every update variant.
//
// `ListKept` lists which of a chunk of a class's candidate quartets (this build's prefixes,
// class_data.hpp) the screen keeps (quartet_screen.hpp), those whose exchange updates are made
// apart from those kept for their Coulomb updates alone. `ClassQuartets`, the one kernel that
// computes integrals, then computes each listed quartet by Class::lanes threads (eri.hpp), each
// handing its share of the integrals to a sink:
//   - ScatterSink adds their contributions to G (atomic, warp_aggregated, cpu), the exchange
//     updates only for the first part of the list;
//   - StoreSink writes them to a buffer (kernel_split's first kernel, host_update's device part).
//
// `ScatterBuffered` adds buffered quartets into G on the host (host_update); the gather that
// sums them per G block with no atomics (kernel_split's second kernel) is in gather_blocks.hpp.
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

#include "hf/fock/fock_roles.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/eri.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "hf/integrals/unrolled.hpp"
#include "hf/screening/class_data.hpp"
#include "hf/screening/quartet_screen.hpp"
#include "reducers/atomics.hpp"

namespace kmini::hf {

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

// How the scattering kernels add to G: add.bind() gives the thread's adder, adder(i, j, v).
// Each says whether its add is large once inlined (kLargeInline), which ScatterSink weighs.
template <class Memory>
struct PlainAtomicAdd {
  static constexpr bool kLargeInline = false;
  Matrix<Memory> g;
  KOKKOS_INLINE_FUNCTION const PlainAtomicAdd& bind() const { return *this; }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, double v) const {
    Kokkos::atomic_add(&g(i, j), v);
  }
};

template <class Memory>
struct WarpAggregatedAdd {
  static constexpr bool kLargeInline = true;  // a match, a shuffle tree and an atomic
  Matrix<Memory> g;
  KOKKOS_INLINE_FUNCTION const WarpAggregatedAdd& bind() const { return *this; }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, double v) const {
    reducers::atomic_add_match(&g(i, j), v);
  }
};

// A host thread's private copy of G through Kokkos' ScatterView (the host variants); binding
// looks the thread's copy up once.
template <class ScatterView>
struct ScatterAdd {
  static constexpr bool kLargeInline = false;
  ScatterView view;
  template <class Access>
  struct Bound {
    Access access;
    KOKKOS_INLINE_FUNCTION void operator()(int i, int j, double v) const { access(i, j) += v; }
  };
  KOKKOS_INLINE_FUNCTION auto bind() const { return Bound<decltype(view.access())>{view.access()}; }
};

// Adds each lane's contributions to G through Add.
//
// Where Add is large once inlined, the classes whose bra reaches degree 2 (every class from
// (pp|ss) on) make their updates in a loop with one call of it (fock_roles.hpp). Inlined once per
// update, the warp-aggregated add made the quartet kernels of (pp|ps) and the larger classes
// outgrow the GPU's instruction cache: Nsight Compute found their warps waiting for instructions
// more than for anything else. Since the loop finds each update's integrals by a constant index,
// in registers rather than through local memory, it ran as fast or faster for those classes. The
// smaller (ps|ss) and (ps|ps) inline theirs: (ps|ss) ran 1.6% faster so, and (ps|ps) as fast
// without the 8-byte stack the loop gave it. The plain atomic add, one instruction, stays inlined
// everywhere: in the loop of the time before the constant index it lost
// (docs/performance-notes.md).
template <class Class>
constexpr bool kLoopedUpdates = Class::le >= 2;

template <class Class, class ExecSpace, class Add>
struct ScatterSink {
  using Exec = ExecSpace;
  using Memory = typename Exec::memory_space;
  Kokkos::View<const double**, Kokkos::LayoutLeft, Memory> density;
  Add add;

  static constexpr bool kLooped = Add::kLargeInline && kLoopedUpdates<Class>;

  KOKKOS_INLINE_FUNCTION void quartet(std::int64_t, const LaneFunctions<Class>& functions,
                                      const double* eri, bool exchange, bool coulomb) const {
    scatter_roles<LaneExtents<Class>, kLooped>(functions, eri, density, add.bind(), exchange,
                                               coulomb);
  }
};

// Writes each lane's (already weighted) integrals into the buffer, a whole quartet's block in
// its shells' own order at (t - first) * Class::integrals for the class's quartet t. Which
// updates they make is the reader's to decide, with the same screen.
template <class Class, class ExecSpace>
struct StoreSink {
  using Exec = ExecSpace;
  using Memory = typename Exec::memory_space;
  Kokkos::View<double*, Memory> buffer;
  std::int64_t first = 0;

  KOKKOS_INLINE_FUNCTION void quartet(std::int64_t t, const LaneFunctions<Class>& functions,
                                      const double* eri, bool, bool) const {
    using Lane = LaneExtents<Class>;
    using Whole = QuartetExtents<Class>;
    double* block = &buffer((t - first) * Whole::size);
    constexpr bool unroll = Whole::size <= kMostUnrolledIntegrals;
    Impl::block_for<unroll, Lane::n(0)>([&](int i) {
      Impl::block_for<unroll, Lane::n(1)>([&](int j) {
        Impl::block_for<unroll, Lane::n(2)>([&](int k) {
          Impl::block_for<unroll, Lane::n(3)>([&](int l) {
            block[Whole::at(
                functions(0, i) - functions.first[0], functions(1, j) - functions.first[1],
                functions(2, k) - functions.first[2], functions(3, l) - functions.first[3])] =
                eri[Lane::at(i, j, k, l)];
          });
        });
      });
    });
  }
};

// Where ListKept put a chunk's kept quartets: entries [0, exchange) make their exchange updates,
// entries [coulomb_begin, coulomb_begin + coulomb) only their Coulomb updates.
struct ListedParts {
  int exchange = 0;
  int coulomb_begin = 0;
  int coulomb = 0;
  std::int64_t total() const { return std::int64_t{exchange} + coulomb; }
};

// A chunk's kept quartets: per entry the offset of the quartet from the chunk's first, and its bra
// position, which ListKept has found anyway and ClassQuartets would otherwise search for again
// (a binary search over the class's bras: a chain of dependent loads per quartet).
template <class Memory>
using KeptList = Kokkos::View<int* [2], Kokkos::LayoutRight, Memory>;

// Lists each of the candidates [first, first + count) that the screen keeps: from the front of
// `list` those whose exchange updates are made, counted in listed(0), and from the back of its
// first `count` entries those kept for their Coulomb updates alone, counted in listed(1).
//
// Apart, each warp but one makes the exchange updates for all its quartets or for none: in one
// list, a warp would make them whenever one of its quartets needed them, and the kets of a bra,
// listed by bound, mix near and far pairs.
//
// Computing the candidates as they come left a thread idle for every quartet the screen drops
// while its warp computed the others, and density screening drops a large share of a large
// cluster's candidates. Listed first, every thread of ClassQuartets computes.
//
// The list keeps the plan's order, in which neighbouring kets have contraction loops of about
// equal length, over long stretches: a team tests a window of `window` consecutive candidates,
// one a thread, reserves the window's places with one atomic per part, and writes its kept
// candidates in their order (the first part ascending, the second descending) with a scan. With
// a warp's atomic each, in the order the warps' atomics arrived, a warp of ClassQuartets
// computed pieces of several far apart stretches of the plan, and its threads waited for the
// longest contraction of the lot; runs of consecutive candidates a thread kept the order but
// made the list kernel wait on one candidate's loads after another's (docs/performance-notes.md).
template <class Exec>
struct ListKept {
  using Memory = typename Exec::memory_space;
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Scratch = typename Exec::scratch_memory_space;
  // Per candidate of the window: its bra position, and what the screen decided (kDropped,
  // kCoulomb, kExchange).
  using Bras = Kokkos::View<int*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Parts = Kokkos::View<char*, Scratch, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr char kDropped = 0, kCoulomb = 1, kExchange = 2;
  // A window's two counts in one scanned number: exchange in the low half, Coulomb in the high.
  static constexpr std::int64_t kOneCoulomb = std::int64_t{1} << 32;
  KOKKOS_INLINE_FUNCTION static std::int64_t counted(char part) {
    return part == kExchange ? 1 : part == kCoulomb ? kOneCoulomb : 0;
  }

  // Windows long enough that a warp of ClassQuartets seldom straddles two.
  static constexpr int kWindow = 2048;

  ClassData<Memory> data;
  QuartetScreen<Memory> screen;
  std::int64_t first = 0;
  int count = 0;
  int window = kWindow;
  KeptList<Memory> list;
  Kokkos::View<int[2], Memory> listed;

  int teams() const { return static_cast<int>((std::int64_t{count} + window - 1) / window); }
  static std::size_t scratch_bytes(int window) {
    return Bras::shmem_size(window) + Parts::shmem_size(window);
  }
  // Teams of up to kTeam threads, a power of two: Kokkos' team scan on CUDA needs one. Teams of
  // 1024 ran slower (docs/performance-notes.md).
  static constexpr int kTeam = 256;
  Kokkos::TeamPolicy<Exec> policy() const {
    const auto scratch = Kokkos::PerTeam(scratch_bytes(window));
    const int most = Kokkos::TeamPolicy<Exec>(teams(), 1)
                         .set_scratch_size(0, scratch)
                         .team_size_max(*this, Kokkos::ParallelForTag());
    int team = 1;
    while (2 * team <= most && 2 * team <= kTeam)
      team *= 2;
    return Kokkos::TeamPolicy<Exec>(teams(), team).set_scratch_size(0, scratch);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int begin = team.league_rank() * window;
    const int length = count - begin < window ? count - begin : window;
    const Bras bras(team.team_scratch(0), window);
    const Parts parts(team.team_scratch(0), window);
    // The window's bras, found once: each candidate's bra is then searched for among those few
    // rather than among all of the rank's bras, a chain of dependent loads per candidate.
    const int lowest = data.local_bra(first + begin);
    const int past = data.local_bra(first + begin + length - 1, lowest,
                                    static_cast<int>(data.offsets.extent(0)) - 1) +
                     1;
    std::int64_t kept = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, length),
        [&](const int k, std::int64_t& sum) {
          const std::int64_t t = first + begin + k;
          const int p = data.bra_begin + data.local_bra(t, lowest, past);
          const ScreenedPair bra = data.bra_screen(p), ket = data.ket_screen(data.ket_of(t, p));
          char part = kDropped;
          if (screen.keeps(bra, ket)) part = screen.needs_exchange(bra, ket) ? kExchange : kCoulomb;
          parts(k) = part;
          bras(k) = p;
          sum += counted(part);
        },
        kept);
    team.team_barrier();  // every part and bra in scratch before the scan reads them
    std::int64_t at = 0;  // the window's first places, packed as its counts are
    Kokkos::single(
        Kokkos::PerTeam(team),
        [&](std::int64_t& places) {
          const int exchange =
              Kokkos::atomic_fetch_add(&listed(0), static_cast<int>(kept % kOneCoulomb));
          const int coulomb =
              Kokkos::atomic_fetch_add(&listed(1), static_cast<int>(kept / kOneCoulomb));
          places = exchange + coulomb * kOneCoulomb;
        },
        at);
    const int exchange_at = static_cast<int>(at % kOneCoulomb);
    const int coulomb_at = count - 1 - static_cast<int>(at / kOneCoulomb);
    Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, length),
                          [&](const int k, std::int64_t& before, const bool final) {
                            const char part = parts(k);
                            if (final && part != kDropped) {
                              const int place =
                                  part == kExchange
                                      ? exchange_at + static_cast<int>(before % kOneCoulomb)
                                      : coulomb_at - static_cast<int>(before / kOneCoulomb);
                              list(place, 0) = begin + k;
                              list(place, 1) = bras(k);
                            }
                            before += counted(part);
                          });
  }
};

// The listed quartets of both parts of ListKept's list, first + list(0 .. parts.exchange) and
// first + list(parts.coulomb_begin ..), the first part with its exchange updates, each quartet by
// Class::lanes consecutive work items. One launch for both: in two, each would wait for its
// slowest quartet, which costs a class of few and long quartets such as (dd|dd) more than the
// split saves (docs/performance-notes.md).
//
// One work item per lane, launched as a parallel_for so that the GPU hands out blocks as SMs
// free up: the plan's lists start with the most contracted pairs, whose quartets cost up to a
// thousand times the lightest, and a parallel_reduce (whose grid Kokkos caps, each block taking
// a contiguous range) left a few blocks with all the heavy ones. Teams that first gathered each
// chunk's kept quartets in scratch memory were slower too: their barriers made each warp wait
// for the slowest in its team (docs/performance-notes.md has both).
template <class Class, class Exec, class Sink>
struct ClassQuartets {
  using Memory = typename Exec::memory_space;

  ShellPairs<Memory> pairs;
  BoysTable<Memory> boys;
  ClassData<Memory> data;
  QuartetScreen<Memory> screen;  // for the primitive screen's cutoff
  std::int64_t first = 0;
  Kokkos::View<const int* [2], Kokkos::LayoutRight, Memory> list;
  ListedParts parts;
  Sink sink;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t w) const {
    const int listed = static_cast<int>(w / Class::lanes);
    const bool exchange = listed < parts.exchange;
    const int entry = exchange ? listed : parts.coulomb_begin + (listed - parts.exchange);
    const std::int64_t t = first + list(entry, 0);
    const int p = list(entry, 1), q = data.ket_of(t, p);
    LaneFunctions<Class> functions;
    functions.lane = static_cast<int>(w % Class::lanes);
    const int bra = data.bra_pairs(p), ket = data.ket_pairs(q);
    const double weight =
        quartet_layout(pairs, bra, ket, data.diagonal() && p == q, functions.first);
    double eri[Class::lane_integrals];
    eri_lane<Class>(pairs, boys, bra, ket, functions.lane, eri, screen.primitive_cutoff(bra, ket));
    Impl::block_for<(Class::integrals <= kMostUnrolledIntegrals), Class::lane_integrals>(
        [&](int k) { eri[k] *= weight; });
    sink.quartet(t, functions, eri, exchange, screen.coulomb);
  }
};

// host_update's host part: the buffered quartets [first, first + count) of a class, each block
// read whole and added into this thread's copy of G.
template <class Class, class Memory, class Add>
struct ScatterBuffered {
  ClassData<Memory> data;
  QuartetScreen<Memory> screen;
  ShellPairs<Memory> pairs;
  Kokkos::View<const double**, Kokkos::LayoutLeft, Memory> density;
  Kokkos::View<const double*, Memory> buffer;  // the quartets from `first` on
  std::int64_t first = 0;
  Add add;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    int p, q;
    data.quartet(t, p, q);
    const int bra = data.bra_pairs(p), ket = data.ket_pairs(q);
    if (!screen.keeps(bra, ket)) return;  // never computed
    BlockFunctions functions;
    quartet_layout(pairs, bra, ket, false, functions.first);
    scatter_roles<QuartetExtents<Class>>(functions, &buffer((t - first) * Class::integrals),
                                         density, add.bind(), screen.needs_exchange(bra, ket),
                                         screen.coulomb);
  }
};

}  // namespace kmini::hf
