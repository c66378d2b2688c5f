// A kmini input run under mpirun whose report must come back valid, for the tests labelled mpi.
#pragma once

#include <string>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "support/mpirun.hpp"

namespace kmini::testing {

// Runs `yaml` on `ranks` ranks of one thread from `dir`; kmini must exit 0 within
// `limit_seconds` and the report say VALID for that many ranks. The report, or a null node.
inline YAML::Node valid_report_on_ranks(int ranks, const TempDir& dir, const std::string& yaml,
                                        int limit_seconds) {
  SCOPED_TRACE(std::to_string(ranks) + " ranks");
  const std::string input = dir.write("in.yaml", yaml);
  const std::string report = dir.file("report.yaml");
  const ProcessResult r = mpirun(
      ranks, {"run", input, "--report", report, "--ceiling-elements", "0"}, 1, limit_seconds);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  if (r.exit_code != 0) return YAML::Node();
  const YAML::Node doc = YAML::LoadFile(report);
  EXPECT_EQ(doc["meta"]["mpi"]["ranks"].as<int>(), ranks);
  EXPECT_EQ(doc["summary"]["status"].as<std::string>(), "VALID");
  return doc;
}

}  // namespace kmini::testing
