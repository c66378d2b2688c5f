// The himeno app end to end on this machine's backend: every variant, sweep and update against
// the serial reference (p bit for bit, gosa within its rounding bound), and its bad inputs.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "support/expect.hpp"
#include "support/kmini_binary.hpp"
#include "support/report_reading.hpp"
#include "support/variant_tables.hpp"

namespace kmini {
namespace {

using testing::describe;
using testing::kmini;
using testing::metric;
using testing::ProcessResult;
using testing::run_report;
using testing::TempDir;

const std::vector<std::string> kVariants = testing::variant_names("himeno");
// Their gosa is a sum in the order the threads' atomics land: it may differ from run to run in
// the last bits when more than one thread runs.
const std::set<std::string> kAtomicVariants{"plain_atomic", "warp_aggregated", "block_aggregated"};

// Runs `yaml` (a himeno run) and returns the report; kmini must exit 0.
YAML::Node run_himeno(const std::string& yaml, std::vector<std::string> extra = {}) {
  TempDir dir;
  return run_report(dir, yaml, extra);
}

// One result that ran: it passed; p summed to the reference's sum exactly (p equal bit for bit);
// gosa within the validation's tolerance of the reference's; all the iterations asked for.
void expect_valid(const YAML::Node& result, std::int64_t iterations) {
  SCOPED_TRACE(describe(result));
  ASSERT_EQ(result["status"].as<std::string>(), "ran");
  const YAML::Node validation = result["validation"];
  EXPECT_EQ(validation["status"].as<std::string>(), "PASS") << validation;
  EXPECT_EQ(metric(result, "p_checksum"), metric(result, "p_checksum_reference"));
  const double gosa = metric(result, "gosa");
  const double reference = metric(result, "gosa_reference");
  const double tolerance = validation["tolerance"].as<double>();
  EXPECT_GT(reference, 0.0);
  EXPECT_GT(tolerance, 0.0);
  EXPECT_LT(tolerance, 1e-8);  // a rounding bound, not a loose one
  EXPECT_LE(std::fabs(gosa - reference), tolerance * reference) << gosa << " vs " << reference;
  EXPECT_EQ(metric(result, "iterations_total"), static_cast<double>(iterations));
}

// The results of the report's one run, in order; those not applicable must be exactly
// `not_applicable` (variant names), each with a reason.
std::vector<YAML::Node> results_of(const YAML::Node& doc,
                                   const std::multiset<std::string>& not_applicable = {}) {
  std::vector<YAML::Node> ran;
  if (!doc.IsMap()) {
    ADD_FAILURE() << "no report";
    return ran;
  }
  EXPECT_EQ(doc["runs"].size(), 1u);
  std::multiset<std::string> skipped;
  for (const auto& result : doc["runs"][0]["results"]) {
    if (result["status"].as<std::string>() == "not_applicable") {
      skipped.insert(result["variant"].as<std::string>());
      EXPECT_FALSE(result["reason"].as<std::string>().empty());
      continue;
    }
    ran.push_back(result);
  }
  EXPECT_EQ(skipped, not_applicable);
  EXPECT_EQ(doc["summary"]["status"].as<std::string>(), "VALID");
  return ran;
}

// The variants' names in `results`, one per result.
std::multiset<std::string> variants_of(const std::vector<YAML::Node>& results) {
  std::multiset<std::string> names;
  for (const auto& result : results)
    names.insert(result["variant"].as<std::string>());
  return names;
}

// `names`, each `n` times.
std::multiset<std::string> times(const std::vector<std::string>& names, int n) {
  std::multiset<std::string> out;
  for (int i = 0; i < n; ++i)
    out.insert(names.begin(), names.end());
  return out;
}

// ---- the original's values, every variant -----------------------------------------------------

class HimenoXS : public ::testing::TestWithParam<const char*> {};

TEST_P(HimenoXS, EveryVariantAtOneAndThreeIterations) {
  const YAML::Node doc = run_himeno(std::string("app: himeno\nsize: XS\niterations: [1, 3]\n") +
                                    "variant: all\nprecision: " + GetParam() + "\n");
  const std::vector<YAML::Node> results =
      results_of(doc);  // the default (packed) sweep suits them all
  EXPECT_EQ(doc["runs"][0]["input"]["precision"].as<std::string>(), GetParam());
  EXPECT_EQ(variants_of(results), times(kVariants, 2));
  for (const auto& result : results) {
    expect_valid(result, result["point"]["iterations"].as<std::int64_t>());
    // One rank, full validation: the original's own (working-precision) sum is reported too.
    EXPECT_GT(metric(result, "gosa_original_order"), 0.0);
  }
}

TEST_P(HimenoXS, HundredIterations) {
  // p stays equal to the reference bit for bit over a long run. Where the build is optimised,
  // every variant but block_aggregated: its team barrier per point crawls when the host's cores
  // are shared (ctest -j), and it is covered at 1 and 3 iterations. Under the sanitizers (slow even
  // at -Og, seconds a variant) the device sweep with the tree and the host loops with OpenMP, the
  // two sweep codes.
#if defined(KMINI_SANITIZED)
  const std::vector<std::string> variants{"kokkos_reduce", "cpu_openmp"};
#else
  const std::vector<std::string> variants{"kokkos_reduce", "plain_atomic", "warp_aggregated",
                                          "host_serial",   "host_openmp",  "cpu_serial",
                                          "cpu_openmp"};
#endif
  std::string variant;
  for (const auto& name : variants)
    variant += (variant.empty() ? "[" : ", ") + name;
  variant += "]";
  const YAML::Node doc = run_himeno(std::string("app: himeno\nsize: XS\niterations: 100\n") +
                                    "variant: " + variant + "\nprecision: " + GetParam() + "\n");
  const std::vector<YAML::Node> results = results_of(doc);
  EXPECT_EQ(variants_of(results), times(variants, 1));
  for (const auto& result : results)
    expect_valid(result, 100);
}

INSTANTIATE_TEST_SUITE_P(Precisions, HimenoXS, ::testing::Values("float", "double"),
                         testing::ParamIsName());

TEST(HimenoMeasurement, TheOriginalsTimedModeContinuesFromTheRehearsal) {
  // No iterations: 3 rehearsal iterations, then as many as fill target_seconds, from where the
  // rehearsal left p; the whole run is replayed.
  const YAML::Node doc = run_himeno(
      "app: himeno\nsize: XS\ntarget_seconds: 0.05\nvalidate: full\n"
      "variant: [kokkos_reduce, cpu_serial]\n");
  const std::vector<YAML::Node> results = results_of(doc);
  ASSERT_EQ(results.size(), 2u);
  for (const auto& result : results) {
    const double timed = metric(result, "iterations_per_repetition");
    EXPECT_GE(timed, 1.0);
    expect_valid(result, 3 + static_cast<std::int64_t>(timed));
  }
}

TEST(HimenoMeasurement, RepetitionsContinueAndFirstValidationChecksTheRehearsal) {
  // Warm-up and timed repetitions iterate on from each other: 3 x 5 iterations in all. validate:
  // first compares the 3 rehearsal iterations only, and says so.
  const YAML::Node doc = run_himeno(
      "app: himeno\nsize: XS\niterations: 5\nrepetitions: 2\nwarmup: 1\n"
      "validate: first\nvariant: [kokkos_reduce, cpu_openmp]\n");
  const std::vector<YAML::Node> results = results_of(doc);
  ASSERT_EQ(results.size(), 2u);
  for (const auto& result : results) {
    SCOPED_TRACE(describe(result));
    EXPECT_EQ(result["validation"]["status"].as<std::string>(), "PASS");
    EXPECT_CONTAINS(
        result["validation"]["metric"].as<std::string>(),
        "after 3 iterations (p equal to it bit for bit) (the first 3 of 15 iterations)");
    EXPECT_EQ(metric(result, "iterations_total"), 15.0);
    EXPECT_EQ(metric(result, "p_checksum"), metric(result, "p_checksum_reference"));
    EXPECT_FALSE(result["metrics"]["gosa_reference"].IsDefined());
  }
  // They ended where 15 iterations in one repetition end, validated in full.
  const std::vector<YAML::Node> straight = results_of(run_himeno(
      "app: himeno\nsize: XS\niterations: 15\nvalidate: full\nvariant: kokkos_reduce\n"));
  ASSERT_EQ(straight.size(), 1u);
  expect_valid(straight[0], 15);
  for (const auto& result : results) {
    EXPECT_NEAR(metric(result, "gosa"), metric(straight[0], "gosa"),
                1e-12 * metric(straight[0], "gosa"));
  }
}

// ---- every sweep and update on random values --------------------------------------------------

using Key = std::pair<std::string, std::string>;  // variant, sweep

// gosa and p_checksum of each (variant, sweep) at `update`.
std::map<Key, std::pair<double, double>> sums_at(const std::vector<YAML::Node>& results,
                                                 const std::string& update) {
  std::map<Key, std::pair<double, double>> sums;
  for (const auto& result : results) {
    if (result["point"]["update"].as<std::string>() != update) continue;
    const Key key{result["variant"].as<std::string>(), result["point"]["sweep"].as<std::string>()};
    EXPECT_TRUE(
        sums.emplace(key, std::make_pair(metric(result, "gosa"), metric(result, "p_checksum")))
            .second);
  }
  return sums;
}

// The pointer swap computes what the copy-back does: the same p, and the same gosa bit for bit
// (but for the atomic variants' order where `atomics_in_order` is false).
void expect_swap_equals_copy_back(const std::vector<YAML::Node>& results, bool atomics_in_order) {
  const auto copy_back = sums_at(results, "copy_back");
  const auto swap = sums_at(results, "swap");
  ASSERT_EQ(copy_back.size(), swap.size());
  ASSERT_FALSE(copy_back.empty());
  for (const auto& [key, sums] : copy_back) {
    SCOPED_TRACE(key.first + " with sweep " + key.second);
    const auto other = swap.find(key);
    ASSERT_NE(other, swap.end());
    EXPECT_EQ(other->second.second, sums.second);  // p_checksum
    if (atomics_in_order || kAtomicVariants.count(key.first) == 0) {
      EXPECT_EQ(other->second.first, sums.first);  // gosa
    } else {
      EXPECT_NEAR(other->second.first, sums.first, 1e-10 * sums.first);
    }
  }
}

constexpr const char* kOddGrid =
    "app: himeno\ngrid: [20, 37, 45]\ninitial: random\nseed: 7\niterations: 4\n"
    "sweep: [packed, shared, marching, mdrange]\nupdate: [copy_back, swap]\n";

TEST(HimenoSweeps, EverySweepAndUpdateOnAnOddRandomGrid) {
  const YAML::Node doc = run_himeno(std::string(kOddGrid) + "variant: all\n");
  // Block aggregation needs a team, which mdrange has not: once per update.
  const std::vector<YAML::Node> results = results_of(doc, {"block_aggregated", "block_aggregated"});
  ASSERT_EQ(results.size(), 8u * 8u - 2u);
  for (const auto& result : results)
    expect_valid(result, 4);
  expect_swap_equals_copy_back(results, false);
  // Every variant and sweep computes the same p: its checksum is the same everywhere.
  for (const auto& result : results) {
    EXPECT_EQ(metric(result, "p_checksum"), metric(results[0], "p_checksum")) << describe(result);
  }
}

TEST(HimenoSweeps, AtomicVariantsOnOneThreadSwapBitForBit) {
  // One thread adds in one order: the atomic variants' gosa is then reproducible too.
  const YAML::Node doc = run_himeno(std::string(kOddGrid) +
                                        "variant: [plain_atomic, warp_aggregated, "
                                        "block_aggregated]\n",
                                    {"--kokkos-threads=1"});
  ASSERT_TRUE(doc.IsMap());
  EXPECT_EQ(doc["meta"]["kokkos"]["concurrency"].as<int>(), 1);
  const std::vector<YAML::Node> results = results_of(doc, {"block_aggregated", "block_aggregated"});
  ASSERT_EQ(results.size(), 3u * 8u - 2u);
  for (const auto& result : results)
    expect_valid(result, 4);
  expect_swap_equals_copy_back(results, true);
}

TEST(HimenoSweeps, OddTilesAndBlocks) {
  // Tiles and team blocks that divide no extent; a barrier after each plane.
  const YAML::Node doc = run_himeno(
      "app: himeno\ngrid: [19, 22, 31]\ninitial: random\niterations: 3\nprecision: double\n"
      "sweep: [packed, shared, marching, mdrange]\nmdrange_tile: [3, 5, 7]\n"
      "marching_block: [5, 3, 7]\npacked_block: [4, 3, 5]\n"
      "sync_planes: true\nvariant: [kokkos_reduce, plain_atomic, block_aggregated, host_openmp]\n");
  const std::vector<YAML::Node> results = results_of(doc, {"block_aggregated"});
  ASSERT_EQ(results.size(), 4u * 4u - 1u);
  for (const auto& result : results)
    expect_valid(result, 3);
}

// ---- the temporal sweep -------------------------------------------------------------------------

constexpr std::int64_t kMaxTimeSteps = 4;  // time_steps' largest value

// A temporal run's results: each valid, with p equal to the reference's bit for bit; where the run
// ended with a temporal pass (its iterations a multiple of time_steps) each of the pass's gosa
// values against the reference's for that iteration, else none of them.
void expect_temporal_valid(const std::vector<YAML::Node>& results) {
  ASSERT_FALSE(results.empty());
  for (const auto& result : results) {
    SCOPED_TRACE(describe(result));
    const auto iterations = static_cast<std::int64_t>(metric(result, "iterations_total"));
    expect_valid(result, iterations);
    const bool host = result["variant"].as<std::string>().rfind("cpu_", 0) == 0;
    const auto steps = result["point"]["time_steps"].as<std::int64_t>();
    const bool ends_with_pass = !host && iterations % steps == 0;
    const double tolerance = result["validation"]["tolerance"].as<double>();
    for (std::int64_t step = 1; step <= kMaxTimeSteps; ++step) {
      const std::string name = "gosa_step_" + std::to_string(step);
      EXPECT_EQ(result["metrics"][name].IsDefined(), ends_with_pass && step <= steps) << name;
      if (!result["metrics"][name].IsDefined()) continue;
      const double reference = metric(result, name + "_reference");
      EXPECT_GT(reference, 0.0);
      EXPECT_LE(std::fabs(metric(result, name) - reference), tolerance * reference) << name;
      // The pass's gosa values are of distinct iterations: a Jacobi iteration changes it.
      if (step > 1) {
        EXPECT_NE(reference, metric(result, "gosa_step_1_reference"));
      }
    }
    if (ends_with_pass) {
      EXPECT_EQ(metric(result, "gosa_step_" + std::to_string(steps)), metric(result, "gosa"));
    }
  }
  // Every variant, step count and update computes the same p.
  for (const auto& result : results) {
    if (metric(result, "iterations_total") != metric(results[0], "iterations_total")) continue;
    EXPECT_EQ(metric(result, "p_checksum"), metric(results[0], "p_checksum")) << describe(result);
  }
}

class HimenoTemporal : public ::testing::TestWithParam<const char*> {};

TEST_P(HimenoTemporal, EveryStepCountAndUpdateBitForBitOnAnOddGrid) {
  // 12 iterations end with a pass at 2, 3 and 4 steps a pass; 13 with a single sweep after
  // passes. Teams of 7 x 7 threads (packs) divide no extent, and runs of at most 5 of the 17
  // planes split them 5, 4, 4, 4: every tile and run edge is inside the grid somewhere.
  // Under the sanitizers (slow even at -Og) two sinks, two step counts, 4 and 5 iterations (a pass
  // or two, and a pass and a single sweep) and the swap alone (the update is the solver's, after
  // the pass; the optimised build runs both).
#if defined(KMINI_SANITIZED)
  const std::string variants = "[kokkos_reduce, block_aggregated]", steps = "[2, 4]";
  const std::string iterations = "[4, 5]", updates = "swap";
#else
  const std::string variants =
      "[kokkos_reduce, plain_atomic, warp_aggregated, block_aggregated, cpu_serial]";
  const std::string steps = "[2, 3, 4]";
  const std::string iterations = "[12, 13]", updates = "[copy_back, swap]";
#endif
  const YAML::Node doc = run_himeno(
      "app: himeno\ngrid: [20, 37, 45]\ninitial: random\nseed: 11\niterations: " + iterations +
          "\nsweep: temporal\ntime_steps: " + steps + "\ntemporal_block: [5, 7, 7]\nupdate: " +
          updates + "\nvariant: " + variants + "\nprecision: " + GetParam() + "\n",
      // One thread: the team barriers of every step (and block aggregation's of every point)
      // crawl when ctest -j shares the cores among processes whose threads spin at them.
      {"--kokkos-threads=1"});
  const std::vector<YAML::Node> results = results_of(doc);
  const auto count = [](const std::string& list) {
    return static_cast<std::size_t>(std::count(list.begin(), list.end(), ',') + 1);
  };
  ASSERT_EQ(results.size(), count(variants) * count(steps) * count(iterations) * count(updates));
  expect_temporal_valid(results);
}

INSTANTIATE_TEST_SUITE_P(Precisions, HimenoTemporal, ::testing::Values("float", "double"),
                         testing::ParamIsName());

TEST(HimenoTemporalRuns, TheDefaultBlockOnTheOriginalsValues) {
  // Size XS at the default block: one run along i, teams of 16 x 16 threads at the grid's edges.
  // (At 4 steps its rings outgrow the host backends' team scratch.)
  const std::vector<YAML::Node> results =
      results_of(run_himeno("app: himeno\nsize: XS\niterations: 12\nsweep: temporal\n"
                            "time_steps: [2, 3]\nvariant: [kokkos_reduce, warp_aggregated]\n",
                            {"--kokkos-threads=1"}));
  ASSERT_EQ(results.size(), 4u);
  expect_temporal_valid(results);
}

TEST(HimenoTemporalRuns, FirstValidationRehearsesWholePasses) {
  // validate: first compares the rehearsal, 3 iterations rounded up to whole passes (4 at T = 2
  // and 4, 3 at T = 3), so that it ends with a pass, each of whose gosa values is checked.
  const std::vector<YAML::Node> results = results_of(
      run_himeno("app: himeno\nsize: XS\ninitial: random\niterations: 8\nvalidate: first\n"
                 "sweep: temporal\ntime_steps: [2, 3, 4]\ntemporal_block: [64, 8, 8]\nvariant: "
                 "kokkos_reduce\n",
                 {"--kokkos-threads=1"}));
  ASSERT_EQ(results.size(), 3u);
  for (const auto& result : results) {
    SCOPED_TRACE(describe(result));
    const int steps = result["point"]["time_steps"].as<int>();
    const std::string rehearsed = std::to_string(steps == 3 ? 3 : 4);
    const std::string check = result["validation"]["metric"].as<std::string>();
    EXPECT_EQ(result["validation"]["status"].as<std::string>(), "PASS");
    EXPECT_CONTAINS(check,
                    "each of the last temporal pass's " + std::to_string(steps) + " iterations");
    EXPECT_CONTAINS(check, "after " + rehearsed +
                               " iterations (p equal to it bit for bit) (the "
                               "first " +
                               rehearsed + " of 8 iterations)");
  }
}

TEST(HimenoTemporalRuns, TheBufferedPatternsSumEachIterationOfAPass) {
  // Patterns (3) and (4) copy a pass's terms, a block per iteration, and sum each block on the
  // host: every gosa of the last pass against the reference, on the odd grid, ending with a pass
  // (6 iterations) and with a single sweep after passes (7).
  const std::vector<YAML::Node> results = results_of(
      run_himeno("app: himeno\ngrid: [20, 37, 45]\ninitial: random\nseed: 11\niterations: [6, 7]\n"
                 "sweep: temporal\ntime_steps: [2, 3]\ntemporal_block: [5, 7, 7]\nupdate: swap\n"
                 "variant: [host_serial, host_openmp]\n",
                 {"--kokkos-threads=1"}));
  ASSERT_EQ(results.size(), 2u * 2u * 2u);
  expect_temporal_valid(results);
}

// ---- bad input ----------------------------------------------------------------------------------

// Exit 2, one line naming the problem, no report.
void expect_rejected(const std::string& yaml, const std::string& what) {
  SCOPED_TRACE(yaml);
  TempDir dir;
  const std::string input = dir.write("in.yaml", "app: himeno\n" + yaml);
  const ProcessResult r =
      kmini({"run", input, "--report", dir.file("r.yaml"), "--ceiling-elements", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  const auto lines = testing::nonempty_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_CONTAINS(lines[0], "kmini: error: ");
  EXPECT_CONTAINS(lines[0], what);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"in.yaml"});
}

TEST(HimenoBadInput, GridTooSmallOrMisshapen) {
  expect_rejected("grid: [4, 33, 65]\n",
                  "in.yaml:2:8: grid: expected a list of integers in [5, 1048576], 3 items, "
                  "found '4'");
  expect_rejected("grid: [33, 65]\n", "grid: expected a list of integers in [5, 1048576], 3 items");
}

TEST(HimenoBadInput, BothSizeAndGrid) {
  expect_rejected("size: XS\ngrid: [33, 33, 65]\n", "grid: give either size or grid, not both");
}

TEST(HimenoBadInput, IterationsOrTargetSecondsNotPositive) {
  expect_rejected("iterations: 0\n",
                  "iterations: expected an integer in [1, 1000000000] (or a list of them, to "
                  "sweep), found '0'");
  expect_rejected("iterations: [3, 0]\n", "found '0'");
  expect_rejected("target_seconds: 0\n", "target_seconds: expected a number in [1e-06, 1e+06]");
}

TEST(HimenoBadInput, BothIterationsAndTargetSeconds) {
  expect_rejected("iterations: 5\ntarget_seconds: 1\n",
                  "target_seconds: give either iterations (a fixed count) or target_seconds");
}

TEST(HimenoBadInput, TilesAndBlocksOverATeam) {
  expect_rejected("mdrange_tile: [2, 16, 64]\n",
                  "mdrange_tile: the tile is one team of threads: its product may be at most "
                  "1024, got 2048");
  expect_rejected("mdrange_tile: [1, 1, 128]\n",
                  "mdrange_tile: the third (k) extent becomes threadIdx.z on CUDA, which allows at "
                  "most 64, got 128");
  expect_rejected("marching_block: [16, 32, 64]\n",
                  "marching_block: a team is tj x tk threads, at most 1024; got 2048");
  expect_rejected("packed_block: [8, 8, 256]\n",
                  "packed_block: a team is tj x tk threads, at most 1024; got 2048");
}

TEST(HimenoBadInput, TemporalStepsAndBlocks) {
  expect_rejected("sweep: temporal\ntime_steps: 5\n",
                  "time_steps: expected an integer in [2, 4] (or a list of them, to sweep), found "
                  "'5'");
  expect_rejected("sweep: temporal\ntime_steps: 4\ntemporal_block: [8, 6, 32]\n",
                  "temporal_block: at time_steps 4 a team of tj x tk threads owns (tj - 6) x (tk - "
                  "6) rows and packs: tj and tk must exceed 6, got [8, 6, 32]");
  expect_rejected("sweep: temporal\ntemporal_block: [8, 32, 64]\n",
                  "temporal_block: a team is tj x tk threads, at most 1024; got 2048");
  expect_rejected("sweep: temporal\ntemporal_block: [8, 16, 32]\n",
                  "temporal_block: a team of the temporal sweep is tj x tk threads, at most 256 "
                  "(its launch bounds); got 512");
  // 3 x 3 planes of 16 x 16 packs of 2 doubles: 36 KiB, over the host backends' team scratch
  // (32 KiB).
  expect_rejected(
      "sweep: temporal\ntime_steps: 4\nprecision: double\n"
      "temporal_block: [8, 16, 16]\n",
      "temporal_block: a team keeps (time_steps - 1) x 3 planes of tj rows of tk packs "
      "in team scratch: 36880 bytes at time_steps 4 in double, and this device "
      "allows ");
}

TEST(HimenoBadInput, UnknownVariant) {
  expect_rejected("variant: warp_agregated\n", "variant: expected one or more of: kokkos_reduce");
  expect_rejected("variant: warp_agregated\n", "(did you mean 'warp_aggregated'?)");
}

TEST(HimenoBadInput, HostVariantsOverTheHostsMemory) {
  // The cpu variants' arrays are host memory: the gate counted none of it, and a grid too
  // large for the host ran until its allocation failed (exit 4). 4097^3 points of 14 float
  // arrays need 3.6 TiB.
  expect_rejected("grid: [4097, 4097, 4097]\nvariant: cpu_serial\niterations: 1\n",
                  "in.yaml:1:1: himeno: needs 3.6 TiB of ");
}

TEST(HimenoBadInput, RanksOfAnotherJob) {
  expect_rejected("size: XS\nranks: [1, 1, 3]\n",
                  "ranks: cannot split the grid over the ranks: [1, 1, 3] makes 3 ranks, but the "
                  "job has 1");
  // `kmini check` says so too, and how to check for the job the input is meant for.
  TempDir dir;
  const std::string input = dir.write("in.yaml", "app: himeno\nsize: XS\nranks: [1, 1, 3]\n");
  const ProcessResult r = kmini({"check", input});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_CONTAINS(r.err,
                  "in.yaml:3:8: ranks: cannot split the grid over the ranks: [1, 1, 3] "
                  "makes 3 ranks, but the job has 1 (kmini check counts the processes its "
                  "launcher started: check as you will run, e.g. mpirun -np N kmini check)");
}

}  // namespace
}  // namespace kmini
