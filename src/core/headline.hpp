// A run's headline: its fastest validated result, the one figure a suite summary quotes for it,
// and, where the suite names a reference machine, that figure over the reference's. The suite's
// rating is the geometric mean of those ratios, HPCG's "VALID with a rating of ..." for a suite.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/runner.hpp"
#include "core/tree.hpp"

namespace kmini {

struct SuiteReference;

struct Headline {
  std::string label;
  std::string app;
  std::string fom_name;  // "bandwidth"
  std::string unit;      // "GB/s"
  int ran = 0;           // results that ran, at every point and variant
  int passed = 0;
  bool run_failed = false;  // the run broke off at runtime
  // The fastest result that passed validation; unset when none did.
  std::optional<double> fom;
  std::string variant;
  std::string point;  // "size=L update=swap", empty for a run of one point
  std::optional<double> percent_of_ceiling;
  std::optional<double> reference;  // the reference machine's headline for this run
  std::optional<double> ratio;      // fom / reference
};

std::vector<Headline> find_headlines(const std::vector<RunResult>& runs,
                                     const std::optional<SuiteReference>& reference);

// The geometric mean of the headlines' ratios, when every run has one; unset otherwise.
std::optional<double> rating_of(const std::vector<Headline>& headlines);

Tree headlines_tree(const std::vector<Headline>& headlines);

// The terminal's closing table: one line per run.
void print_headlines(std::ostream& out, const std::vector<Headline>& headlines,
                     const std::string& reference_device);

}  // namespace kmini
