// The J engine (hf/fock/j_engine.hpp) against J summed function by function from the whole ERI
// tensor of the production integrals (Obara-Saika and Head-Gordon-Pople, which share no code with
// the engine's Hermite expansions), in a basis of each kind of shell, from random densities; and
// its density screen, which drops interactions and moves J by no more than it allows; lanes,
// segments, ranks and ket tiles each give the same J.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hf/fock/hermite_rows.hpp"
#include "hf/fock/j_engine.hpp"
#include "support/hf_eri_tensor.hpp"

namespace kmini::hf {
namespace {

using kmini::testing::device_matrix;
using kmini::testing::DeviceMatrix;
using kmini::testing::eri_tensor;
using kmini::testing::largest_difference;
using kmini::testing::matrix_values;
using kmini::testing::random_density;
using kmini::testing::reference_j;
using kmini::testing::two_waters;

struct Built {
  std::vector<double> j;
  double interactions = 0.0;
  int ket_tiles = 0;  // the most of any rank's launches
  // Per (bra degree, ket degree), every rank's.
  std::array<std::array<double, JEngineRecord::kDegrees>, JEngineRecord::kDegrees> by_degree{};
};

// J from `ranks` engines, one per rank's share of the bra pairs, summed as the ranks' are.
Built build_j(const MolecularBasis& basis, const std::vector<double>& d, double threshold,
              JEngineSettings settings = {}, int ranks = 1) {
  const int n = basis.functions;
  const DeviceMatrix density = device_matrix(d, n), j("test::j", n, n);
  settings.threshold = threshold;
  Built built;
  for (int rank = 0; rank < ranks; ++rank) {
    JEngine engine(basis, settings, rank, ranks);
    engine.add(density, j);  // j starts at zero, and each rank adds its share
    built.interactions += engine.last().primitive_interactions;
    built.ket_tiles = std::max(built.ket_tiles, engine.last().most_ket_tiles);
    for (int bra = 0; bra < JEngineRecord::kDegrees; ++bra)
      for (int ket = 0; ket < JEngineRecord::kDegrees; ++ket)
        built.by_degree[bra][ket] += engine.last().interactions[bra][ket];
  }
  built.j = matrix_values(j);
  return built;
}

// The largest |x| of a matrix.
double largest_of(const std::vector<double>& values) {
  double largest = 0.0;
  for (const double x : values)
    largest = std::max(largest, std::abs(x));
  return largest;
}

// Ket tiles of a few rows (2 to 15, by the rows' degree) for two waters.
constexpr std::int64_t kTileBytes = 1000;

// s and p (6-31G), d (6-31G*: every bra kind against every ket degree up to (dd|dd)'s), and a
// general contraction with one-centre products merged (cc-pVDZ's s shells).
TEST(HfJEngine, CoulombMatrixOfTheWholeTensorInEveryKindOfBasis) {
  for (const std::string file : {"6-31g.gbs", "6-31g-star.gbs", "cc-pvdz.gbs"}) {
    const MolecularBasis basis = two_waters(file);
    const int n = basis.functions;
    std::mt19937_64 rng(23);
    const std::vector<double> d = random_density(n, 1.0, rng);
    const std::vector<double> want = reference_j(eri_tensor(basis), d, n);
    const double largest = largest_of(want);
    const Built got = build_j(basis, d, 1e-15);
    EXPECT_GT(largest, 1.0) << file;
    EXPECT_LT(largest_difference(got.j, want), 1e-11 * largest) << file;
    EXPECT_GT(got.interactions, 0.0) << file;
    // In the basis with every bra kind and ket degree: a bra row's ket rows shared out among
    // lanes, as on a GPU (on the host the lanes run one after another), and three ranks' shares
    // of the bra pairs.
    if (file != "6-31g-star.gbs") continue;
    JEngineSettings lanes;
    lanes.ket_lanes = 3;
    const Built laned = build_j(basis, d, 1e-15, lanes);
    EXPECT_LT(largest_difference(laned.j, want), 1e-11 * largest) << file;
    EXPECT_EQ(laned.interactions, got.interactions) << file;
    const Built shared = build_j(basis, d, 1e-15, {}, 3);
    EXPECT_LT(largest_difference(shared.j, want), 1e-11 * largest) << file;
    EXPECT_EQ(shared.interactions, got.interactions) << file;
    // Each bra row's kets in four segments of three lanes, each segment's sums apart, as a GPU's
    // launches of few bra rows have them.
    JEngineSettings segmented = lanes;
    segmented.ket_segments = 4;
    const Built segments = build_j(basis, d, 1e-15, segmented);
    EXPECT_LT(largest_difference(segments.j, want), 1e-11 * largest) << file;
    EXPECT_EQ(segments.interactions, got.interactions) << file;
    // And each launch over one tile of a few ket rows, tile after tile, as a GPU walks the
    // tables of a large molecule; the default is one tile.
    EXPECT_EQ(got.ket_tiles, 1) << file;
    JEngineSettings tiled = segmented;
    tiled.ket_tile_bytes = kTileBytes;
    const Built tiles = build_j(basis, d, 1e-15, tiled);
    EXPECT_GT(tiles.ket_tiles, 3) << file;
    EXPECT_LT(largest_difference(tiles.j, want), 1e-11 * largest) << file;
    EXPECT_EQ(tiles.interactions, got.interactions) << file;
  }
}

// Each pair of rows of two degrees visited once, from the higher degree's side, the ket row's
// potential from the same R: J is the tensor's in every kind of basis, with lanes, segments and
// ranks as above; the interactions of (B, K), B > K, are both ways' (B, K), those of (K, B) none,
// those of one degree unchanged. Screened, the pairs kept are the ones both ways keeps: J
// differs by rounding alone.
void expect_visited_once(const Built& once, const Built& both) {
  double off_diagonal = 0.0;
  for (int bra = 0; bra < JEngineRecord::kDegrees; ++bra)
    for (int ket = 0; ket < JEngineRecord::kDegrees; ++ket) {
      SCOPED_TRACE("bra degree " + std::to_string(bra) + ", ket degree " + std::to_string(ket));
      // The screen is symmetric: both ways visits each pair of rows from either side.
      EXPECT_EQ(both.by_degree[bra][ket], both.by_degree[ket][bra]);
      EXPECT_EQ(once.by_degree[bra][ket], bra >= ket ? both.by_degree[bra][ket] : 0.0);
      if (bra > ket) off_diagonal += both.by_degree[bra][ket];
    }
  EXPECT_GT(off_diagonal, 0.0);
  EXPECT_EQ(once.interactions, both.interactions - off_diagonal);
}

TEST(HfJEngine, EachPairOfRowsOfTwoDegreesOnceGivesTheSameJ) {
  JEngineSettings once;
  once.row_pairs = JRowPairs::once;
  for (const std::string file : {"6-31g.gbs", "6-31g-star.gbs", "cc-pvdz.gbs"}) {
    SCOPED_TRACE(file);
    const MolecularBasis basis = two_waters(file);
    const int n = basis.functions;
    std::mt19937_64 rng(41);
    const std::vector<double> d = random_density(n, 1.0, rng);
    const std::vector<double> want = reference_j(eri_tensor(basis), d, n);
    const double largest = largest_of(want);
    const Built both = build_j(basis, d, 1e-15);
    const Built got = build_j(basis, d, 1e-15, once);
    EXPECT_LT(largest_difference(got.j, want), 1e-11 * largest);
    expect_visited_once(got, both);
    JEngineSettings settings = once;
    settings.ket_lanes = 3;
    EXPECT_LT(largest_difference(build_j(basis, d, 1e-15, settings).j, want), 1e-11 * largest);
    settings.ket_segments = 4;
    const Built segments = build_j(basis, d, 1e-15, settings);
    EXPECT_LT(largest_difference(segments.j, want), 1e-11 * largest);
    EXPECT_EQ(segments.interactions, got.interactions);
    const Built shared = build_j(basis, d, 1e-15, once, 3);
    EXPECT_LT(largest_difference(shared.j, want), 1e-11 * largest);
    EXPECT_EQ(shared.interactions, got.interactions);
    JEngineSettings tiled = once;
    tiled.ket_tile_bytes = kTileBytes;
    const Built tiles = build_j(basis, d, 1e-15, tiled);
    EXPECT_GT(tiles.ket_tiles, 3);
    EXPECT_LT(largest_difference(tiles.j, want), 1e-11 * largest);
    EXPECT_EQ(tiles.interactions, got.interactions);
    // Screened, a bra row's kets end partway: in the tiles past its last, it computes nothing.
    const std::vector<double> spread = random_density(n, 8.0, rng);
    const Built screened_both = build_j(basis, spread, 1e-7);
    const Built screened_once = build_j(basis, spread, 1e-7, once);
    EXPECT_LT(largest_difference(screened_once.j, screened_both.j),
              1e-13 * largest_of(screened_both.j));
    expect_visited_once(screened_once, screened_both);
    const Built screened_tiles = build_j(basis, spread, 1e-7, tiled);
    EXPECT_LT(largest_difference(screened_tiles.j, screened_both.j),
              1e-13 * largest_of(screened_both.j));
    expect_visited_once(screened_tiles, screened_both);
  }
}

// Products that are one Gaussian (zeta and P equal but for rounding) share a row of the largest
// degree among them, its bound their sum; a product that differs in zeta or in any axis of P by
// more than rounding does not; the rows of each degree are by bound descending and dealt out to
// the ranks in turn.
TEST(HfJEngine, ProductsThatAreOneGaussianShareAHermiteRow) {
  const double p[3] = {0.5, -1.25, 2.0};
  const auto product = [&](double zeta, double dx, double dy, double dz, double bound, int degree) {
    ProductKey key;
    key.zeta = zeta;
    key.center[0] = p[0] + dx;
    key.center[1] = p[1] + dy;
    key.center[2] = p[2] + dz;
    key.bound = bound;
    key.degree = degree;
    return key;
  };
  const double ulp = 4e-16;
  const std::vector<ProductKey> products = {
      product(1.5, 0, 0, 0, 0.25, 0),               // 0: with 1 and 2
      product(1.5 * (1 + ulp), ulp, 0, 0, 0.5, 1),  // 1: rounding apart
      product(1.5, 0, 0, -ulp, 0.125, 0),           // 2
      product(1.5, 1e-6, 0, 0, 0.75, 0),            // 3: another P (x)
      product(1.5, 0, 0, 1e-6, 0.0625, 1),          // 4: another P (z)
      product(1.5 * (1 + 1e-9), 0, 0, 0, 1.0, 0),   // 5: another zeta
      product(0.3, 0, 0, 0, 2.0, 0),                // 6
  };
  const HermiteRows rows = group_hermite_rows(products, 3, 1, 2);
  ASSERT_EQ(rows.rows(0), 3);  // 3, 5 and 6
  ASSERT_EQ(rows.rows(1), 2);  // {0, 1, 2} and 4
  EXPECT_EQ(rows.rows(2), 0);
  EXPECT_EQ(rows.row_degree[0], 1);
  EXPECT_EQ(rows.row[0], rows.row[1]);
  EXPECT_EQ(rows.row[0], rows.row[2]);
  EXPECT_EQ(rows.row_degree[2], 1);
  EXPECT_NE(rows.row[0], rows.row[4]);
  EXPECT_DOUBLE_EQ(rows.bound[1][rows.row[0]], 0.875);
  // Degree 0's rows by bound: 6 (2.0), 5 (1.0), 3 (0.75).
  EXPECT_EQ(rows.row[6], 0);
  EXPECT_EQ(rows.row[5], 1);
  EXPECT_EQ(rows.row[3], 2);
  const int begin = rows.member_begin[1][rows.row[0]], end = rows.member_begin[1][rows.row[0] + 1];
  std::vector<int> members(rows.members[1].begin() + begin, rows.members[1].begin() + end);
  std::sort(members.begin(), members.end());
  EXPECT_EQ(members, (std::vector<int>{0, 1, 2}));
  // Rank 1 of 2: the second of each degree's rows.
  EXPECT_EQ(rows.owned[0], (std::vector<int>{1}));
  EXPECT_EQ(rows.owned[1], (std::vector<int>{1}));
}

// Screened at 1e-7 from a density spread over eight decades, the engine leaves interactions out,
// and each (bra row, ket row) pair it drops moved J_ab by less than a tenth of the
// threshold: J stays within the threshold times the number of shell pairs.
TEST(HfJEngine, TheDensityScreenDropsInteractionsWithinItsBound) {
  const MolecularBasis basis = two_waters("6-31g-star.gbs");
  const int n = basis.functions;
  std::mt19937_64 rng(29);
  const std::vector<double> d = random_density(n, 8.0, rng);
  const Built whole = build_j(basis, d, 1e-15);
  const Built screened = build_j(basis, d, 1e-7);
  EXPECT_LT(screened.interactions, 0.9 * whole.interactions);
  const double pairs = static_cast<double>(basis.shells.size() * (basis.shells.size() + 1) / 2);
  EXPECT_LT(largest_difference(screened.j, whole.j), 1e-7 * pairs);
  EXPECT_GT(largest_difference(screened.j, whole.j), 0.0);
}

// A ket pair of small density still reaches the bras of large density: with D ~ 1 on one
// water's block and 1e-8 on the other's, 3 A apart, the second water's part of J on the first's
// block (J of the whole density less J of the first's alone) is the tensor's to a thousandth,
// though bound_p weight_q is under the cutoff for nearly every pair of rows that carries it; the
// screen weighs the bra's density too (the energy weighs J_ab by D_ab, and the G build keeps a
// quartet for the larger of D_ab and D_cd).
TEST(HfJEngine, AKetOfSmallDensityStillReachesTheBrasOfLargeDensity) {
  const MolecularBasis basis = two_waters("6-31g.gbs");
  const int n = basis.functions;
  std::vector<bool> first(n, false);
  for (const PlacedShell& shell : basis.shells)
    for (int f = 0; f < functions_of_l(shell.l); ++f)
      first[shell.first_function + f] = shell.atom < 3;
  std::mt19937_64 rng(37);
  const std::vector<double> random = random_density(n, 1.0, rng);
  std::vector<double> d(random.size(), 0.0), first_only(random.size(), 0.0);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      if (first[i] != first[k]) continue;
      d[i * n + k] = first[i] ? random[i * n + k] : 1e-8 * random[i * n + k];
      if (first[i]) first_only[i * n + k] = d[i * n + k];
    }
  const std::vector<double> eri = eri_tensor(basis);
  const std::vector<double> whole = reference_j(eri, d, n), alone = reference_j(eri, first_only, n);
  const double threshold = 1e-6;
  const Built got = build_j(basis, d, threshold), got_alone = build_j(basis, first_only, threshold);
  double largest = 0.0, worst = 0.0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      if (!first[i] || !first[k]) continue;
      const double want = whole[i * n + k] - alone[i * n + k];
      largest = std::max(largest, std::abs(want));
      worst = std::max(worst, std::abs(got.j[i * n + k] - got_alone.j[i * n + k] - want));
    }
  EXPECT_GT(largest, 1e-10);
  EXPECT_LT(worst, 1e-3 * largest);
}

// The engine launches each class's bra pairs in chunks, timed (timed_chunks.hpp): with a bound
// no launch keeps (0 s) they fall to one bra pair each after the first on the host (to those
// that fill a GPU there), asked before each whether to stop, and J is the same; asked to stop at
// once, it adds nothing.
int j_questions = 0;
bool count_j_question() {
  ++j_questions;
  return false;
}
bool stop_at_once() {
  return true;
}

TEST(HfJEngine, ChunksOfBraPairsOverTheirBoundAreCutSmallerWithTheSameJ) {
  const MolecularBasis basis = two_waters("6-31g-star.gbs");
  const int n = basis.functions;
  std::mt19937_64 rng(31);
  const std::vector<double> d = random_density(n, 1.0, rng);
  JEngineSettings settings;
  settings.chunk_bras = 16;
  settings.smallest_chunk_bras = 1;
  settings.stop_requested = count_j_question;
  j_questions = 0;
  const Built kept = build_j(basis, d, 1e-12, settings);
  const int asked_within_bound = j_questions;
  settings.launch_seconds = 0.0;
  j_questions = 0;
  const Built cut = build_j(basis, d, 1e-12, settings);
  EXPECT_GT(kept.interactions, 0.0);
  EXPECT_EQ(cut.interactions, kept.interactions);
  EXPECT_EQ(largest_difference(cut.j, kept.j), 0.0);  // each bra pair's block is its own
  // On a GPU no chunk falls below the bra rows that fill it (j_launch_shape): two waters' rows of
  // each degree are fewer, one chunk each.
  if (j_filling_lanes() == 1) {
    EXPECT_GT(j_questions, 3 * asked_within_bound);
  } else {
    EXPECT_EQ(j_questions, asked_within_bound);
  }
  // Bra rows in segments, launched a bra row at a time: each chunk's segment sums go to its own
  // bra rows.
  settings.ket_segments = 3;
  const Built segmented = build_j(basis, d, 1e-12, settings);
  EXPECT_EQ(segmented.interactions, kept.interactions);
  double largest = 0.0;
  for (const double x : kept.j)
    largest = std::max(largest, std::abs(x));
  EXPECT_LT(largest_difference(segmented.j, kept.j), 1e-13 * largest);
  settings.ket_segments = 0;
  settings.stop_requested = stop_at_once;
  const Built stopped = build_j(basis, d, 1e-12, settings);
  EXPECT_EQ(stopped.interactions, 0.0);
  EXPECT_EQ(largest_difference(stopped.j, std::vector<double>(n * n, 0.0)), 0.0);
}

// Step 2's launches on a device that 8192 warps fill: each bra row's kets in segments where the
// bra rows are few, and no chunk too small to keep a quarter of it busy in its segments, however
// the stop check's bound shrinks them; on the host, one segment and chunks of any size; the
// settings' segments where given.
TEST(HfJEngine, LaunchesFillTheDeviceAtTheirSmallest) {
  const int filling = 8192 * 32;
  const JEngineSettings defaults;
  const auto fills = [&](const JLaunchShape& shape, int lanes) {
    const std::int64_t per_bra = std::int64_t{lanes} * shape.segments;
    return shape.smallest_chunk_bras * per_bra >= filling / 4 &&
           (shape.smallest_chunk_bras - 1) * per_bra < filling / 4;
  };
  for (const int lanes : {4, 8, 32})
    for (const int bras : {1, 1000, 100000, 1000000}) {
      SCOPED_TRACE(std::to_string(lanes) + " lanes, " + std::to_string(bras) + " bra rows");
      const JLaunchShape shape = j_launch_shape(defaults, lanes, bras, filling);
      EXPECT_GE(shape.segments, 1);
      EXPECT_LE(shape.segments, 16);
      EXPECT_TRUE(fills(shape, lanes));
    }
  // Few bra rows: as many segments as fill the device, at most 16.
  EXPECT_EQ(j_launch_shape(defaults, 8, 4096, filling).segments, 8);
  EXPECT_EQ(j_launch_shape(defaults, 8, 4096, filling).smallest_chunk_bras, 1024);
  EXPECT_EQ(j_launch_shape(defaults, 8, 100, filling).segments, 16);
  EXPECT_EQ(j_launch_shape(defaults, 8, 100, filling).smallest_chunk_bras, 512);
  // Bra rows enough to fill it: one segment, and chunks of at least those whose lanes are a
  // quarter of it, what the kernels keep resident.
  EXPECT_EQ(j_launch_shape(defaults, 8, 100000, filling).segments, 1);
  EXPECT_EQ(j_launch_shape(defaults, 8, 100000, filling).smallest_chunk_bras, 8192);
  EXPECT_EQ(j_launch_shape(defaults, 4, 100000, filling).smallest_chunk_bras, 16384);
  // The host: one segment, no floor.
  const JLaunchShape host = j_launch_shape(defaults, 1, 100000, 1);
  EXPECT_EQ(host.segments, 1);
  EXPECT_EQ(host.smallest_chunk_bras, 1);
  JEngineSettings three;
  three.ket_segments = 3;
  EXPECT_EQ(j_launch_shape(three, 8, 100000, filling).segments, 3);
  EXPECT_EQ(j_launch_shape(three, 1, 100000, 1).segments, 3);
  EXPECT_TRUE(fills(j_launch_shape(three, 8, 100000, filling), 8));
}

}  // namespace
}  // namespace kmini::hf
