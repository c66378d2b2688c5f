// The Coulomb matrix J_ab = sum_cd D_cd (ab|cd) by a J engine (McMurchie-Davidson), which forms
// no ERI: each ket product's Hermite expansion is contracted with the density first, into one
// Hermite density per product (integrals/hermite.hpp), and each bra product then sums the Coulomb
// interaction R of its Hermite Gaussians with every ket product's density. A quartet class's
// na nb nc nd integrals become components_up_to(l_a + l_b) times components_up_to(l_c + l_d)
// products with R per primitive quartet: for (dd|dd), 35 x 35 against 1296 integrals and their
// recursions.
//
// Every pair of significant pairs interacts directly: there is no far field (multipoles) yet. A ket
// pair is left out for a bra when Q_ab Q_cd max|D_cd| is below the threshold, the G build's density
// screen.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/timed_chunks.hpp"
#include "hf/basis/molecular_basis.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "hf/screening/quartet_screen.hpp"

namespace kmini::hf {

struct JEngineSettings {
  double threshold = 1e-12;  // on Q_ab Q_cd max|D_cd|
  // Asked before each chunk of bra pairs, as GBuildSettings::stop_requested: once it says yes,
  // the build launches nothing more and leaves J unfinished. Null: never.
  bool (*stop_requested)() = nullptr;
  // As GBuildSettings::setup_stop_requested, when the engine is made.
  bool (*setup_stop_requested)() = nullptr;
  // Bra pairs per launch: a GPU's threads at first, fewer where a launch takes longer than
  // launch_seconds, down to a few warps (timed_chunks.hpp).
  std::int64_t chunk_bras = std::int64_t{1} << 16;
  std::int64_t smallest_chunk_bras = 256;
  double launch_seconds = TimedChunks::kBoundSeconds;
  // Threads per bra pair, sharing out its ket pairs (at most what a team may hold); 0: a warp on
  // a GPU, one on the host.
  int ket_lanes = 0;
};

// What the last build did.
struct JEngineRecord {
  double seconds = 0.0;
  double primitive_interactions = 0.0;  // (bra product, ket product) pairs: R evaluated
  double longest_chunk_seconds = 0.0;   // the longest launch between two stop checks
};

class JEngine {
 public:
  using Memory = Kokkos::DefaultExecutionSpace::memory_space;

  // Rank `rank` of `ranks` builds its share of J: a range of each kind's bra products.
  JEngine(const MolecularBasis& basis, const JEngineSettings& settings, int rank = 0,
          int ranks = 1);
  ~JEngine();

  // Adds this rank's share of J over the Cartesian functions, from the symmetric `density`, into
  // `g` (both on the device); the caller sums g over ranks.
  void add(const Matrix<Memory>& density, const Matrix<Memory>& g);

  // The threshold of the next builds is the settings' times `scale` (incremental builds screen a
  // density's change at their own: fock/incremental_g.hpp).
  void set_threshold_scale(double scale);

  const JEngineRecord& last() const { return last_; }

 private:
  struct Tables;
  template <int BraKind, int KetDegree>
  void add_class(const Matrix<Memory>& j, double largest_density);

  JEngineSettings settings_;
  std::unique_ptr<Tables> tables_;
  // Per class (bra kind, ket degree), the bra pairs of its next launch.
  std::vector<TimedChunks> chunks_;
  JEngineRecord last_;
};

}  // namespace kmini::hf
