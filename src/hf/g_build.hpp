// The two-electron part G = J - K/2 of the Fock matrix, built from the integrals of the planned
// and screened quartets by one of the update variants. This is where the hf app spends its time.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "hf/molecular_basis.hpp"
#include "hf/quartet_plan.hpp"
#include "hf/quartet_screen.hpp"
#include "hf/shell_pairs.hpp"

namespace kmini::hf {

using DeviceMemory = Kokkos::DefaultExecutionSpace::memory_space;

struct ListedParts;  // g_kernels.hpp

enum class GUpdate {
  atomic,           // plain atomics into G for every contribution
  warp_aggregated,  // the same through the reducers' warp-aggregated atomics
  kernel_split,     // integrals to a buffer, then a gather per G block: no atomics
  host_update,      // integrals on the device, G assembled on the host's threads
  cpu               // everything on the host's threads
};

struct GBuildSettings {
  Screening screening = Screening::density;
  double threshold = 1e-12;
  bool primitive_screening = true;          // the contraction's own screen (eri.hpp)
  double batch_bytes = 1024.0 * 1048576.0;  // bounds the buffer of kernel_split and host_update
  // Candidates screened per kernel launch: the list of those kept takes 4 bytes each.
  std::int64_t chunk_quartets = std::int64_t{1} << 25;
};

// What one G build did on this rank, class by class (in the plan's order).
struct GBuildRecord {
  std::vector<double> seconds;       // each class's time, fenced on both sides
  std::vector<double> candidates;    // the quartets of this build's prefixes
  std::vector<double> computed;      // those the screen kept: the quartets computed
  std::vector<double> coulomb_only;  // those of them whose exchange updates the screen skipped
  double largest_density = 0.0;      // max |D| of the build's density (density screening)

  double total_computed() const;
  double total_seconds() const;
};

class GBuilder {
 public:
  GBuilder(const MolecularBasis& basis, const GBuildSettings& settings, int rank, int ranks);
  ~GBuilder();

  // This rank's part of G from `density` (both full symmetric matrices on the device),
  // symmetrised; the caller sums it over ranks. G is linear in the density: a change of the
  // density gives the change of G.
  void build(GUpdate update, const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g);

  // The same with updates[i] for the quartets of class i (of the plan's classes), so that each
  // class can take the update that suits it.
  void build_by_class(const std::vector<GUpdate>& updates, const Matrix<DeviceMemory>& density,
                      const Matrix<DeviceMemory>& g);
  // Chooses a class's part from each part's seconds and quartets computed on its stripes:
  // choose(class, seconds, computed), called for every class of the plan in order, on every rank.
  using ChoosePart = std::function<std::size_t(std::size_t, const std::vector<double>&,
                                               const std::vector<double>&)>;
  // The same with a share of each class's quartets (up to kTrialShare of them, spread along its
  // lists) split into stripes of consecutive bras, a few per part: part k's stripes are built by
  // parts_updates[k] and timed on its own; then `choose` picks the part whose update builds the
  // rest of the class (auto's trial). A stripe holds about kTrialShare / parts of its segment's
  // quartets times trial_stripe_share of the part's timings so far.
  static constexpr double kTrialShare = 0.25;
  void build_in_parts(const std::vector<GUpdate>& parts_updates,
                      const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g,
                      const ChoosePart& choose);
  // Part k's next stripe, as a share of a full one, from the parts' seconds and quartets computed
  // on their stripes so far: the fastest part's time per quartet over part k's
  // (trial_rate_ratio), so that every part spends about the same time on a stripe, but never
  // under kLeastStripeShare; 1 while part k has no timing yet. With stripes of equal size, a part
  // r times slower than the fastest lost r - 1 of the fastest's stripe times on each of its
  // stripes: kernel_split's, 2 to 20 times slower than the atomics' on the H100, was most of
  // auto_trial_overhead.
  static constexpr double kLeastStripeShare = 1.0 / 16.0;
  static double trial_stripe_share(const std::vector<double>& seconds,
                                   const std::vector<double>& computed, std::size_t k);
  // That ratio unclamped; 1 while part k has no timing yet.
  static double trial_rate_ratio(const std::vector<double>& seconds,
                                 const std::vector<double>& computed, std::size_t k);
  // A part whose best ratio in every class so far stayed at or under this starts the next class
  // at that ratio (kLeastStripeShare at least) instead of a full stripe: kernel_split's first
  // stripe of each class, untimed and 10 to 20 times slower, had cost more than all its others.
  static constexpr double kHopelessShare = 0.25;

  // The builds that follow skip quartets below settings.threshold times `scale` (at most 1):
  // incremental builds screen a density's change tighter (incremental_g.hpp).
  void set_threshold_scale(double scale) { threshold_scale_ = scale; }

  // Runs each device update's scatter kernels once on one quartet, into a G that is thrown
  // away, so that loading them stays out of the first timed build.
  void warm_up(const std::vector<GUpdate>& updates, const Matrix<DeviceMemory>& density);

  // The plan's classes, whose order the records and build_by_class's vectors follow.
  const QuartetPlan& plan() const { return plan_; }
  // The latest build.
  const GBuildRecord& last() const { return last_; }
  // The largest number of integrals one buffered batch has held.
  double batch_capacity() const { return batch_capacity_; }

 private:
  template <class Memory>
  struct Tables;
  struct HostPart;
  struct Build;

  void make_plan();
  template <class Memory>
  std::unique_ptr<Tables<Memory>> make_tables() const;
  // The quartets of a build: the screen of `density` and every class's prefixes, the plan
  // grown first where the density exceeds what it covers.
  void screen(const Matrix<DeviceMemory>& density, Build& build);
  void run_class(GUpdate update, std::size_t i, std::int64_t first_bra, std::int64_t end_bra,
                 Build& build);
  template <class Class>
  void run(GUpdate update, std::size_t i, int bra_begin, int bra_end, Build& build);
  // Class i's candidates [first, first + count) that the screen keeps, chunk by chunk listed
  // (ListKept) and computed into `sink` (ClassQuartets).
  template <class Class, class Sink>
  void launch(const char* stem, std::size_t i, std::int64_t first, std::int64_t count,
              const Sink& sink);
  // ClassQuartets on the parts of the tables' list, offsets from `first`.
  template <class Class, class Sink>
  void compute_listed(const char* stem, std::size_t i,
                      const Tables<typename Sink::Exec::memory_space>& t, std::int64_t first,
                      const ListedParts& parts, const Sink& sink) const;
  template <class Class>
  void split(std::size_t i, int bra_begin, int bra_end, Build& build);
  template <class Class>
  void on_host(GUpdate update, std::size_t i, int bra_begin, int bra_end, Build& build);
  // The build's host part, and the host tables, made when a host variant first needs them.
  HostPart& host_part(Build& build);
  // warm_up's launches of class i.
  template <class Class>
  void warm_up_class(const std::vector<GUpdate>& updates, std::size_t i,
                     const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g);
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
  double batch_capacity_ = 0.0;
  std::unique_ptr<Tables<DeviceMemory>> device_;
  std::unique_ptr<Tables<Kokkos::HostSpace>> host_;  // made when a host variant first runs
  Kokkos::View<double*, DeviceMemory> buffer_;
};

}  // namespace kmini::hf
