// The G build (hf/fock/g_build.hpp) of two waters in 6-31G from a random density, by every update,
// against G summed function by function from the whole ERI tensor; the kept quartets listed
// in many small chunks, as a large cluster's are, against one chunk per class; and the exchange
// updates that density screening skips, the same in every update and each under the threshold.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "hf/basis/basis_set.hpp"
#include "hf/basis/molecular_basis.hpp"
#include "hf/basis/molecule.hpp"
#include "hf/fock/g_build.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/eri.hpp"
#include "hf/integrals/integrals_host.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "support/hf_eri_tensor.hpp"
#include "support/test_paths.hpp"

namespace kmini::hf {
namespace {

using kmini::testing::device_matrix;
using kmini::testing::DeviceMatrix;
using kmini::testing::eri_tensor;
using kmini::testing::largest_difference;
using kmini::testing::matrix_values;
using kmini::testing::random_density;
using kmini::testing::reference_g;
using kmini::testing::reference_j;
using kmini::testing::two_waters;
using Host = Kokkos::HostSpace;

// Every update of the table (hf/fock/g_update.hpp).
const std::vector<GUpdate>& kUpdates = g_updates();

// A random symmetric density over the basis's functions, spread over `decades` decades.
DeviceMatrix random_device_density(const MolecularBasis& basis, unsigned seed, double decades) {
  std::mt19937_64 rng(seed);
  return device_matrix(random_density(basis.functions, decades, rng), basis.functions);
}

struct Built {
  std::vector<double> g;
  double computed = 0.0, candidates = 0.0, coulomb_only = 0.0;
};

Built build(const MolecularBasis& basis, const GBuildSettings& settings, const GUpdate& update,
            const DeviceMatrix& density) {
  const int n = basis.functions;
  GBuilder builder(basis, settings, 0, 1);
  DeviceMatrix g("test::g", n, n);
  builder.build(update, density, g);
  Built out;
  out.g = matrix_values(g);
  out.computed = builder.last().total_computed();
  for (const double c : builder.last().coulomb_only)
    out.coulomb_only += c;
  for (const double c : builder.last().candidates)
    out.candidates += c;
  return out;
}

TEST(HfGBuild, EveryUpdateGivesTheWholeTensorsGInOneChunkAndInMany) {
  const MolecularBasis basis = two_waters();
  const int n = basis.functions;
  std::mt19937_64 rng(7);
  const std::vector<double> d = random_density(n, 1.0, rng);
  const std::vector<double> want = reference_g(eri_tensor(basis), d, n);
  const DeviceMatrix density = device_matrix(d, n);
  for (const std::int64_t chunk : {std::int64_t{1} << 25, std::int64_t{97}}) {
    for (const GUpdate& update : kUpdates) {
      GBuildSettings settings;
      settings.screening = Screening::schwarz;
      settings.threshold = 1e-14;  // what it drops moves G by far less than the tolerance
      settings.chunk_quartets = chunk;
      const Built got = build(basis, settings, update, density);
      EXPECT_LT(largest_difference(got.g, want), 1e-10) << update.name << ", chunks of " << chunk;
    }
  }
}

// With the Coulomb updates off (fock_algorithm: split, where a J engine adds J), every update
// builds -K/2 alone: G less the whole tensor's J.
TEST(HfGBuild, WithoutTheCoulombUpdatesEveryUpdateBuildsTheExchangeAlone) {
  const MolecularBasis basis = two_waters();
  const int n = basis.functions;
  std::mt19937_64 rng(31);
  const std::vector<double> d = random_density(n, 1.0, rng);
  const std::vector<double> eri = eri_tensor(basis);
  std::vector<double> want = reference_g(eri, d, n);
  const std::vector<double> j = reference_j(eri, d, n);
  for (std::size_t k = 0; k < want.size(); ++k)
    want[k] -= j[k];
  const DeviceMatrix density = device_matrix(d, n);
  for (const Screening screening : {Screening::schwarz, Screening::density}) {
    for (const GUpdate& update : kUpdates) {
      GBuildSettings settings;
      settings.screening = screening;
      settings.threshold = 1e-14;
      settings.coulomb = false;
      settings.chunk_quartets = 97;
      const Built got = build(basis, settings, update, density);
      EXPECT_LT(largest_difference(got.g, want), 1e-10) << update.name;
      EXPECT_EQ(got.coulomb_only, 0.0) << update.name;
    }
  }
}

// Density screening of a density spread over eight decades drops quartets all through the
// lists; listed 97
// candidates at a time, every chunk boundary falls somewhere among them.
TEST(HfGBuild, ManyChunksComputeTheQuartetsAndGOfOne) {
  const MolecularBasis basis = two_waters();
  const int n = basis.functions;
  std::mt19937_64 rng(11);
  const DeviceMatrix density = device_matrix(random_density(n, 8.0, rng), n);
  for (const GUpdate& update : kUpdates) {
    GBuildSettings settings;
    settings.screening = Screening::density;
    settings.threshold = 1e-6;
    const Built whole = build(basis, settings, update, density);
    settings.chunk_quartets = 97;
    const Built chunked = build(basis, settings, update, density);
    EXPECT_GT(whole.computed, 0.0) << update.name;
    EXPECT_LT(whole.computed, 0.9 * whole.candidates) << update.name;
    EXPECT_GT(whole.candidates, 50.0 * 97.0) << update.name;
    EXPECT_EQ(chunked.computed, whole.computed) << update.name;
    EXPECT_LT(largest_difference(chunked.g, whole.g), 1e-12) << update.name;
  }
}

// A signal's stop inside a build (GBuildSettings::stop_requested, asked before each class, batch
// and chunk): asked to stop at once, a build computes nothing; asked after its third question,
// at most the two chunks it had started. A builder that asked only between classes would finish
// the first class, hundreds of chunks of 97.
int g_questions_before_stop = 0;
bool stop_when_counted_down() {
  return g_questions_before_stop-- <= 0;
}

TEST(HfGBuild, AskedToStopABuildLaunchesNoMoreChunks) {
  const MolecularBasis basis = two_waters();
  const DeviceMatrix density = random_device_density(basis, 13, 8.0);
  for (const GUpdate& update : kUpdates) {
    GBuildSettings settings;
    settings.threshold = 1e-6;
    settings.chunk_quartets = 97;
    const Built whole = build(basis, settings, update, density);
    settings.stop_requested = stop_when_counted_down;
    g_questions_before_stop = 0;
    EXPECT_EQ(build(basis, settings, update, density).computed, 0.0) << update.name;
    g_questions_before_stop = 3;
    const Built cut = build(basis, settings, update, density);
    EXPECT_GT(cut.computed, 0.0) << update.name;
    EXPECT_LE(cut.computed, 2.0 * 97.0) << update.name;
    EXPECT_GT(whole.computed, 10.0 * 97.0) << update.name;
  }
}

// Chunks that outlast their bound (timed_chunks.hpp): the next ones aim at half of it, never
// below the floor nor above the first; chunks within it stay as they are.
TEST(HfTimedChunks, ALaunchOverTheBoundMakesTheNextOnesSmallerInProportion) {
  TimedChunks chunks(1000, 10, 0.25);
  chunks.took(0.2);
  EXPECT_EQ(chunks.size(), 1000);
  chunks.took(1.0);  // four times the bound: an eighth, to take half of it
  EXPECT_EQ(chunks.size(), 125);
  chunks.took(0.01);
  EXPECT_EQ(chunks.size(), 125);
  chunks.took(100.0);
  EXPECT_EQ(chunks.size(), 10);
  EXPECT_EQ(chunks.longest(), 100.0);
  EXPECT_EQ(TimedChunks(50, 100, 0.25).size(), 50);
  TimedChunks floor_above(50, 100, 0.25);
  floor_above.took(1.0);
  EXPECT_EQ(floor_above.size(), 50);
  // A smaller last chunk of a range: the next are sized by its rate, not by the size it was not.
  TimedChunks tail(1000, 10, 0.25);
  tail.took(1.0, 400);
  EXPECT_EQ(tail.size(), 50);
  tail.took(0.5, 1000);  // larger than size(): its rate still rules, never above the size
  EXPECT_EQ(tail.size(), 50);
}

// The G build times its launches: with a bound no launch can keep (0 s) every class's chunks
// fall to the floor after its first, so the build asks whether to stop far more often (kernel_split
// and host_update also ask before each batch's gather or additions, which stay whole here), and
// computes the same quartets and the same G. A builder that never timed its chunks would ask
// as often with either bound.
int g_questions = 0;
bool count_the_question() {
  ++g_questions;
  return false;
}

TEST(HfGBuild, LaunchesOverTheirBoundAreCutSmallerWithTheSameG) {
  const MolecularBasis basis = two_waters();
  const DeviceMatrix density = random_device_density(basis, 17, 8.0);
  for (const GUpdate& update : kUpdates) {
    GBuildSettings settings;
    settings.threshold = 1e-6;
    settings.chunk_quartets = 970;
    settings.smallest_chunk_quartets = 97;
    settings.stop_requested = count_the_question;
    g_questions = 0;
    const Built kept = build(basis, settings, update, density);
    const int asked_within_bound = g_questions;
    settings.launch_seconds = 0.0;
    g_questions = 0;
    const Built cut = build(basis, settings, update, density);
    EXPECT_GT(kept.computed, 0.0) << update.name;
    EXPECT_EQ(cut.computed, kept.computed) << update.name;
    EXPECT_LT(largest_difference(cut.g, kept.g), 1e-12) << update.name;
    EXPECT_GT(g_questions, 2 * asked_within_bound) << update.name;
  }
}

// What follows a batch's store is timed too: kernel_split's gather launches G blocks and
// host_update's host additions buffered quartets in timed chunks, asked between them whether to
// stop. With a bound no launch keeps and floors of one, the builds ask more often than with
// floors that forbid any cut (the stores' own chunks are the same in both), and give the same G:
// kernel_split's bit for bit, since each G block stays one team's. A gather that ignored its
// launch's first block, or a builder that launched each batch's gather or additions whole,
// fails it.
TEST(HfGBuild, TheGatherAndTheHostAdditionsGoInTimedLaunchesWithTheSameG) {
  const MolecularBasis basis = two_waters();
  const DeviceMatrix density = random_device_density(basis, 19, 8.0);
  for (const char* name : {"kernel_split", "host_update"}) {
    const GUpdate& update = g_update(name);
    GBuildSettings settings;
    settings.threshold = 1e-6;
    settings.launch_seconds = 0.0;
    settings.chunk_quartets = settings.smallest_chunk_quartets = std::int64_t{1} << 20;
    settings.batch_bytes = 16384.0;  // many batches a class: the first batch's launch is timed
    settings.stop_requested = count_the_question;
    settings.smallest_gather_blocks = settings.smallest_host_additions = std::int64_t{1} << 40;
    g_questions = 0;
    const Built whole = build(basis, settings, update, density);
    const int asked_whole = g_questions;
    settings.smallest_gather_blocks = 1;
    settings.smallest_host_additions = 16;
    g_questions = 0;
    const Built cut = build(basis, settings, update, density);
    EXPECT_GT(whole.computed, 0.0) << name;
    EXPECT_EQ(cut.computed, whole.computed) << name;
    EXPECT_GT(g_questions, 3 * asked_whole) << name;
    if (update.action.deterministic) {
      EXPECT_EQ(largest_difference(cut.g, whole.g), 0.0) << name;
    } else {
      EXPECT_LT(largest_difference(cut.g, whole.g), 1e-12) << name;
    }
  }
}

// What the trial's tests start from: two waters, a random density, the plain build's G, and
// the device's candidates.
struct TrialCase {
  MolecularBasis basis = two_waters();
  int n = basis.functions;
  GBuildSettings settings;
  DeviceMatrix density;
  Built whole;
  std::vector<const GUpdate*> candidates{&g_update("atomic"), &g_update("warp_aggregated"),
                                         &g_update("kernel_split")};

  explicit TrialCase(unsigned seed) {
    std::mt19937_64 rng(seed);
    density = device_matrix(random_density(n, 4.0, rng), n);
    whole = build(basis, settings, g_update("atomic"), density);
  }
};

// auto's trial (GBuilder::build_trial): each candidate builds and times stripes that add up to a
// share of each class, the candidate chosen for the class builds the rest, and G is the whole
// build's. A trial that left the rest unbuilt, or built a stripe twice, gives another G; one whose
// stripes took the whole class fails the share.
TEST(HfGBuild, CandidatesTimeAShareOfEachClassAndTheChosenOneBuildsTheRest) {
  const TrialCase t(17);
  GBuilder builder(t.basis, t.settings, 0, 1);
  std::vector<std::size_t> asked;
  std::vector<double> trial;
  const DeviceMatrix g("test::g", t.n, t.n);
  builder.build_trial(
      t.candidates, t.density, g,
      [&](std::size_t i, const std::vector<double>& seconds, const std::vector<double>& computed) {
        EXPECT_EQ(seconds.size(), t.candidates.size());
        asked.push_back(i);
        double sum = 0.0;
        for (const double c : computed)
          sum += c;
        trial.push_back(sum);
        if (i == 0) {  // (ss|ss): hundreds of bras, a share for every candidate
          for (std::size_t k = 0; k < t.candidates.size(); ++k)
            EXPECT_GT(computed[k], 0.0) << t.candidates[k]->name;
        }
        return i % t.candidates.size();  // every candidate builds some class's rest
      });
  const std::size_t classes = builder.plan().classes.size();
  ASSERT_EQ(asked.size(), classes);
  for (std::size_t i = 0; i < classes; ++i)
    EXPECT_EQ(asked[i], i);
  // The trial's share of (ss|ss): a quarter of its candidates, in bras of many quartets each.
  const double ssss = builder.last().computed.at(0);
  EXPECT_GT(trial[0], 0.1 * ssss);
  EXPECT_LT(trial[0], 0.45 * ssss);
  EXPECT_EQ(builder.last().total_computed(), t.whole.computed);
  const auto host = Kokkos::create_mirror_view_and_copy(Host(), g);
  std::vector<double> got;
  for (int i = 0; i < t.n; ++i)
    for (int j = 0; j < t.n; ++j)
      got.push_back(host(i, j));
  EXPECT_LT(largest_difference(got, t.whole.g), 1e-12);
}

// auto's trial on one rank of four, whose share of each class is several ranges of bras: the
// trial's segments run over the share as one sequence, so a piece may span two ranges. The
// stripes and the rest must still build the rank's share exactly once (its G is the plain
// build's, and its quartets the same), and the four ranks' t.candidates add up to the t.whole G. A
// piece that ran only its first range, or one range twice, gives another G.
TEST(HfGBuild, TrialOverASharedClassBuildsTheRanksShareOnce) {
  const TrialCase t(29);
  constexpr int kRanks = 4;
  std::vector<double> sum(static_cast<std::size_t>(t.n) * t.n, 0.0);
  std::size_t shares_of_many_ranges = 0;
  for (int rank = 0; rank < kRanks; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    GBuilder plain(t.basis, t.settings, rank, kRanks);
    const DeviceMatrix want("test::want", t.n, t.n);
    plain.build(g_update("atomic"), t.density, want);
    GBuilder trial(t.basis, t.settings, rank, kRanks);
    for (const ClassPlan& c : trial.plan().classes)
      if (c.share.size() > 1) ++shares_of_many_ranges;
    const DeviceMatrix got("test::got", t.n, t.n);
    trial.build_trial(t.candidates, t.density, got,
                      [&](std::size_t i, const std::vector<double>&, const std::vector<double>&) {
                        return i % t.candidates.size();
                      });
    EXPECT_EQ(trial.last().total_computed(), plain.last().total_computed());
    const auto w = Kokkos::create_mirror_view_and_copy(Host(), want);
    const auto h = Kokkos::create_mirror_view_and_copy(Host(), got);
    double largest = 0.0;
    for (int i = 0; i < t.n; ++i)
      for (int j = 0; j < t.n; ++j) {
        largest = std::max(largest, std::abs(h(i, j) - w(i, j)));
        sum[static_cast<std::size_t>(i) * t.n + j] += h(i, j);
      }
    EXPECT_LT(largest, 1e-12);
  }
  EXPECT_GT(shares_of_many_ranges, 0u) << "no class's share had more than one range";
  EXPECT_LT(largest_difference(sum, t.whole.g), 1e-12);
}

// A kept quartet whose exchange pairings' bound is under the threshold makes its Coulomb updates
// alone. Every update must skip the same ones (they agree to rounding), and what they skip must
// stay within the threshold's reach: each skipped contribution to an element of G is under the
// threshold, and a few hundred quartets touch an element here. Skipping the exchange updates of
// every quartet, or of none where the screen skips them in another variant, fails one of the two;
// the skipped updates moved G by 1.8e-6 here, against a tolerance of 3e-5.
TEST(HfGBuild, EveryUpdateSkipsTheSameExchangeUpdatesEachUnderTheThreshold) {
  const MolecularBasis basis = two_waters();
  const int n = basis.functions;
  std::mt19937_64 rng(13);
  // As in a cluster, the density between the two molecules (13 functions each) is small: the
  // quartets of one pair on each molecule are kept for their Coulomb updates alone.
  std::vector<double> d = random_density(n, 6.0, rng);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if ((i < n / 2) != (j < n / 2)) d[i * n + j] *= 1e-4;
  const std::vector<double> want = reference_g(eri_tensor(basis), d, n);
  const DeviceMatrix density = device_matrix(d, n);
  GBuildSettings settings;
  settings.screening = Screening::density;
  settings.threshold = 1e-6;
  settings.chunk_quartets = 97;
  const Built first = build(basis, settings, kUpdates[0], density);
  EXPECT_GT(first.coulomb_only, 0.05 * first.computed);
  EXPECT_LT(first.coulomb_only, first.computed);
  for (const GUpdate& update : kUpdates) {
    const Built got = build(basis, settings, update, density);
    EXPECT_EQ(got.coulomb_only, first.coulomb_only) << update.name;
    EXPECT_LT(largest_difference(got.g, first.g), 1e-12) << update.name;
    EXPECT_LT(largest_difference(got.g, want), 30.0 * settings.threshold) << update.name;
  }
}

// A new G update is one row and one function (hf/fock/g_update.hpp): this one, the test's own,
// computes a class's share with plain atomics and then again with warp-aggregated ones, so the G
// it builds is the whole tensor's twice over. The builder takes it as it takes the table's rows.
void twice(ClassShare& share) {
  share.scatter(DeviceAdd::plain_atomic);
  share.scatter(DeviceAdd::warp_aggregated);
}
const GUpdate kTwice{
    "twice", "plain, then warp-aggregated atomics: G twice over", 0.0, on_device(), {&twice}};

TEST(HfGBuild, AnUpdateOfOneRowAndOneFunctionBuildsItsG) {
  const MolecularBasis basis = two_waters();
  const int n = basis.functions;
  std::mt19937_64 rng(5);
  const std::vector<double> d = random_density(n, 1.0, rng);
  std::vector<double> want = reference_g(eri_tensor(basis), d, n);
  for (double& w : want)
    w *= 2.0;
  GBuildSettings settings;
  settings.screening = Screening::schwarz;
  settings.threshold = 1e-14;
  const Built got = build(basis, settings, kTwice, device_matrix(d, n));
  EXPECT_LT(largest_difference(got.g, want), 2e-10);
}

// The table's rows are the hf app's variants, and auto times the rows it names.
TEST(HfGBuild, TheUpdatesAreTheTablesRows) {
  std::vector<std::string> names;
  for (const GUpdate& update : g_updates())
    names.push_back(update.name);
  EXPECT_EQ(names, (std::vector<std::string>{"atomic", "warp_aggregated", "kernel_split",
                                             "host_update", "cpu"}));
  for (const GUpdate* candidate : auto_candidates())
    EXPECT_NE(candidate->action.candidate, AutoCandidate::never) << candidate->name;
  EXPECT_EQ(&g_update("kernel_split"), &g_updates()[2]);
  EXPECT_TRUE(g_update("kernel_split").action.deterministic);
  EXPECT_THROW(g_update("twice"), std::invalid_argument);
}

}  // namespace
}  // namespace kmini::hf
