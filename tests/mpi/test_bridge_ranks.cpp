// The bridge app's paths split over ranks under mpirun: each normal depends only on its global
// path and coordinate, so any split dumps the same file byte for byte as one rank; every variant
// passes on an uneven split, and the ranks' work adds up to the paths asked for.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "support/expect.hpp"
#include "support/kmini_binary.hpp"
#include "support/mpi_report.hpp"
#include "support/mpirun.hpp"
#include "support/variant_tables.hpp"

namespace kmini {
namespace {

using testing::mpirun;
using testing::ProcessResult;
using testing::TempDir;
using testing::valid_report_on_ranks;

// A run that should take a few seconds; a hang (ranks disagreeing on what to run) fails with
// exit status 124 instead of holding CI until the test's own timeout.
constexpr int kLimitSeconds = 20;

std::string describe(const YAML::Node& result) {
  YAML::Emitter point;
  point << YAML::Flow << result["point"];
  return result["variant"].as<std::string>() + " at " + point.c_str();
}

// A result that ran and passed over all `paths`, counted once across the ranks.
void expect_passed(const YAML::Node& result, double paths) {
  SCOPED_TRACE(describe(result));
  ASSERT_EQ(result["status"].as<std::string>(), "ran");
  EXPECT_EQ(result["validation"]["status"].as<std::string>(), "PASS") << result["validation"];
  EXPECT_EQ(result["work_per_repetition"]["items"].as<double>(), paths);
  EXPECT_EQ(result["metrics"]["checked_paths"]["value"].as<double>(), paths);
}

// Small runs: one timed repetition, no warm-up.
std::string bridge_run(const std::string& body) {
  return "  - app: bridge\n    repetitions: 1\n    warmup: 0\n" + body;
}

TEST(BridgeRanks, DumpsAreByteIdenticalOnOneTwoAndThreeRanks) {
  // 1001 paths split 501/500 and 334/334/333; 2 paths on 3 ranks leave one rank without any.
  const auto suite = [](const TempDir& dir) {
    return "runs:\n" +
           bridge_run(
               "    paths: 1001\n    t0: 0.5\n    times: [0.6, 0.8, 0.85, 1.3, 2.0, 2.2, "
               "3.5]\n    dimension: 2\n    x0: [1, -1]\n    covariance: [[0.5, 0.1], "
               "[0.1, 0.2]]\n    precision: double\n    variant: fused\n    dump: " +
               dir.file("pseudo.txt") + "\n") +
           bridge_run(
               "    paths: 1001\n    steps: 12\n    normals: sobol\n    output: "
               "increments\n    order: quantlib\n    precision: float\n    layout: "
               "path_major\n    variant: cpu_openmp\n    dump: " +
               dir.file("sobol.txt") + "\n") +
           bridge_run("    paths: 2\n    steps: 5\n    variant: naive\n    dump: " +
                      dir.file("two.txt") + "\n");
  };
  const std::vector<std::string> dumps{"pseudo.txt", "sobol.txt", "two.txt"};
  const std::vector<double> paths{1001, 1001, 2};
  std::vector<std::string> one_rank;
  for (const int ranks : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    TempDir dir;
    const YAML::Node doc = valid_report_on_ranks(ranks, dir, suite(dir), kLimitSeconds);
    ASSERT_TRUE(doc.IsMap());
    ASSERT_EQ(doc["runs"].size(), dumps.size());
    for (std::size_t i = 0; i < dumps.size(); ++i) {
      SCOPED_TRACE(dumps[i]);
      ASSERT_EQ(doc["runs"][i]["results"].size(), 1u);
      expect_passed(doc["runs"][i]["results"][0], paths[i]);
      const std::string text = testing::read_file(dir.file(dumps[i]));
      // Two comment lines, then two lines per path.
      EXPECT_EQ(testing::nonempty_lines(text).size(), 2u + 2u * static_cast<std::size_t>(paths[i]));
      if (ranks == 1) {
        one_rank.push_back(text);
      } else {
        ASSERT_EQ(one_rank.size(), dumps.size());
        EXPECT_TRUE(text == one_rank[i]) << "the dump differs from the one-rank run's";
      }
    }
  }
}

TEST(BridgeRanks, EveryVariantPassesOnUnevenSplits) {
  // 1001 paths on 2 and 3 ranks, every variant a rank's share allows; 1008 paths, which every
  // rank's share of 4 floats or 2 doubles divides, every variant.
  const std::string sweep =
      "    steps: 13\n    precision: [float, double]\n    output: [paths, increments]\n";
  const std::string yaml =
      "runs:\n" +
      bridge_run("    paths: 1001\n" + sweep +
                 "    variant: [naive, shared_stack, prefetch, fused_no_prefetch, fused, "
                 "cpu_serial, cpu_openmp]\n") +
      bridge_run("    paths: 1008\n" + sweep + "    variant: all\n");
  for (const int ranks : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    TempDir dir;
    const YAML::Node doc = valid_report_on_ranks(ranks, dir, yaml, kLimitSeconds);
    ASSERT_TRUE(doc.IsMap());
    ASSERT_EQ(doc["runs"].size(), 2u);
    EXPECT_EQ(doc["runs"][0]["results"].size(), 4u * 7u);
    EXPECT_EQ(doc["runs"][1]["results"].size(), 4u * testing::variant_names("bridge").size());
    for (const auto& result : doc["runs"][0]["results"])
      expect_passed(result, 1001);
    for (const auto& result : doc["runs"][1]["results"])
      expect_passed(result, 1008);
  }
}

TEST(BridgeRanks, VectorVariantsOnAnUnevenSplit) {
  // 1001 paths: 501/500 on 2 ranks, 334/334/333 on 3. Whether a vector variant can run must be
  // decided alike on every rank: it runs and passes, or is not applicable, on all of them (a
  // rank deciding otherwise leaves the others waiting in a collective). naive runs beside them,
  // so that the run has a result to validate.
  const std::string yaml =
      "app: bridge\nrepetitions: 1\nwarmup: 0\npaths: 1001\nsteps: 13\n"
      "precision: [float, double]\nvariant: [naive, shared_vector, fused_vector]\n";
  for (const int ranks : {2, 3}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    TempDir dir;
    const YAML::Node doc = valid_report_on_ranks(ranks, dir, yaml, kLimitSeconds);
    ASSERT_TRUE(doc.IsMap());
    const YAML::Node results = doc["runs"][0]["results"];
    EXPECT_EQ(results.size(), 6u);
    for (const auto& result : results) {
      SCOPED_TRACE(describe(result));
      if (result["status"].as<std::string>() == "not_applicable") {
        EXPECT_CONTAINS(result["reason"].as<std::string>(), "adjacent paths");
      } else {
        expect_passed(result, 1001);
      }
    }
  }
}

}  // namespace
}  // namespace kmini
