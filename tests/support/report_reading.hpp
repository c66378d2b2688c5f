// Running one input through the kmini binary and reading what its report says about a result.
#pragma once

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/kmini_binary.hpp"

namespace kmini::testing {

// Runs `yaml` from `dir` without the ceiling probe; kmini must exit 0. The report, or a null
// node after a failed expectation.
inline YAML::Node run_report(const TempDir& dir, const std::string& yaml,
                             const std::vector<std::string>& extra = {}) {
  const std::string input = dir.write("in.yaml", yaml);
  const std::string report = dir.file("report.yaml");
  std::vector<std::string> args{"run", input, "--report", report, "--ceiling-elements", "0"};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult r = kmini(args);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  if (r.exit_code != 0) return YAML::Node();
  return YAML::LoadFile(report);
}

// A result's metric `name`, NaN after a failed expectation when it has none.
inline double metric(const YAML::Node& result, const std::string& name) {
  const YAML::Node m = result["metrics"][name];
  EXPECT_TRUE(m.IsMap()) << "no metric " << name;
  return m.IsMap() ? m["value"].as<double>() : NAN;
}

// "variant at {point}", for traces.
inline std::string describe(const YAML::Node& result) {
  YAML::Emitter point;
  point << YAML::Flow << result["point"];
  return result["variant"].as<std::string>() + " at " + point.c_str();
}

}  // namespace kmini::testing
