// The report: one document per invocation, built as a Tree and written whole by rank 0.
//   meta      what ran where: kmini, build, Kokkos, device, MPI placement, host, date, command
//   ceilings  the copy and read bandwidths measured at start
//   runs[]    the input echoed, and per point and variant: times, work, figure of merit,
//             GB/s and % of ceiling where bytes are counted, speed-up, validation
//   summary   counts and one VALID/INVALID line
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/runner.hpp"
#include "core/tree.hpp"

namespace kmini {

class Comm;
struct DeviceInfo;
struct NodePlacement;
struct Input;

// Collective: gathers every rank's host and device.
Tree meta_section(const Comm& comm, const DeviceInfo& device, const NodePlacement& placement,
                  const std::string& command_line, const Input& input);

Tree run_section(const RunResult& run);

struct Summary {
  int results = 0;  // variants that ran
  int passed = 0;
  int failed = 0;
  int not_applicable = 0;  // variants that could not run at a point, and said why
  int run_errors = 0;
  bool probe_failed = false;  // a ceiling probe failed its validation
  int interrupted = 0;        // the signal that stopped the invocation early, or 0
  // Where the suite names a reference machine: the geometric mean of the runs' headline figures
  // over the reference's, set only when every run validated.
  std::optional<double> rating;
  std::string reference_device;        // empty when the suite names none
  std::vector<std::string> overrides;  // the --set options the inputs were changed by
  bool valid() const {
    return results > 0 && failed == 0 && run_errors == 0 && !probe_failed && interrupted == 0;
  }
  // VALID, INVALID, or INTERRUPTED (never rated) where a signal stopped the runs early.
  std::string status() const;
  // "VALID: 8 of 8 results passed validation" in the style of HPCG's closing line, "VALID with a
  // rating of 1.02 (1 = DEVICE): ..." for a suite with a reference.
  std::string line() const;
  Tree to_tree() const;
};

Summary summarize(const std::vector<RunResult>& runs);

// validation: {status: PASS|FAIL, metric, value, tolerance}, as every report entry writes it.
Tree validation_tree(const Validation& validation);

// "2026-11-22T10:31:05Z"
std::string utc_timestamp();

}  // namespace kmini
