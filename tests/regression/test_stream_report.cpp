// kmini run on small inputs, end to end: exit status, terminal table, and the report's content
// read back and checked against what the run must have done.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "support/expect.hpp"
#include "support/kmini_binary.hpp"

namespace kmini {
namespace {

using testing::kmini;
using testing::ProcessResult;
using testing::TempDir;
using testing::test_input;

const std::vector<std::string> kAllVariants{"copy", "deep_copy", "mul", "add", "triad", "dot"};
const std::map<std::string, double> kWeights{{"copy", 2}, {"deep_copy", 2}, {"mul", 2},
                                             {"add", 3},  {"triad", 3},     {"dot", 2}};

TEST(StreamRun, EveryVariantValidatesAndTheReportSaysSo) {
  TempDir dir;
  const std::string report = dir.file("report.yaml");
  const ProcessResult r = kmini(
      {"run", test_input("stream_small.yaml"), "--report", report, "--ceiling-elements", "200000"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "copy ceiling: ");
  EXPECT_CONTAINS(r.out, "read ceiling: ");
  EXPECT_CONTAINS(r.out, "-- precision=float");
  EXPECT_CONTAINS(r.out, "VALID: 12 of 12 results passed validation");
  EXPECT_CONTAINS(r.out, "report: " + report);

  const YAML::Node doc = YAML::LoadFile(report);
  EXPECT_EQ(doc["kmini_report"].as<int>(), 1);
  const YAML::Node meta = doc["meta"];
  EXPECT_EQ(meta["kmini"]["version"].as<std::string>(), "0.1.0");
  EXPECT_FALSE(meta["kmini"]["git_revision"].as<std::string>().empty());
  EXPECT_FALSE(meta["build"]["preset"].as<std::string>().empty());
  EXPECT_FALSE(meta["kokkos"]["version"].as<std::string>().empty());
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
  // The faster of the two copies.
  ASSERT_EQ(ceiling["probes"].size(), 2u);
  EXPECT_EQ(ceiling["probes"][0]["variant"].as<std::string>(), "copy");
  EXPECT_EQ(ceiling["probes"][1]["variant"].as<std::string>(), "deep_copy");
  EXPECT_EQ(ceiling_gbps, std::max(ceiling["probes"][0]["bandwidth_GBps"].as<double>(),
                                   ceiling["probes"][1]["bandwidth_GBps"].as<double>()));
  for (const auto& probe : ceiling["probes"]) {
    EXPECT_EQ(probe["validation"]["status"].as<std::string>(), "PASS");
  }
  const YAML::Node read = doc["ceilings"]["read"];
  ASSERT_EQ(read["probes"].size(), 1u);
  EXPECT_EQ(read["probes"][0]["variant"].as<std::string>(), "dot");
  EXPECT_EQ(read["bandwidth_GBps"].as<double>(), read["probes"][0]["bandwidth_GBps"].as<double>());
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
  ASSERT_EQ(results.size(), 12u);
  for (std::size_t i = 0; i < results.size(); ++i) {
    const YAML::Node res = results[i];
    const std::string precision = i < 6 ? "float" : "double";
    const std::string variant = kAllVariants[i % 6];
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
    EXPECT_GT(res["speedup_vs_baseline"].as<double>(), 0.0);
    EXPECT_EQ(res["validation"]["status"].as<std::string>(), "PASS");
    EXPECT_LE(res["validation"]["value"].as<double>(), res["validation"]["tolerance"].as<double>());
  }
  EXPECT_EQ(results[0]["speedup_vs_baseline"].as<double>(), 1.0);
  EXPECT_EQ(doc["summary"]["status"].as<std::string>(), "VALID");
  EXPECT_EQ(doc["summary"]["passed"].as<int>(), 12);
}

TEST(StreamRun, InjectedErrorsFailValidationWithExitThree) {
  TempDir dir;
  const std::string report = dir.file("broken.yaml");
  const ProcessResult r = kmini(
      {"run", test_input("stream_broken.yaml"), "--report", report, "--ceiling-elements", "0"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "INVALID: 0 of 2 results passed validation");
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
