// The bridge app's parameters, and the problem they describe, checked: every bad input is
// rejected here, before anything runs, naming the key that holds it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bridge/bridge_model.hpp"
#include "bridge/execution_strategy.hpp"
#include "core/param.hpp"
#include "core/params.hpp"

namespace kmini {
class Comm;
}

namespace kmini::bridge {

// A point's problem as its parameters state it (setup_of): the defaults are the parameters'
// (bridge_params), and nothing here assumes one.
struct BridgeSetup {
  BridgeModel model;
  ExecutionStrategy strategy;
  std::int64_t global_paths;
  std::int64_t first_path;  // this rank's share: paths first_path .. + local_paths - 1
  std::int64_t local_paths;
  bool increments;
  bool time_major;
  bool sobol;
  std::uint64_t seed;
  std::string sobol_table;  // the direction numbers' file, when sobol
  bool validate_full;
  std::string dump;  // empty: none
  int team_size;
};

// What every rank's share is cut from: the model and its execution strategy, built once per
// point (Params::parsed); throws InputError through Params::reject.
struct BridgeProblem {
  BridgeModel model;
  ExecutionStrategy strategy;
};
const BridgeProblem& problem_of(const Params& params);

std::vector<ParamSpec> bridge_params();

// Cross-parameter checks; throws InputError through Params::reject.
void check_bridge(const Params& params);

// The whole problem and this rank's share of the paths.
BridgeSetup setup_of(const Params& params, const Comm& comm);

// The shipped Joe-Kuo table, used when `sobol_table` is not given.
std::string default_sobol_table();

}  // namespace kmini::bridge
