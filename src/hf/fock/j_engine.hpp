// The Coulomb matrix J_ab = sum_cd D_cd (ab|cd) by a J engine (McMurchie-Davidson), which forms
// no ERI. Three steps per build:
//
//   1. each ket product's Hermite expansion is contracted with the density (integrals/hermite.hpp)
//      into its Hermite row, which the products that are one Gaussian share
//      (fock/hermite_rows.hpp), written in its Hermite degree's table beside the row's centre,
//      exponent and screening weight;
//   2. each bra row sums the Coulomb interaction R of its Hermite Gaussians with every ket row
//      of each degree into its own Hermite potential: a warp per bra row on a GPU, its lanes
//      taking every 32nd row (neighbouring lanes read neighbouring rows) and their sums reduced in
//      a fixed order, so that no two bra rows write one value and every build sums alike; each
//      launch walks one tile of the ket rows, the next launch the next (ket_tile_bytes);
//   3. each pair contracts its products' rows' potentials with their Hermite expansions into its
//      block of J (and the transpose).
//
// Step 2 depends on the rows' Hermite degrees alone, not on the pairs' angular momenta: 25
// (bra degree, ket degree) kernels, whose pairs of rows cost components_up_to(bra degree) times
// components_up_to(ket degree) products with R: for (dd|dd), 35 x 35 against 1296 integrals and
// their recursions.
//
// Step 2 visits each pair of rows from both sides (`both_ways`) or once (`once`,
// JEngineSettings::row_pairs). With a far field (JEngineSettings::far_field, far_field.hpp), the
// pairs of rows in boxes far apart interact through multipole expansions instead, the others
// directly.
// A (bra row, ket row) pair is left out when both bound_p weight_q and weight_p bound_q are below
// the primitive share of the threshold (the G build's primitive screen, QuartetScreen): a row's
// bound is the sum of its products', and its weight the sum of their bounds times their pairs'
// largest |D|. Weighing the bra's density as the ket's keeps J_ab whole where D_ab is large, as
// the G build's screen does (it keeps a quartet for the largest of D_ab, D_cd and the exchange
// pairings' densities).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/timed_chunks.hpp"
#include "hf/basis/molecular_basis.hpp"
#include "hf/fock/far_field.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "hf/screening/quartet_screen.hpp"
#include "hf/screening/schwarz.hpp"

namespace kmini::hf {

// How step 2 visits each pair of Hermite rows: both_ways, each row summing its own potential
// from every ket (no atomics: J is the same bit for bit every build); once, each pair of rows of
// two degrees from the side of the higher, the other row's potential added with atomics.
enum class JRowPairs { both_ways, once };

struct JEngineSettings {
  double threshold = 1e-12;  // on Q_ab Q_cd max|D_cd|
  // Asked before each chunk of bra pairs, as GBuildSettings::stop_requested: once it says yes,
  // the build launches nothing more and leaves J unfinished. Null: never.
  bool (*stop_requested)() = nullptr;
  // As GBuildSettings::setup_stop_requested, when the engine is made.
  bool (*setup_stop_requested)() = nullptr;
  // Bra rows per launch of step 2: a GPU's threads at first, fewer where a launch takes
  // longer than launch_seconds, down to a few warps (timed_chunks.hpp).
  std::int64_t chunk_bras = std::int64_t{1} << 18;
  std::int64_t smallest_chunk_bras = 256;
  double launch_seconds = TimedChunks::kBoundSeconds;
  // Threads per bra row, sharing out the ket rows (at most a team's vector length); 0: on a
  // GPU, by the bra rows' degree (4 for degree 0, 8 above), one on the host.
  int ket_lanes = 0;
  // Segments of ket_lanes each per bra row, each writing its sums apart; 0: enough that the
  // launches of a degree with few bra rows fill a GPU (at most 16), one on the host.
  int ket_segments = 0;
  // Each launch of step 2 walks one tile of the ket rows, at most this many bytes of them (their
  // rows and, visited once, their potentials), and the next launch the next tile, so that the
  // warps resident at once touch one tile, which could stay in a GPU's L2 cache. 0: the whole
  // table in one launch, the default (tiles did not pay on an H200: docs/notes/hf-j-engine.md).
  std::int64_t ket_tile_bytes = 0;
  JRowPairs row_pairs = JRowPairs::both_ways;
  // The pairs of rows far apart by multipoles (far_field.hpp); order 0: every pair exact.
  FarFieldSettings far_field;
};

// A row's Hermite degree is its products' l_a + l_b, at most this.
constexpr int kMaxHermiteDegree = 2 * kMaxShellL;

// How step 2's launches of one bra degree are cut, on a device that `filling_lanes` lanes in one
// launch fill (1 on the host): each bra row's kets in `segments`, enough that the degree's
// `bra_rows` fill the device, and no launch of fewer than `smallest_chunk_bras` bra rows, those
// whose lanes are a quarter of filling_lanes (what the kernels keep resident at once).
//
// The launches of a large molecule outlast the stop check's bound and their chunks shrink
// (timed_chunks.hpp); chunks of a few thousand bra rows then left a GPU mostly idle, and the
// heavy classes two to three times slower (docs/notes/hf-j-engine.md). A launch at the floor
// takes about one wave of bra rows' walks over their kets, short beside the bound. Neither
// depends on time: the segments fix the order of each potential's sums.
struct JLaunchShape {
  int segments = 1;
  std::int64_t smallest_chunk_bras = 1;
};
JLaunchShape j_launch_shape(const JEngineSettings& settings, int lanes, int bra_rows,
                            int filling_lanes);
// The lanes that fill this build's default execution space in one launch (1 on the host).
int j_filling_lanes();

// What the last build did.
struct JEngineRecord {
  double seconds = 0.0;
  double primitive_interactions = 0.0;  // (bra row, ket row) pairs: R evaluated
  double longest_chunk_seconds = 0.0;   // the longest launch between two stop checks
  int most_ket_tiles = 0;               // the most tiles any degree's ket rows were walked in
  double far_field_seconds = 0.0;       // the far field's part of `seconds`
  double far_field_row_pairs = 0.0;     // (bra row, ket row) pairs it took
  // Step 2 per (bra degree, ket degree): its launches' time and interactions.
  static constexpr int kDegrees = kMaxHermiteDegree + 1;
  std::array<std::array<double, kDegrees>, kDegrees> interaction_seconds{}, interactions{};
};

class JEngine {
 public:
  using Memory = Kokkos::DefaultExecutionSpace::memory_space;

  // Rank `rank` of `ranks` builds its share of J: every ranks-th bra pair of each kind.
  JEngine(const MolecularBasis& basis, const JEngineSettings& settings, int rank = 0,
          int ranks = 1);
  // From the pairs a case made once (the G builder takes the same), at `settings.threshold`.
  JEngine(const BoundedPairs& pairs, const JEngineSettings& settings, int rank = 0, int ranks = 1);
  ~JEngine();

  // Adds this rank's share of J over the Cartesian functions, from the symmetric `density`, into
  // `g` (both on the device); the caller sums g over ranks.
  void add(const Matrix<Memory>& density, const Matrix<Memory>& g);

  // The threshold of the next builds is the settings' times `scale` (incremental builds screen a
  // density's change at their own: fock/incremental_g.hpp).
  void set_threshold_scale(double scale);
  // How the next builds visit the pairs of rows.
  void set_row_pairs(JRowPairs row_pairs) { settings_.row_pairs = row_pairs; }

  const JEngineRecord& last() const { return last_; }

  // The primitive products of the shell pairs, and the Hermite rows they share
  // (fock/hermite_rows.hpp): what each bra and ket of the interactions is.
  std::int64_t primitive_products() const { return primitive_products_; }
  std::int64_t hermite_rows() const { return hermite_rows_; }
  // The far field's boxes that hold rows; 0 without a far field.
  int far_field_boxes() const;

 private:
  struct Tables;
  template <int BraDegree, int KetDegree>
  void add_interactions(double largest_density);
  template <class Interactions>
  void launch_interactions(Interactions functor, int bra_degree, int ket_degree);
  // Per bra row of `bra_degree` (JEngineSettings::ket_lanes).
  int ket_lanes(int bra_degree) const;
  // The launches of this rank's bra rows of `bra_degree` (j_launch_shape).
  JLaunchShape launch_shape(int bra_degree) const;
  // The ket rows of one launch's tile, of `ket_rows` rows of `row_bytes` each
  // (JEngineSettings::ket_tile_bytes).
  int ket_tile_rows(std::int64_t row_bytes, int ket_rows) const;

  JEngineSettings settings_;
  std::unique_ptr<Tables> tables_;
  // Per (bra degree, ket degree), the bra rows of its next launch.
  std::vector<TimedChunks> chunks_;
  JEngineRecord last_;
  std::int64_t primitive_products_ = 0, hermite_rows_ = 0;
};

}  // namespace kmini::hf
