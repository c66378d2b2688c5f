// The two-electron term G = J - K/2 of the Fock matrix, built from the integrals of the planned
// and screened quartets by one of the update variants. This is where the hf app spends its time.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/timed_chunks.hpp"
#include "hf/basis/molecular_basis.hpp"
#include "hf/fock/g_update.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "hf/screening/quartet_plan.hpp"
#include "hf/screening/quartet_screen.hpp"
#include "hf/screening/schwarz.hpp"

namespace kmini::hf {

using DeviceMemory = Kokkos::DefaultExecutionSpace::memory_space;

struct ListedParts;  // g_kernels.hpp
class ClassShare;

// How a device thread adds a contribution into G.
enum class DeviceAdd { plain_atomic, warp_aggregated };

struct GBuildSettings {
  Screening screening = Screening::density;
  double threshold = 1e-12;
  bool primitive_screening = true;          // the contraction's own screen (eri.hpp)
  double batch_bytes = 1024.0 * 1048576.0;  // bounds the buffer of kernel_split and host_update
  // Candidates screened per kernel launch at most: the list of those kept takes 4 bytes each.
  // A class's chunks start smaller by its integrals per quartet, and shrink where one takes
  // longer than launch_seconds, down to smallest_chunk_quartets (timed_chunks.hpp).
  std::int64_t chunk_quartets = std::int64_t{1} << 25;
  std::int64_t smallest_chunk_quartets = std::int64_t{1} << 14;
  double launch_seconds = TimedChunks::kBoundSeconds;
  // What follows a batch's store goes in timed launches too, all at once at first, never below
  // these once they shrink: kernel_split's gather (G blocks, a few dozen teams per SM of a GPU)
  // and host_update's additions on the host (buffered quartets).
  std::int64_t smallest_gather_blocks = 4096;
  std::int64_t smallest_host_additions = std::int64_t{1} << 14;
  // false: the exchange updates alone, G = -K/2, for a J engine to add J (fock_algorithm: split);
  // quartets whose exchange updates the density screen drops are then not computed at all.
  bool coulomb = true;
  // Asked before each class, chunk and batch: once it says yes, the build launches nothing more
  // and leaves G unfinished, for its caller to throw away (a signal's safe point comes after the
  // build; a build of a large cluster takes tens of seconds). Null: never.
  bool (*stop_requested)() = nullptr;
  // Asked between the launches of the Schwarz and product bounds, when the builder is made: once
  // it says yes, the builder is left without a plan, for its caller's safe point to throw away
  // (a large cluster's bounds take seconds). Null: never.
  bool (*setup_stop_requested)() = nullptr;
};

// What one G build did on this rank, class by class (in the plan's order).
struct GBuildRecord {
  std::vector<double> seconds;         // each class's time, fenced on both sides
  std::vector<double> candidates;      // the quartets of this build's prefixes
  std::vector<double> computed;        // those the screen kept: the quartets computed
  std::vector<double> coulomb_only;    // those of them whose exchange updates the screen skipped
  std::vector<double> list_seconds;    // of each class's time, its kept lists' (ListKept)
  double largest_density = 0.0;        // max |D| of the build's density (density screening)
  double longest_chunk_seconds = 0.0;  // the longest launch between two stop checks

  double total_computed() const;
  double total_seconds() const;
};

class GBuilder {
 public:
  GBuilder(const MolecularBasis& basis, const GBuildSettings& settings, int rank, int ranks);
  // From the pairs a case made once (the J engine takes the same), at `settings.threshold`.
  GBuilder(const MolecularBasis& basis, const BoundedPairs& pairs, const GBuildSettings& settings,
           int rank, int ranks);
  ~GBuilder();

  // This rank's share of G from `density` (both full symmetric matrices on the device),
  // symmetrised; the caller sums it over ranks. G is linear in the density: a change of the
  // density gives the change of G.
  void build(const GUpdate& update, const Matrix<DeviceMemory>& density,
             const Matrix<DeviceMemory>& g);

  // The same with updates[i] for the quartets of class i (of the plan's classes), so that each
  // class can take the update that suits it.
  void build_by_class(const std::vector<const GUpdate*>& updates,
                      const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g);
  // Chooses a class's candidate from each candidate's seconds and quartets computed on its
  // stripes: choose(class, seconds, computed), called for every class of the plan in order, on
  // every rank.
  using ChooseCandidate = std::function<std::size_t(std::size_t, const std::vector<double>&,
                                                    const std::vector<double>&)>;
  // auto's trial: the same with a share of each class's quartets split into stripes, a few per
  // candidate, candidate k's built by candidates[k] and timed on their own; then `choose` picks
  // the candidate that builds the rest of the class (the trial's policy: g_build_trial.hpp).
  void build_trial(const std::vector<const GUpdate*>& candidates,
                   const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g,
                   const ChooseCandidate& choose);

  // The builds that follow skip quartets below settings.threshold times `scale` (at most 1):
  // incremental builds screen a density's change tighter (incremental_g.hpp).
  void set_threshold_scale(double scale) { threshold_scale_ = scale; }

  // Runs each update's device kernels once on one quartet, into a G that is thrown away, so that
  // loading them stays out of the first timed build (ClassShare says which it loads).
  void warm_up(const std::vector<const GUpdate*>& updates, const Matrix<DeviceMemory>& density);

  // The ranks' shares cut by a build's measured cost: per class of the plan and per stripe of
  // its plan (stripes_of(ranks, kStripesPerRank) each), the fraction of the stripe's candidates
  // that the latest build kept where this rank held the stripe, 0 where another did. Summed over
  // the ranks, deal_by_kept cuts every class's stripes anew into equal counts of kept quartets by
  // them (measured_cost_before), alike on every rank; a class that kept nothing keeps its stripes.
  std::vector<double> stripe_kept_fractions() const;
  void deal_by_kept(const std::vector<double>& fractions);

  // The plan's classes, whose order the records and build_by_class's vectors follow.
  const QuartetPlan& plan() const { return plan_; }
  // The latest build.
  const GBuildRecord& last() const { return last_; }
  // The largest number of integrals one buffered batch has held.
  double batch_capacity() const { return batch_capacity_; }

 private:
  friend class ClassShare;
  template <class Memory>
  struct Tables;
  struct HostBuild;
  struct Build;
  struct WarmUp;

  void make_plan();
  void clear_range_kept();
  template <class Memory>
  std::unique_ptr<Tables<Memory>> make_tables() const;
  // The quartets of a build: the screen of `density` and every class's prefixes, the plan
  // grown first where the density exceeds what it covers.
  void screen(const Matrix<DeviceMemory>& density, Build& build);
  // Class i's bras [first_bra, end_bra) of this build, by `update`.
  void run_class(const GUpdate& update, std::size_t i, std::int64_t first_bra, std::int64_t end_bra,
                 Build& build);
  // Class i's candidates [first, first + count) that the screen keeps, chunk by chunk listed
  // (ListKept) and computed into `sink` (ClassQuartets).
  template <class Class, class Sink>
  void launch(const char* stem, std::size_t i, std::int64_t first, std::int64_t count,
              const Sink& sink);
  // [first, first + count) in launches that `chunks` sizes by their time (timed_chunks.hpp):
  // launch(begin, size) launches one and fences it. A stop is asked before each; the longest is
  // the build's longest_chunk_seconds.
  template <class Launch>
  void for_each_timed_chunk(TimedChunks& chunks, std::int64_t first, std::int64_t count,
                            const Launch& launch) {
    kmini::for_each_timed_chunk(
        chunks, first, count, [this] { return stopping(); }, launch, last_.longest_chunk_seconds);
  }
  // ClassQuartets on the parts of the tables' list, offsets from `first`.
  template <class Class, class Sink>
  void compute_listed(const char* stem, std::size_t i,
                      const Tables<typename Sink::Exec::memory_space>& t, std::int64_t first,
                      const ListedParts& parts, const Sink& sink) const;
  // ClassShare's operations on class Class (the i-th of the plan), bras [bra_begin, bra_end):
  // each is compiled once per class, in the g_build_classes_*.cpp units.
  template <class Class>
  void scatter(DeviceAdd add, std::size_t i, int bra_begin, int bra_end, Build& build);
  template <class Class>
  void split(std::size_t i, int bra_begin, int bra_end, Build& build);
  template <class Class>
  void add_batches_on_host(std::size_t i, int bra_begin, int bra_end, Build& build);
  template <class Class>
  void compute_on_host(std::size_t i, int bra_begin, int bra_end, Build& build);
  // scatter's kernel on class i's first candidate alone, into warm_up's G.
  template <class Class>
  void warm_up_scatter(DeviceAdd add, std::size_t i, const WarmUp& warm);
  // The build's host part, and the host tables, made when a host variant first needs them.
  HostBuild& host_build(Build& build);
  // This build's quartets of class i's bras [bra_begin, bra_end): the first and the count.
  std::array<std::int64_t, 2> quartet_range(std::size_t i, int bra_begin, int bra_end,
                                            Build& build) const;
  // kernel_split's and host_update's first kernel, batch by batch into the buffer, each batch
  // then handed to after_store(p_begin, p_end, first, count, integrals).
  template <class Class, class AfterStore>
  void for_each_stored_batch(std::size_t i, int bra_begin, int bra_end, Build& build,
                             const AfterStore& after_store);
  // This build's offsets of class i's bras on the host (the plan's unless a screen cut them).
  const std::vector<std::int64_t>& offsets(std::size_t i, Build& build) const;
  // Consecutive bra ranges within [bra_begin, bra_end) whose integrals fit the buffer.
  std::vector<std::array<int, 2>> batches(std::size_t i, int bra_begin, int bra_end,
                                          Build& build) const;
  void finish(Build& build, const Matrix<DeviceMemory>& g);

  const MolecularBasis& basis_;
  GBuildSettings settings_;
  bool stopping() const {
    return settings_.stop_requested != nullptr && settings_.stop_requested();
  }
  int rank_, ranks_;
  std::vector<std::array<int, 2>> pair_shells_;
  ShellPairs<Kokkos::HostSpace> host_pairs_;
  std::vector<int> pair_kinds_, pair_primitives_;
  std::vector<double> schwarz_;
  // Density screening plans for densities up to this: the plan keeps Q_ab Q_cd >= threshold /
  // covered_density_, and a build whose density exceeds it plans again.
  double covered_density_ = 0.0;
  double threshold_scale_ = 1.0;
  QuartetPlan plan_;
  GBuildRecord last_;
  std::vector<double> kept_;          // per class, the quartets this build has computed so far
  std::vector<double> coulomb_only_;  // per class, those of them without exchange updates
  std::vector<double> list_seconds_;  // per class, this build's time in ListKept so far
  // Per class and range of its share, the quartets this build has computed there so far.
  std::vector<std::vector<double>> range_kept_;
  double batch_capacity_ = 0.0;
  std::unique_ptr<Tables<DeviceMemory>> device_;
  std::unique_ptr<Tables<Kokkos::HostSpace>> host_;  // made when a host variant first runs
  Kokkos::View<double*, DeviceMemory> buffer_;
};

// One class's share of a G build on this rank, bras [bra_begin, bra_end) of the plan's class i,
// as an update (g_update.hpp) sees it: the operations that updates are made of. In GBuilder's
// warm-up the device operations compute the class's first candidate alone, into a G that is
// thrown away, so that loading their kernels stays out of the first timed build; the others load
// nothing then (the buffer grows in the first build that needs it) and do nothing.
class ClassShare {
 public:
  // The share's quartets computed on the device, each contribution added into G there.
  void scatter(DeviceAdd add);
  // Computed into the integral buffer batch by batch; each G block then gathers its
  // contributions in one team: no atomics, so G is the same bit for bit every build.
  void store_and_gather();
  // Computed into the integral buffer batch by batch, each batch copied to the host and added
  // into G by the host's threads, each with a private G.
  void store_and_add_on_host();
  // Computed and added on the host's threads, each with a private G.
  void compute_on_host();

 private:
  friend class GBuilder;
  ClassShare(GBuilder& builder, std::size_t i, int bra_begin, int bra_end, GBuilder::Build* build,
             const GBuilder::WarmUp* warm)
      : builder_(builder),
        i_(i),
        bra_begin_(bra_begin),
        bra_end_(bra_end),
        build_(build),
        warm_(warm) {}
  // A build's share that holds no quartet, where no operation does anything.
  bool empty() const;

  GBuilder& builder_;
  std::size_t i_;
  int bra_begin_, bra_end_;
  GBuilder::Build* build_;        // nullptr in a warm-up
  const GBuilder::WarmUp* warm_;  // nullptr in a build
};

}  // namespace kmini::hf
