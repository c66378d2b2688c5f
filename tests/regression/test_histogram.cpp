// The histogram app end to end on this machine's backend: every variant against a serial count,
// on random data with several seeds, at the edges the issue names, and its bad inputs.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "support/expect.hpp"
#include "support/kmini_binary.hpp"

namespace kmini {
namespace {

using testing::kmini;
using testing::ProcessResult;
using testing::TempDir;

// Runs `yaml` (a histogram run) and returns the report; every variant that ran must have passed.
YAML::Node run_histogram(const std::string& yaml, int expected_exit = 0) {
  TempDir dir;
  const std::string input = dir.write("in.yaml", yaml);
  const std::string report = dir.file("report.yaml");
  const ProcessResult r = kmini({"run", input, "--report", report, "--ceiling-elements", "0"});
  EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
  if (r.exit_code != expected_exit) return YAML::Node();
  return YAML::LoadFile(report);
}

// Every result of every run: ran and passed, or not applicable with a reason.
int count_passed(const YAML::Node& doc) {
  int passed = 0;
  for (const auto& run : doc["runs"]) {
    for (const auto& res : run["results"]) {
      const std::string status = res["status"].as<std::string>();
      if (status == "not_applicable") {
        EXPECT_FALSE(res["reason"].as<std::string>().empty());
        continue;
      }
      EXPECT_EQ(res["validation"]["status"].as<std::string>(), "PASS")
          << res["variant"].as<std::string>() << " at " << res["point"];
      ++passed;
    }
  }
  return passed;
}

TEST(Histogram, EveryVariantMatchesASerialCountOnRandomData) {
  for (const int seed : {1, 2, 3}) {
    SCOPED_TRACE(seed);
    const YAML::Node doc = run_histogram(
        "app: histogram\nsamples: 20011\nbins: [1, 7, 1000, 30000]\nbin_type: [int, double]\n"
        "repetitions: 2\nseed: " +
        std::to_string(seed) + "\n");
    // 9 variants x 8 points; cub never runs on a CPU build, privatized not above scratch size.
    EXPECT_GE(count_passed(doc), 7 * 8 - 2);
    EXPECT_EQ(doc["summary"]["status"].as<std::string>(), "VALID");
  }
}

TEST(Histogram, EdgeCases) {
  // No samples; fewer than a warp; not a multiple of 32; more bins than samples.
  for (const char* samples : {"0", "5", "1001"}) {
    SCOPED_TRACE(samples);
    const YAML::Node doc = run_histogram(std::string("app: histogram\nsamples: ") + samples +
                                         "\nbins: [1, 3000]\nrepetitions: 1\n");
    EXPECT_GT(count_passed(doc), 0);
  }
}

TEST(Histogram, SamplesOnAndJustBelowBinEdgesAndOne) {
  const YAML::Node doc = run_histogram(
      "app: histogram\nsamples: 30000\nbins: [1, 3, 10, 1000, 10000]\nbin_type: [int, double]\n"
      "distribution: boundaries\nrepetitions: 1\n");
  EXPECT_GT(count_passed(doc), 0);
}

TEST(Histogram, TheLargestBinCountRunsOrIsRefusedClearly) {
#if defined(KMINI_SANITIZED)
  GTEST_SKIP() << "16 GiB of bins under AddressSanitizer: too slow, and its shadow memory is not "
                  "in kmini's memory estimate";
#endif
  TempDir dir;
  const std::string input =
      dir.write("in.yaml",
                "app: histogram\nsamples: 1000\nbins: 2147483647\nvariant: [plain_atomic, cub]\n"
                "repetitions: 1\nwarmup: 0\n");
  const ProcessResult r =
      kmini({"run", input, "--report", dir.file("r.yaml"), "--ceiling-elements", "0"});
  if (r.exit_code == 2) {
    EXPECT_CONTAINS(r.err, "of memory per rank, but");  // memory permitting
  } else {
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_CONTAINS(r.out, "VALID: 1 of 1 results passed validation (1 not applicable)");
  }
}

// Exit 2, one line naming the problem.
void expect_rejected(const std::string& yaml, const std::string& what) {
  TempDir dir;
  const std::string input = dir.write("in.yaml", yaml);
  const ProcessResult r =
      kmini({"run", input, "--report", dir.file("r.yaml"), "--ceiling-elements", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(testing::nonempty_lines(r.err).size(), 1u) << r.err;
  EXPECT_CONTAINS(r.err, what);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"in.yaml"});
}

TEST(HistogramBadInput, BinsAtMostZero) {
  expect_rejected("app: histogram\nbins: 0\n", "bins: expected an integer in [1, 2147483647]");
  expect_rejected("app: histogram\nbins: [10, -1]\n", "found '-1'");
}

TEST(HistogramBadInput, NegativeSamples) {
  expect_rejected("app: histogram\nsamples: -5\n", "samples: expected an integer in [0, ");
}

TEST(HistogramBadInput, EmptySweep) {
  expect_rejected("app: histogram\nbins: []\n",
                  "bins: expected an integer in [1, 2147483647] "
                  "(or a list of them, to sweep), found an empty list");
}

TEST(HistogramBadInput, UnknownVariant) {
  expect_rejected("app: histogram\nvariant: warp_mach\n", "did you mean 'warp_match'?");
}

TEST(HistogramBadInput, TooManySamplesForIntBins) {
  expect_rejected("app: histogram\nsamples: 3e9\nbins: 1\n", "use bin_type: double");
}

TEST(HistogramBadInput, HistogramLargerThanMemory) {
  expect_rejected("app: histogram\nsamples: 1e12\nbins: 10\nbin_type: double\n",
                  "of memory per rank, but");
}

}  // namespace
}  // namespace kmini
