// Every app's byte model as `kmini list` shows it is what its reported GB/s divides by: each
// result's bytes are its variant's listed weight times the unit this test computes from the input
// on its own (the app's byte model, written out here independently), and its bandwidth is those
// bytes over its median time.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/expect.hpp"
#include "support/kmini_binary.hpp"
#include "support/report_reading.hpp"

namespace kmini {
namespace {

using testing::describe;
using testing::kmini;
using testing::ProcessResult;
using testing::run_report;
using testing::TempDir;

// The variants' weights in `kmini list APP --markdown`: its variant table's third column.
std::map<std::string, double> listed_weights(const std::string& app) {
  const ProcessResult r = kmini({"list", app, "--markdown"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, double> weights;
  std::istringstream lines(r.out);
  bool in_variants = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| variant | baseline | weight |", 0) == 0) {
      in_variants = true;
      continue;
    }
    if (!in_variants || line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');)
      cells.push_back(cell.substr(1, cell.size() - 2));
    const std::string name = cells.at(0).substr(1, cells.at(0).size() - 2);  // `name`
    weights[name] = cells.at(2) == "-" ? 0.0 : std::stod(cells.at(2));
  }
  return weights;
}

double bytes_of(const std::string& precision) {
  return precision == "float" ? 4.0 : 8.0;
}

// A small input of each app, every variant, and its byte model's unit at a point of it (what a
// weight of 1 stands for), from the README's description of each model.
struct ModelCase {
  std::string input;
  std::function<double(const YAML::Node& input, const YAML::Node& point)> unit;
};

const std::map<std::string, ModelCase>& model_cases() {
  static const std::map<std::string, ModelCase> cases{
      {"stream",
       {"elements: 5000\nprecision: [float, double]\nrepetitions: 2\n",
        [](const YAML::Node& in, const YAML::Node& point) {
          return in["elements"].as<double>() * bytes_of(point["precision"].as<std::string>());
        }}},
      {"reduce",
       {"elements: 5000\nprecision: [float, double]\nrepetitions: 2\n",
        [](const YAML::Node& in, const YAML::Node& point) {
          return in["elements"].as<double>() * bytes_of(point["precision"].as<std::string>());
        }}},
      {"histogram",
       {"samples: 5000\nbins: [3, 2000]\nbin_type: [int, double]\nrepetitions: 2\n",
        [](const YAML::Node& in, const YAML::Node& point) {
          const double bin = point["bin_type"].as<std::string>() == "int" ? 4.0 : 8.0;
          return in["samples"].as<double>() * 8.0 + point["bins"].as<double>() * bin;
        }}},
      // 14 arrays per interior point and iteration with the swap, 16 with the copy-back; of
      // arrays 17 x 17 x 17, (17 - 3)^3 points are interior.
      {"himeno",
       {"grid: [17, 17, 17]\niterations: 2\nupdate: [swap, copy_back]\n"
        "precision: [float, double]\n",
        [](const YAML::Node&, const YAML::Node& point) {
          const double arrays = point["update"].as<std::string>() == "swap" ? 14.0 : 16.0;
          return 14.0 * 14.0 * 14.0 * 2.0 * arrays * bytes_of(point["precision"].as<std::string>());
        }}},
      {"bridge",
       {"paths: 96\nsteps: 5\ndimension: 2\nprecision: [float, double]\nrepetitions: 2\n",
        [](const YAML::Node& in, const YAML::Node& point) {
          return in["paths"].as<double>() * in["steps"].as<double>() *
                 in["dimension"].as<double>() * bytes_of(point["precision"].as<std::string>());
        }}},
      // The G build has no byte model: it counts builds.
      {"hf",
       {"molecule: " + kmini::testing::source_dir() +
            "/inputs/molecules/water-001.xyz\nrepetitions: 1\n",
        [](const YAML::Node&, const YAML::Node&) { return 0.0; }}},
  };
  return cases;
}

std::set<std::string> listed_apps() {
  const ProcessResult r = kmini({"list", "--markdown"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> apps;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("## `", 0) == 0) apps.insert(line.substr(4, line.size() - 5));
  }
  return apps;
}

std::vector<std::string> modelled_apps();

TEST(ByteModels, EveryAppHasOneHere) {
  const std::vector<std::string> here = modelled_apps();
  EXPECT_EQ(listed_apps(), std::set<std::string>(here.begin(), here.end()));
}

class ByteModel : public ::testing::TestWithParam<std::string> {};

TEST_P(ByteModel, ReportedBandwidthIsTheListedWeightTimesTheUnit) {
  const std::string app = GetParam();
  const ModelCase& model = model_cases().at(app);
  const std::map<std::string, double> weights = listed_weights(app);
  ASSERT_FALSE(weights.empty());
  TempDir dir;
  const YAML::Node doc = run_report(dir, "app: " + app + "\nvariant: all\n" + model.input);
  ASSERT_TRUE(doc.IsMap());
  const YAML::Node run = doc["runs"][0];
  int ran = 0;
  for (const auto& result : run["results"]) {
    SCOPED_TRACE(describe(result));
    if (result["status"].as<std::string>() != "ran") continue;
    ++ran;
    const double expected =
        weights.at(result["variant"].as<std::string>()) * model.unit(run["input"], result["point"]);
    const double bytes = result["work_per_repetition"]["bytes"].as<double>();
    EXPECT_NEAR(bytes, expected, 1e-12 * expected);
    const YAML::Node bandwidth = result["bandwidth_GBps"];
    if (expected == 0.0) {
      EXPECT_TRUE(bandwidth.IsNull());
      continue;
    }
    const double gbps = expected / result["time_s"]["median"].as<double>() / 1.0e9;
    EXPECT_NEAR(bandwidth.as<double>(), gbps, 1e-9 * gbps);
  }
  EXPECT_GT(ran, 0);
}

std::vector<std::string> modelled_apps() {
  std::vector<std::string> apps;
  for (const auto& [app, model] : model_cases())
    apps.push_back(app);
  return apps;
}

INSTANTIATE_TEST_SUITE_P(EveryApp, ByteModel, ::testing::ValuesIn(modelled_apps()),
                         testing::ParamIsName());

}  // namespace
}  // namespace kmini
