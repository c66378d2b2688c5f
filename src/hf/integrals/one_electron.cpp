#include "hf/integrals/one_electron.hpp"

#include <algorithm>
#include <limits>

#include "core/fixed_sums.hpp"
#include "core/view_of.hpp"
#include "hf/integrals/one_electron_block.hpp"

namespace kmini::hf {

namespace {

ShellRef shell_ref(const PlacedShell& shell, const double* exponents, const double* coefficients) {
  ShellRef out;
  out.l = shell.l;
  for (int x = 0; x < 3; ++x)
    out.center[x] = shell.center[x];
  out.exponents = exponents;
  out.coefficients = coefficients;
  out.primitives = static_cast<int>(shell.exponents.size());
  return out;
}

std::vector<ChargeRef> charge_refs(const std::vector<PointCharge>& charges) {
  std::vector<ChargeRef> out;
  for (const PointCharge& charge : charges) {
    ChargeRef ref;
    ref.charge = charge.charge;
    for (int x = 0; x < 3; ++x)
      ref.center[x] = charge.center[x];
    out.push_back(ref);
  }
  return out;
}

// The basis's shells in one memory space: the primitives of all, and each shell's reference to
// its own.
template <class Memory>
struct ShellTable {
  Kokkos::View<double*, Memory> exponents, coefficients;
  Kokkos::View<ShellRef*, Memory> shells;
  Kokkos::View<int*, Memory> first_function;

  explicit ShellTable(const MolecularBasis& basis) {
    std::vector<double> exponent_list, coefficient_list;
    std::vector<int> begin, first;
    for (const PlacedShell& shell : basis.shells) {
      begin.push_back(static_cast<int>(exponent_list.size()));
      first.push_back(shell.first_function);
      exponent_list.insert(exponent_list.end(), shell.exponents.begin(), shell.exponents.end());
      coefficient_list.insert(coefficient_list.end(), shell.coefficients.begin(),
                              shell.coefficients.end());
    }
    exponents = view_of<Kokkos::View<double*, Memory>>("hf::one_electron_exponents", exponent_list);
    coefficients =
        view_of<Kokkos::View<double*, Memory>>("hf::one_electron_coefficients", coefficient_list);
    std::vector<ShellRef> refs;
    for (std::size_t s = 0; s < basis.shells.size(); ++s)
      refs.push_back(
          shell_ref(basis.shells[s], exponents.data() + begin[s], coefficients.data() + begin[s]));
    shells = view_of<Kokkos::View<ShellRef*, Memory>>("hf::one_electron_shells", refs);
    first_function = view_of<Kokkos::View<int*, Memory>>("hf::one_electron_first", first);
  }
};

using Exec = Kokkos::DefaultExecutionSpace;

// Lanes per shell pair by default, each over its share of the nuclei: a warp on a GPU, where a
// thread walking every nucleus alone made each launch as long as its slowest pair (seconds at
// 256 waters in cc-pVDZ); one on the host. Shell pairs per team: four warps a block on a GPU.
constexpr int kNucleusLanes =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible ? 1 : 32;
constexpr int kTeamPairs =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, Exec::memory_space>::accessible ? 1 : 4;

// A thread of a team per (a, b) shell index of the launch (those with b > a do nothing), its
// lanes each computing the pair's block over a contiguous share of the nuclei, their nuclear
// attraction summed in a fixed order (the attraction is linear in the charges); the overlap and
// kinetic blocks are computed once more, without charges. Each pair fills its block and the
// transposed one; a pair outside the extent leaves both at the views' zeros.
template <class Memory>
struct PairBlocks {
  static constexpr int kBlock = functions_of_l(kMaxShellL) * functions_of_l(kMaxShellL);
  using Team = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Memory>;
  using NuclearSums = FixedSums<kBlock>;

  Kokkos::View<const ShellRef*, Memory> shells;
  Kokkos::View<const int*, Memory> first_function;
  Kokkos::View<const ChargeRef*, Memory> charges;
  BoysTable<Memory> boys;
  Matrix overlap, kinetic, nuclear;
  double negligible_exponent;
  int charge_count, shell_count, lanes;
  std::int64_t first, end;  // this launch's (a, b) indices

  KOKKOS_INLINE_FUNCTION void operator()(const Team& team, std::int64_t& count) const {
    const std::int64_t team_first = first + std::int64_t{team.league_rank()} * team.team_size();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, team.team_size()), [&](const int k) {
      const std::int64_t index = team_first + k;
      if (index >= end) return;
      const int a = static_cast<int>(index / shell_count),
                b = static_cast<int>(index % shell_count);
      if (b > a) return;
      const ShellRef& sa = shells(a);
      const ShellRef& sb = shells(b);
      NuclearSums attraction;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, lanes),
          [&](const int lane, NuclearSums& sums) {
            const int begin = charge_count * lane / lanes;
            const int stop = charge_count * (lane + 1) / lanes;
            double s[kBlock], t[kBlock], v[kBlock];
            one_electron_block(sa, sb, charges.data() + begin, stop - begin, boys,
                               negligible_exponent, s, t, v);
            for (int x = 0; x < kBlock; ++x)
              sums.value[x] += v[x];
          },
          attraction);
      Kokkos::single(Kokkos::PerThread(team), [&] {
        double s[kBlock], t[kBlock], none[kBlock];
        if (one_electron_block(sa, sb, charges.data(), 0, boys, negligible_exponent, s, t, none) ==
            0)
          return;
        ++count;
        const int na = functions_of_l(sa.l), nb = functions_of_l(sb.l);
        for (int i = 0; i < na; ++i)
          for (int j = 0; j < nb; ++j) {
            const int row = first_function(a) + i, col = first_function(b) + j;
            const int x = i * nb + j;
            overlap(row, col) = overlap(col, row) = s[x];
            kinetic(row, col) = kinetic(col, row) = t[x];
            nuclear(row, col) = nuclear(col, row) = attraction.value[x];
          }
      });
    });
  }
};

}  // namespace

void one_electron_blocks(const PlacedShell& a, const PlacedShell& b,
                         const std::vector<PointCharge>& charges,
                         const BoysTable<Kokkos::HostSpace>& boys, double* overlap, double* kinetic,
                         double* nuclear) {
  const std::vector<ChargeRef> refs = charge_refs(charges);
  one_electron_block(shell_ref(a, a.exponents.data(), a.coefficients.data()),
                     shell_ref(b, b.exponents.data(), b.coefficients.data()), refs.data(),
                     static_cast<int>(refs.size()), boys, std::numeric_limits<double>::infinity(),
                     overlap, kinetic, nuclear);
}

OneElectronMatrices one_electron_matrices(const MolecularBasis& basis,
                                          const std::vector<PointCharge>& nuclei,
                                          OneElectronWork* work, double negligible_exponent,
                                          const OneElectronLaunch& launch) {
  using Memory = Exec::memory_space;
  using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Memory>;
  const int n = basis.functions;
  const Matrix overlap("hf::overlap", n, n), kinetic("hf::kinetic", n, n),
      nuclear("hf::nuclear", n, n);
  const ShellTable<Memory> table(basis);
  const auto charges =
      view_of<Kokkos::View<ChargeRef*, Memory>>("hf::one_electron_charges", charge_refs(nuclei));
  const int charge_count = static_cast<int>(nuclei.size());
  const auto boys = make_boys_table<Memory>();
  const int shells = static_cast<int>(basis.shells.size());
  const int lanes = launch.nucleus_lanes > 0 ? launch.nucleus_lanes : kNucleusLanes;
  PairBlocks<Memory> blocks{
      table.shells,        table.first_function, charges, boys,  overlap, kinetic, nuclear,
      negligible_exponent, charge_count,         shells,  lanes, 0,       0};
  std::int64_t computed = 0;
  double longest = 0.0;
  TimedChunks chunks(launch.first_chunk, launch.smallest_chunk, launch.launch_seconds);
  for_each_timed_chunk(
      chunks, 0, static_cast<std::int64_t>(shells) * shells,
      [&] { return launch.stop_requested != nullptr && launch.stop_requested(); },
      [&](std::int64_t begin, std::int64_t size) {
        std::int64_t counted = 0;
        blocks.first = begin;
        blocks.end = begin + size;
        const int teams = static_cast<int>((size + kTeamPairs - 1) / kTeamPairs);
        const int vector = std::min(lanes, Kokkos::TeamPolicy<Exec>::vector_length_max());
        // Into a host scalar: the reduction fences the launch, so its time is the chunk's.
        Kokkos::parallel_reduce("hf::one_electron",
                                Kokkos::TeamPolicy<Exec>(teams, kTeamPairs, vector), blocks,
                                counted);
        computed += counted;
      },
      longest);
  if (work != nullptr) {
    work->shell_pairs = static_cast<std::int64_t>(shells) * (shells + 1) / 2;
    work->computed_shell_pairs = computed;
  }
  const auto to_host = [](const Matrix& m) {
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
  };
  return {to_host(overlap), to_host(kinetic), to_host(nuclear)};
}

}  // namespace kmini::hf
