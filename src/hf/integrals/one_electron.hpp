// One-electron integrals over contracted s, p and d shells: overlap, kinetic energy and nuclear
// attraction (one_electron_block.hpp). The matrices are built where Kokkos' default execution
// space runs, the device on GPU builds: on the host, the nuclear attraction of every shell pair
// with every nucleus grew as N^3 and took most of a large cluster's setup.
#pragma once

#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/timed_chunks.hpp"
#include "hf/basis/gaussian_shell.hpp"
#include "hf/basis/molecular_basis.hpp"
#include "hf/integrals/boys.hpp"

namespace kmini::hf {

using HostMatrix = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;

// <a|b>, <a|-1/2 nabla^2|b> and <a|-sum_C q_C/|r-C||b> of two shells, each na x nb row-major,
// from every primitive pair: the host's single blocks, unscreened.
void one_electron_blocks(const PlacedShell& a, const PlacedShell& b,
                         const std::vector<PointCharge>& charges,
                         const BoysTable<Kokkos::HostSpace>& boys, double* overlap, double* kinetic,
                         double* nuclear);

struct OneElectronMatrices {
  HostMatrix overlap, kinetic, nuclear;
};

// How much of the matrices' work was done: shell pairs (a >= b) in all, and those with a
// primitive pair inside the pair extent.
struct OneElectronWork {
  std::int64_t shell_pairs = 0;
  std::int64_t computed_shell_pairs = 0;
};

// Primitive pairs whose product exponent alpha beta / (alpha + beta) |A - B|^2 passes this are
// left out of the matrices: e^-60 is 1e-26, which leaves a pair's share of any element, even
// with the tightest exponents' kinetic factor and thousands of nuclei, below 1e-15.
constexpr double kNegligibleProductExponent = 60.0;

// How the matrices' kernel is launched: in chunks of (a, b) shell indices (half of them b > a,
// which do nothing), each timed (core/timed_chunks.hpp) and cut smaller where one took over the
// bound, a stop asked before each: one launch of a large cluster's nuclear attraction took
// seconds.
struct OneElectronLaunch {
  std::int64_t first_chunk = std::int64_t{1} << 18;
  std::int64_t smallest_chunk = std::int64_t{1} << 10;
  double launch_seconds = TimedChunks::kBoundSeconds;
  // Lanes per shell pair, each over its share of the nuclei (at most a team's vector length);
  // 0: a warp on a GPU, one on the host.
  int nucleus_lanes = 0;
  // Once it says yes, no more chunks: the matrices are left unfinished, for the caller's safe
  // point to throw away. Null: never.
  bool (*stop_requested)() = nullptr;
};

// The three matrices over the whole basis, the nuclei being the charges, built in the default
// execution space from the primitive pairs within the pair extent. `work`, when given, receives
// the counts.
OneElectronMatrices one_electron_matrices(const MolecularBasis& basis,
                                          const std::vector<PointCharge>& nuclei,
                                          OneElectronWork* work = nullptr,
                                          double negligible_exponent = kNegligibleProductExponent,
                                          const OneElectronLaunch& launch = {});

}  // namespace kmini::hf
