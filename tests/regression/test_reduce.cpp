// The reduce app end to end on this machine's backend: every variant against a compensated host
// sum, on random data with several seeds and at the edges.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>
#include <algorithm>

#include "support/expect.hpp"
#include "support/kmini_binary.hpp"

namespace kmini {
namespace {

using testing::kmini;
using testing::ProcessResult;
using testing::TempDir;

YAML::Node run_reduce(const std::string& yaml) {
  TempDir dir;
  const std::string input = dir.write("in.yaml", yaml);
  const std::string report = dir.file("report.yaml");
  const ProcessResult r = kmini({"run", input, "--report", report, "--ceiling-elements", "0"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return r.exit_code == 0 ? YAML::LoadFile(report) : YAML::Node();
}

void expect_all_passed(const YAML::Node& doc, int expected_results) {
  ASSERT_TRUE(doc.IsMap());
  const YAML::Node results = doc["runs"][0]["results"];
  EXPECT_EQ(static_cast<int>(results.size()), expected_results);
  for (const auto& res : results) {
    EXPECT_EQ(res["validation"]["status"].as<std::string>(), "PASS")
        << res["variant"].as<std::string>() << " at " << res["point"];
  }
}

TEST(Reduce, EveryVariantMatchesACompensatedSum) {
  for (const int seed : {11, 12, 13}) {
    SCOPED_TRACE(seed);
    const YAML::Node doc = run_reduce(
        "app: reduce\nelements: [100000, 1000003]\nprecision: [float, double]\nrepetitions: 2\n"
        "seed: " +
        std::to_string(seed) + "\n");
    expect_all_passed(doc, 8 * 4);
    EXPECT_EQ(doc["runs"][0]["figure_of_merit"]["ceiling"].as<std::string>(), "read");
  }
}

TEST(Reduce, EdgeCases) {
  // Nothing to sum; fewer values than a warp; not a multiple of 32; more work items than values.
  expect_all_passed(run_reduce("app: reduce\nelements: [0, 5, 1001]\nwork_items: [1, 7, 5000]\n"
                               "repetitions: 1\n"),
                    8 * 9);
}

TEST(Reduce, ChunkVariantsReadTheWholeArray) {
  // A tolerance of (n - 1) 2^-53 makes one lost value (about 0.5 of a sum of 500) a failure,
  // so a batch or stride off by one cannot pass.
  const YAML::Node doc = run_reduce(
      "app: reduce\nelements: 1001\nwork_items: [3, 1000, 1001, 1002]\n"
      "variant: [chunk_contiguous, chunk_strided, chunk_strided_warp]\nrepetitions: 1\n");
  expect_all_passed(doc, 3 * 4);
  EXPECT_LT(doc["runs"][0]["results"][0]["validation"]["tolerance"].as<double>(), 1e-12);
}

TEST(Reduce, NoMoreWorkItemsThanElementsAreLaunched) {
  // 2^31 - 1 work items for 10 values launched every one of them, for 25 s a variant; beyond one
  // per element a work item has nothing to do, and the report says how many ran.
  const YAML::Node doc = run_reduce(
      "app: reduce\nelements: [10, 1001]\nwork_items: [7, 2147483647]\nrepetitions: 1\n"
      "variant: [chunk_contiguous, chunk_strided, chunk_strided_warp, kokkos_reduce]\n");
  expect_all_passed(doc, 4 * 4);
  int chunked = 0;
  for (const auto& r : doc["runs"][0]["results"]) {
    const auto elements = r["point"]["elements"].as<double>();
    const auto requested = r["point"]["work_items"].as<double>();
    const YAML::Node launched = r["metrics"]["work_items"];
    if (r["variant"].as<std::string>() == "kokkos_reduce") {
      EXPECT_FALSE(launched.IsDefined());
      continue;
    }
    ++chunked;
    EXPECT_EQ(launched["value"].as<double>(), std::min(elements, requested));
  }
  EXPECT_EQ(chunked, 3 * 4);
}

}  // namespace
}  // namespace kmini
