// kmini run on small inputs, end to end: exit status, terminal table, and the report's content
// read back and checked against what the run must have done.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "support/expect.hpp"
#include "support/kmini_binary.hpp"

namespace kmini {
namespace {

using testing::expected_kokkos_patches;
using testing::is_kokkos_patches_digest;
using testing::kmini;
using testing::ProcessResult;
using testing::TempDir;
using testing::test_input;

const std::vector<std::string> kAllVariants{"copy",  "deep_copy", "mul",  "add",
                                            "triad", "dot",       "fill", "read"};
const std::map<std::string, double> kWeights{{"copy", 2}, {"deep_copy", 2}, {"mul", 2},
                                             {"add", 3},  {"triad", 3},     {"dot", 2},
                                             {"fill", 1}, {"read", 1}};

// The probe that set a ceiling is the fastest of its probes, and the report names it. Where a
// validated result passed it (arrays this small sit in a cache), the ceiling is that result's
// and the probe's figure is kept beside it.
void expect_set_by_the_fastest(const YAML::Node& ceiling) {
  double fastest = 0.0;
  std::string fastest_variant;
  for (const auto& probe : ceiling["probes"]) {
    EXPECT_EQ(probe["validation"]["status"].as<std::string>(), "PASS");
    const double gbps = probe["bandwidth_GBps"].as<double>();
    if (gbps > fastest) {
      fastest = gbps;
      fastest_variant = probe["variant"].as<std::string>();
    }
  }
  if (ceiling["raised_by"]) {
    EXPECT_EQ(ceiling["probed_GBps"].as<double>(), fastest);
    EXPECT_GT(ceiling["bandwidth_GBps"].as<double>(), fastest);
  } else {
    EXPECT_EQ(ceiling["bandwidth_GBps"].as<double>(), fastest);
  }
  EXPECT_EQ(ceiling["set_by"].as<std::string>(), fastest_variant);
}

std::vector<std::string> probe_variants(const YAML::Node& ceiling) {
  std::vector<std::string> names;
  for (const auto& probe : ceiling["probes"])
    names.push_back(probe["variant"].as<std::string>());
  return names;
}

TEST(StreamRun, EveryVariantValidatesAndTheReportSaysSo) {
  TempDir dir;
  const std::string report = dir.file("report.yaml");
  const ProcessResult r = kmini(
      {"run", test_input("stream_small.yaml"), "--report", report, "--ceiling-elements", "200000"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "copy ceiling: ");
  EXPECT_CONTAINS(r.out, "read ceiling: ");
  EXPECT_CONTAINS(r.out, "-- precision=float");
  EXPECT_CONTAINS(r.out, "VALID: 16 of 16 results passed validation");
  EXPECT_CONTAINS(r.out, "report: " + report);

  const YAML::Node doc = YAML::LoadFile(report);
  EXPECT_EQ(doc["kmini_report"].as<int>(), 1);
  const YAML::Node meta = doc["meta"];
  EXPECT_EQ(meta["kmini"]["version"].as<std::string>(), "0.1.0");
  EXPECT_FALSE(meta["kmini"]["git_revision"].as<std::string>().empty());
  EXPECT_FALSE(meta["build"]["preset"].as<std::string>().empty());
  EXPECT_FALSE(meta["kokkos"]["version"].as<std::string>().empty());
  // The Kokkos patches' digest: setup.sh's Kokkos has that of the checkout's cmake/patches/.
  const std::string patches = meta["kokkos"]["patches"].as<std::string>();
  EXPECT_TRUE(is_kokkos_patches_digest(patches)) << patches;
  EXPECT_EQ(patches, expected_kokkos_patches());
  EXPECT_CONTAINS(meta["kokkos"]["backends"].as<std::string>(), "Serial");
  EXPECT_FALSE(meta["device"]["name"].as<std::string>().empty());
  EXPECT_GT(meta["device"]["memory_bytes"].as<double>(), 0.0);
  EXPECT_EQ(meta["mpi"]["ranks"].as<int>(), 1);
  EXPECT_EQ(meta["mpi"]["placement"].size(), 1u);
  EXPECT_FALSE(meta["host"].as<std::string>().empty());
  EXPECT_EQ(meta["date"].as<std::string>().size(), 20u);

  const YAML::Node ceiling = doc["ceilings"]["copy"];
  EXPECT_TRUE(ceiling["measured"].as<bool>());
  const double ceiling_gbps = ceiling["bandwidth_GBps"].as<double>();
  EXPECT_GT(ceiling_gbps, 0.0);
  EXPECT_EQ(ceiling["elements_per_rank"].as<long>(), 200000);
  // The fastest of the kernels that write; of those that only read.
  EXPECT_EQ(probe_variants(ceiling),
            (std::vector<std::string>{"copy", "deep_copy", "mul", "add", "triad", "fill"}));
  expect_set_by_the_fastest(ceiling);
  const YAML::Node read = doc["ceilings"]["read"];
  EXPECT_EQ(probe_variants(read), (std::vector<std::string>{"dot", "read"}));
  expect_set_by_the_fastest(read);
  // A host has no datasheet bandwidth to quote: the report says so rather than invent one.
  EXPECT_FALSE(doc["ceilings"]["datasheet"]["known"].as<bool>());
  EXPECT_TRUE(meta["device"]["memory_peak_GBps"].IsNull());
  EXPECT_EQ(doc["runs"][0]["figure_of_merit"]["ceiling"].as<std::string>(), "copy");

  ASSERT_EQ(doc["runs"].size(), 1u);
  const YAML::Node run = doc["runs"][0];
  EXPECT_EQ(run["app"].as<std::string>(), "stream");
  EXPECT_EQ(run["status"].as<std::string>(), "completed");
  EXPECT_EQ(run["input"]["elements"].as<long>(), 100000);
  EXPECT_EQ(run["input"]["precision"].as<std::vector<std::string>>(),
            (std::vector<std::string>{"float", "double"}));
  EXPECT_EQ(run["input"]["repetitions"].as<int>(), 3);
  EXPECT_EQ(run["figure_of_merit"]["unit"].as<std::string>(), "GB/s");

  const YAML::Node results = run["results"];
  ASSERT_EQ(results.size(), 2 * kAllVariants.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    const YAML::Node res = results[i];
    const std::string precision = i < kAllVariants.size() ? "float" : "double";
    const std::string variant = kAllVariants[i % kAllVariants.size()];
    SCOPED_TRACE(precision + " " + variant);
    EXPECT_EQ(res["point"]["precision"].as<std::string>(), precision);
    EXPECT_EQ(res["variant"].as<std::string>(), variant);
    EXPECT_EQ(res["baseline"].as<bool>(), variant == "copy");
    EXPECT_EQ(res["repetitions"].as<int>(), 3);
    EXPECT_EQ(res["time_s"]["samples"].size(), 3u);
    const double median = res["time_s"]["median"].as<double>();
    EXPECT_GT(median, 0.0);
    EXPECT_LE(res["time_s"]["min"].as<double>(), median);
    EXPECT_GE(res["time_s"]["max"].as<double>(), median);
    // The byte model: weight x elements x sizeof(precision).
    const double bytes = kWeights.at(variant) * 100000 * (precision == "float" ? 4 : 8);
    EXPECT_EQ(res["work_per_repetition"]["bytes"].as<double>(), bytes);
    EXPECT_DOUBLE_EQ(res["bandwidth_GBps"].as<double>(), bytes / median / 1e9);
    EXPECT_DOUBLE_EQ(res["fom"]["value"].as<double>(), res["bandwidth_GBps"].as<double>());
    EXPECT_DOUBLE_EQ(res["percent_of_ceiling"].as<double>(),
                     100.0 * res["bandwidth_GBps"].as<double>() / ceiling_gbps);
    // Validated: never past its ceiling, which the fastest such result raises.
    EXPECT_LE(res["percent_of_ceiling"].as<double>(), 100.0 * (1.0 + 1e-12));
    EXPECT_TRUE(res["percent_of_datasheet"].IsNull());
    EXPECT_GT(res["speedup_vs_baseline"].as<double>(), 0.0);
    EXPECT_EQ(res["validation"]["status"].as<std::string>(), "PASS");
    EXPECT_LE(res["validation"]["value"].as<double>(), res["validation"]["tolerance"].as<double>());
  }
  EXPECT_EQ(results[0]["speedup_vs_baseline"].as<double>(), 1.0);
  EXPECT_EQ(doc["summary"]["status"].as<std::string>(), "VALID");
  EXPECT_EQ(doc["summary"]["passed"].as<int>(), 16);
}

// read sums in 16-byte pieces, so lengths that are not a multiple of a piece test its tail.
TEST(StreamRun, ReadFillAndDotAreExactOnLengthsThatLeaveATail) {
  const ProcessResult r =
      kmini({"run", test_input("stream_tails.yaml"), "--ceiling-elements", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "VALID: 24 of 24 results passed validation");
}

TEST(StreamRun, InjectedErrorsFailValidationWithExitThree) {
  TempDir dir;
  const std::string report = dir.file("broken.yaml");
  const ProcessResult r = kmini(
      {"run", test_input("stream_broken.yaml"), "--report", report, "--ceiling-elements", "0"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "INVALID: 0 of 2 results passed validation");
  // The table shows the relation that failed, not the one that was wanted.
  EXPECT_CONTAINS(r.out, "FAIL (");
  EXPECT_CONTAINS(r.out, " > ");
  EXPECT_EQ(r.out.find(" <= "), std::string::npos) << r.out;
  const YAML::Node doc = YAML::LoadFile(report);
  EXPECT_FALSE(doc["ceilings"]["copy"]["measured"].as<bool>());
  for (const auto& res : doc["runs"][0]["results"]) {
    EXPECT_EQ(res["validation"]["status"].as<std::string>(), "FAIL");
    EXPECT_GT(res["validation"]["value"].as<double>(), res["validation"]["tolerance"].as<double>());
    EXPECT_TRUE(res["percent_of_ceiling"].IsNull());
  }
  EXPECT_EQ(doc["summary"]["status"].as<std::string>(), "INVALID");
}

TEST(StreamRun, SuiteWithJsonReport) {
  TempDir dir;
  const std::string report = dir.file("suite.json");
  const ProcessResult r =
      kmini({"run", test_input("suite_small.yaml"), "--report", report, "--format", "json",
             "--ceiling-elements", "50000", "--set", "stream.repetitions=3"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "== copy-only (stream)");
  const YAML::Node doc = YAML::LoadFile(report);  // JSON is YAML
  EXPECT_EQ(doc["meta"]["input"]["name"].as<std::string>(), "small-suite");
  // The Kokkos patches' digest as in a YAML report, a JSON string even when it is all digits.
  EXPECT_EQ(doc["meta"]["kokkos"]["patches"].as<std::string>(), expected_kokkos_patches());
  EXPECT_CONTAINS(testing::read_file(report), "\"patches\": \"" + expected_kokkos_patches() + "\"");
  ASSERT_EQ(doc["runs"].size(), 2u);
  EXPECT_EQ(doc["runs"][0]["label"].as<std::string>(), "copy-only");
  EXPECT_EQ(doc["runs"][0]["results"].size(), 1u);
  // Two points of two variants, in the order given; --set applied to both runs.
  const YAML::Node second = doc["runs"][1]["results"];
  ASSERT_EQ(second.size(), 4u);
  EXPECT_EQ(second[0]["variant"].as<std::string>(), "triad");
  EXPECT_EQ(second[0]["point"]["elements"].as<long>(), 1000);
  EXPECT_EQ(second[3]["point"]["elements"].as<long>(), 20000);
  EXPECT_EQ(second[3]["repetitions"].as<int>(), 3);
  EXPECT_EQ(doc["summary"]["results"].as<int>(), 5);
}

// Two stream runs rated against made-up reference figures; `inject` breaks the second.
std::string rated_suite(bool inject) {
  return std::string(
             "name: rated\n"
             "reference:\n"
             "  device: Test machine\n"
             "  figures: {copy-run: 2.0, dot-run: 3.0}\n"
             "runs:\n"
             "  - app: stream\n"
             "    label: copy-run\n"
             "    elements: 20000\n"
             "    variant: [copy, mul]\n"
             "    repetitions: 2\n"
             "  - app: stream\n"
             "    label: dot-run\n"
             "    elements: 20000\n"
             "    variant: dot\n"
             "    repetitions: 2\n") +
         (inject ? "    inject_error: true\n" : "");
}

// The fastest passing figure of merit of a report's run, read from its results.
double fastest_passing(const YAML::Node& run) {
  double best = 0.0;
  for (const auto& r : run["results"]) {
    if (r["validation"]["status"].as<std::string>() == "PASS")
      best = std::max(best, r["fom"]["value"].as<double>());
  }
  return best;
}

TEST(StreamRun, RatedSuiteGivesTheGeometricMeanOverTheReference) {
  TempDir dir;
  const std::string report = dir.file("rated.yaml");
  const ProcessResult r = kmini({"run", dir.write("rated-suite.yaml", rated_suite(false)),
                                 "--report", report, "--ceiling-elements", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "summary: each run's fastest validated result");
  EXPECT_CONTAINS(r.out, "VALID with a rating of ");
  EXPECT_CONTAINS(r.out, "(1 = Test machine): 3 of 3 results passed validation");
  const YAML::Node doc = YAML::LoadFile(report);
  const double copy_ratio = fastest_passing(doc["runs"][0]) / 2.0;
  const double dot_ratio = fastest_passing(doc["runs"][1]) / 3.0;
  const YAML::Node summary = doc["summary"];
  EXPECT_NEAR(summary["rating"]["value"].as<double>(), std::sqrt(copy_ratio * dot_ratio),
              1e-12 * std::sqrt(copy_ratio * dot_ratio));
  EXPECT_EQ(summary["rating"]["reference_device"].as<std::string>(), "Test machine");
  ASSERT_EQ(summary["runs"].size(), 2u);
  EXPECT_EQ(summary["runs"][0]["label"].as<std::string>(), "copy-run");
  EXPECT_EQ(summary["runs"][0]["headline"]["value"].as<double>(), fastest_passing(doc["runs"][0]));
  EXPECT_NEAR(summary["runs"][1]["ratio_to_reference"].as<double>(), dot_ratio, 1e-12 * dot_ratio);
}

TEST(StreamRun, RatedSuiteWithAFailureIsInvalidAndUnrated) {
  TempDir dir;
  const std::string report = dir.file("rated.yaml");
  const ProcessResult r = kmini({"run", dir.write("rated-suite.yaml", rated_suite(true)),
                                 "--report", report, "--ceiling-elements", "0"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "INVALID: 2 of 3 results passed validation; no rating");
  const YAML::Node summary = YAML::LoadFile(report)["summary"];
  EXPECT_TRUE(summary["rating"]["value"].IsNull());
  EXPECT_EQ(summary["runs"][1]["passed"].as<int>(), 0);
  EXPECT_TRUE(summary["runs"][1]["headline"]["value"].IsNull());
}

TEST(StreamRun, DryRunEstimatesWithoutRunningOrWriting) {
  TempDir dir;
  const ProcessResult r =
      kmini({"run", test_input("stream_small.yaml"), "--dry-run", "--report", dir.file("r.yaml")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // Weights 2+2+2+3+3+2+1+1 arrays of 100000 elements, 3 timed and 1 warm-up repetition:
  // 16 x 4e5 x 4 B = 24.4 MiB for float, twice that for double; 8 x 4e5 = 3.2e6 items.
  // No host variants: no host memory beside the device's.
  EXPECT_CONTAINS(r.out,
                  "precision=float           1.1 MiB                   0 B         8            4 "
                  "    24.4 MiB");
  EXPECT_CONTAINS(r.out, "48.8 MiB");
  EXPECT_CONTAINS(r.out, "3.2e+06");
  EXPECT_CONTAINS(r.out, "every point fits the device's free memory");
  EXPECT_TRUE(dir.entries().empty());
  const ProcessResult big =
      kmini({"run", test_input("stream_small.yaml"), "--dry-run", "--set", "stream.elements=1e12"});
  EXPECT_EQ(big.exit_code, 2) << big.out << big.err;
  EXPECT_CONTAINS(big.err, "of memory per rank, but");
}

TEST(StreamRun, DefaultReportNameInTheWorkingFolder) {
  TempDir dir;
  const ProcessResult r = kmini({"run", test_input("stream_broken.yaml"), "--set",
                                 "stream.inject_error=false", "--ceiling-elements", "0"},
                                dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto entries = dir.entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].rfind("kmini-stream_broken-", 0), 0u) << entries[0];
  EXPECT_CONTAINS(r.out, "report: " + entries[0]);
}

TEST(StreamRun, KokkosFlagsReachKokkos) {
  TempDir dir;
  const std::string report = dir.file("r.yaml");
  // Kokkos 3.4 spells it --kokkos-threads; 4.x also takes --kokkos-num-threads.
  const ProcessResult r =
      kmini({"run", test_input("stream_broken.yaml"), "--set", "stream.inject_error=false",
             "--report", report, "--ceiling-elements", "0", "--kokkos-threads=1"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const YAML::Node meta = YAML::LoadFile(report)["meta"];
  if (meta["kokkos"]["default_execution_space"].as<std::string>() == "OpenMP") {
    EXPECT_EQ(meta["kokkos"]["concurrency"].as<int>(), 1);
  }
  EXPECT_CONTAINS(meta["command"].as<std::string>(), "--kokkos-threads=1");
}

TEST(StreamRun, TooLargeForTheDeviceIsRefusedBeforeAllocating) {
  TempDir dir;
  const ProcessResult r =
      kmini({"run", test_input("stream_broken.yaml"), "--set", "stream.elements=1e12", "--report",
             dir.file("r.yaml"), "--ceiling-elements", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_CONTAINS(r.err, "needs 21.8 TiB of memory per rank");
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace kmini
