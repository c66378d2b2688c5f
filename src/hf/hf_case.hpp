// The hf app's case: each variant's SCF, the G builds from its converged density that the runner
// times, their validation (hf_case.cpp) and their metrics (hf_metrics.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/app.hpp"
#include "hf/basis/molecular_basis.hpp"
#include "hf/fock/auto_update.hpp"
#include "hf/fock/g_build.hpp"
#include "hf/fock/j_engine.hpp"
#include "hf/fock/symmetric_rank_sum.hpp"
#include "hf/hf_setup.hpp"
#include "hf/integrals/one_electron.hpp"
#include "hf/scf/function_transform.hpp"
#include "hf/scf/scf.hpp"

namespace kmini::hf {

// One G build of the SCF, over all ranks.
struct BuildRow {
  bool full = true;                // from the whole density, not its change
  double computed = 0.0;           // quartets
  double listed = 0.0;             // candidates the screen tested, computed ones among them
  double coulomb_only = 0.0;       // of them, those without exchange updates
  double rank_computed_min = 0.0;  // the least and most any rank computed
  double rank_computed_max = 0.0;
  double largest_density = 0.0;       // max |D| of what was built (density screening)
  std::vector<double> class_seconds;  // slowest rank, per class of the plan
  double list_seconds = 0.0;          // slowest rank, of the classes' time: the kept lists'
  double longest_launch = 0.0;        // s, slowest rank: the longest launch between two stop checks
};

class HfCase : public Case {
 public:
  HfCase(const Params& params, const RunContext& context);

  // The variant's whole SCF, untimed by the runner (its own timings go to the metrics), so that
  // the timed repetitions are G builds from its converged density: the same work every time.
  void prepare(const VariantSpec& variant) override;

  // One G build from the whole converged density, compared bit for bit with the first.
  Counts run(const VariantSpec& variant) override;

  Validation validate(const VariantSpec& variant) override;

  std::vector<Metric> metrics(const VariantSpec& variant) const override;

 private:
  // The metrics by topic (hf_metrics.cpp), each appended to `out` in the report's order.
  void add_scf_metrics(const VariantSpec& variant, std::vector<Metric>& out) const;
  void add_repeated_build_metrics(std::vector<Metric>& out) const;
  void add_setup_metrics(std::vector<Metric>& out) const;
  void add_basis_metrics(std::vector<Metric>& out) const;
  void add_rank_metrics(const VariantSpec& variant, std::vector<Metric>& out) const;
  void add_screening_metrics(const VariantSpec& variant, std::vector<Metric>& out) const;
  void add_class_metrics(const VariantSpec& variant, std::vector<Metric>& out) const;
  void add_auto_metrics(std::vector<Metric>& out) const;

  // G from `density` by the variant's update, summed over ranks.
  // Times this rank's share and the sum into last_build_phases_.
  void build_g(const VariantSpec& variant, const Matrix<DeviceMemory>& density,
               const Matrix<DeviceMemory>& g);

  // The builder's latest build, over all ranks.
  BuildRow row_of_last_build(bool full) const;

  // rank_balance measured: every rank's stripes of every class cut anew by the latest build's
  // kept fractions, summed over the ranks so that every rank cuts alike.
  void recut_shares();

  // One G build's host time on this rank: its own share of the quartets, and the sum of G over
  // the ranks (which waits for the slowest share).
  struct BuildPhases {
    double own = 0.0;
    double sum = 0.0;
    double j = 0.0;  // of own, fock_algorithm split: the J engine's; the rest is K's
  };

  // Host seconds of the setup's steps, from the case's construction to the first variant's first
  // G build: the basis on the atoms, the shell pairs and their products' bounds; the G builder's
  // Schwarz bounds and plan; the J engine's rows; the one-electron matrices; the atomic guess;
  // the function transform; the SCF's start (S^-1/2 and the guess's orbitals).
  struct SetupTimes {
    double shell_pairs = 0.0, g_builder = 0.0, j_engine = 0.0;
    double one_electron = 0.0, guess = 0.0, transform = 0.0;
    double scf_start = -1.0;  // until the first SCF reaches its first G build
  };

  const Comm& comm_;
  SetupTimes setup_times_;
  OneElectronWork one_electron_work_;
  BuildPhases last_build_phases_;
  BuildPhases repeat_phases_;  // the last repetition's
  HfSetup setup_;
  MolecularBasis basis_;
  OneElectronMatrices one_electron_;
  HostMatrix initial_density_;  // empty: the core Hamiltonian's guess
  // The SCF's functions over the Cartesian ones, and the Cartesian density and G of a build when
  // they differ.
  std::unique_ptr<FunctionTransform> transform_;
  DenseProducts products_;
  Matrix<DeviceMemory> cartesian_density_, cartesian_g_;
  std::unique_ptr<GBuilder> builder_;
  std::unique_ptr<JEngine> j_engine_;  // fock_algorithm: split
  SymmetricRankSum sum_over_ranks_;
  std::unique_ptr<AutoUpdate> auto_;  // while the auto variant runs
  std::map<std::size_t, ScfResult> results_;
  // A variant's SCF on this rank: its seconds, those outside its G builds (the dense algebra, the
  // density's change, the convergence tests), and the times the ranks' shares were cut anew.
  struct ScfTimes {
    double seconds = 0.0, outside_g = 0.0;
    int share_recuts = 0;
  };
  std::map<std::size_t, ScfTimes> scf_times_;
  std::map<std::size_t, std::vector<BuildRow>> scf_builds_;
  Matrix<DeviceMemory> g_;
  std::vector<double> first_g_;  // this rank's first repeated build
  std::int64_t repeats_differ_ = 0;
  double fastest_repeat_ = INFINITY;
  BuildRow repeat_row_;  // the latest repeated build
  std::optional<double> first_energy_;
  double first_change_ = 0.0;  // its SCF's last energy change
  std::string first_variant_;
};

}  // namespace kmini::hf
