#include "bridge/bridge_setup.hpp"

#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <stdexcept>
#include <variant>

#include "bridge/sobol.hpp"
#include "core/choice.hpp"
#include "core/comm.hpp"
#include "core/data_files.hpp"
#include "core/error.hpp"
#include "core/precision.hpp"
#include "core/registry.hpp"
#include "core/text.hpp"

namespace kmini::bridge {

namespace {

enum class OrderName { bisection, sequential, quantlib };
enum class Output { paths, increments };
enum class Layout { time_major, path_major };
enum class Normals { pseudo, sobol };
enum class Check { sample, full };

// The app's words and the values they stand for.
struct BridgeChoices {
  // The orders kmini builds, which `order` takes beside a list or a file.
  Choice<OrderName> order{"order",
                          {{"bisection", OrderName::bisection},
                           {"sequential", OrderName::sequential},
                           {"quantlib", OrderName::quantlib}}};
  Choice<Output> output{"output", {{"paths", Output::paths}, {"increments", Output::increments}}};
  Choice<Layout> layout{"layout",
                        {{"time_major", Layout::time_major}, {"path_major", Layout::path_major}}};
  Choice<Normals> normals{"normals", {{"pseudo", Normals::pseudo}, {"sobol", Normals::sobol}}};
  Choice<Check> validate{"validate", {{"sample", Check::sample}, {"full", Check::full}}};
};

const BridgeChoices& choices() {
  static const BridgeChoices words;
  return words;
}

bool sobol_normals(const Params& params) {
  return choices().normals.of(params) == Normals::sobol;
}
// `dump` writes text for every number; it is meant for checking small runs by other means.
constexpr double kMaxDumpValues = 1.0e6;
// Sobol point i + 1 builds path i; the points' 32-bit integers cover indices below 2^32.
constexpr double kMaxSobolPaths = 4294967295.0;

TimeGrid grid_of(const Params& params) {
  TimeGrid grid;
  if (params.has("times")) {
    grid.t0 = params.real("t0");
    grid.times = params.reals("times");
  } else {
    grid = uniform_grid(params.real("t0"), params.real("T"),
                        static_cast<int>(params.integer("steps")));
  }
  const std::string problem = time_grid_problem(grid);
  if (!problem.empty()) {
    params.reject(params.has("times") ? "times" : "T", problem);
  }
  return grid;
}

Order order_of(const Params& params, const TimeGrid& grid) {
  const Value& value = params.value("order");
  std::vector<std::int64_t> order;  // as given, so that a message quotes what the user wrote
  if (const auto* inline_order = std::get_if<std::vector<std::int64_t>>(&value)) {
    order = *inline_order;
  } else {
    const std::string& word = params.string("order");
    const std::optional<OrderName> named = choices().order.find(word);
    Order built;
    if (!named) {
      try {
        built = read_order_file(word);
      } catch (const InputError& e) {
        params.reject("order", e.what());
      }
    } else if (*named == OrderName::bisection) {
      built = bisection_order(grid);
    } else if (*named == OrderName::sequential) {
      built = sequential_order(grid.steps());
    } else {
      built = quantlib_order(grid.steps());
    }
    order.assign(built.begin(), built.end());
  }
  const std::string problem = order_problem(order, grid.steps());
  if (!problem.empty()) {
    params.reject("order", "not a permutation of the time indices 1.." +
                               std::to_string(grid.steps()) + ": " + problem);
  }
  return Order(order.begin(), order.end());  // a permutation of 1..N: every entry fits an int
}

std::vector<double> factor_of(const Params& params, int dim) {
  const bool covariance = params.has("covariance");
  const char* key = covariance ? "covariance" : "covariance_factor";
  std::vector<double> factor(static_cast<std::size_t>(dim) * dim, 0.0);
  if (!params.has(key)) {
    for (int c = 0; c < dim; ++c)
      factor[static_cast<std::size_t>(c * dim + c)] = 1.0;
    return factor;
  }
  const RealMatrix& matrix = params.matrix(key);
  if (matrix.size() != static_cast<std::size_t>(dim) ||
      matrix.front().size() != static_cast<std::size_t>(dim)) {
    params.reject(key, std::string("expected a ") + std::to_string(dim) + "x" +
                           std::to_string(dim) + " matrix for dimension " + std::to_string(dim) +
                           ", found " + std::to_string(matrix.size()) + "x" +
                           std::to_string(matrix.front().size()));
  }
  if (covariance) {
    const std::string problem = cholesky_factor(matrix, factor);
    if (!problem.empty()) params.reject(key, "the covariance matrix " + problem);
  } else {
    for (int c = 0; c < dim; ++c)
      for (int j = 0; j < dim; ++j)
        factor[static_cast<std::size_t>(c * dim + j)] =
            matrix[static_cast<std::size_t>(c)][static_cast<std::size_t>(j)];
    // Lower triangular, as the covariance's Cholesky factor is: an upper factor R (R^T R =
    // Sigma, the other convention) would give R R^T, another covariance, without a word. A zero
    // on the diagonal makes it singular, which a covariance is refused for too.
    for (int c = 0; c < dim; ++c) {
      for (int j = c + 1; j < dim; ++j) {
        if (factor[static_cast<std::size_t>(c * dim + j)] != 0.0) {
          params.reject(key, "expected a lower-triangular factor (C C^T = Sigma), found " +
                                 format_number(factor[static_cast<std::size_t>(c * dim + j)]) +
                                 " at row " + std::to_string(c + 1) + ", column " +
                                 std::to_string(j + 1) + ", above the diagonal");
        }
      }
      if (factor[static_cast<std::size_t>(c * dim + c)] == 0.0) {
        params.reject(
            key, "the factor is singular: its diagonal entry " + std::to_string(c + 1) + " is 0");
      }
    }
  }
  return factor;
}

// A power of ten: the smallest, at least `value`, or the largest, at most it.
double power_of_ten_above(double value) {
  return std::pow(10.0, std::ceil(std::log10(value)));
}
double power_of_ten_below(double value) {
  return std::pow(10.0, std::floor(std::log10(value)));
}

// The paths' values, x0 + C W(t), and the check's sums of their squares over up to 10^12 paths
// stay finite in the paths' precision: each component's start, and its spread (ten standard
// deviations at t_N), at most sqrt(largest) / 10^6, rounded down to a power of ten. Past that (x0:
// [1e308], or times reaching 1e308, or 1e300 in float), runs went ahead and failed their check with
// inf.
//
// At the other end, each step's noise, sigma C z with sigma >= sqrt(dt / 2) for the smallest
// step dt, stays large enough that a rounding of it is a normal number: at least the smallest
// normal over the unit roundoff, rounded up to a power of ten (1e-30 in float, 1e-291 in double).
// Below that the noise is subnormal, rounded to a few bits or to 0, and runs failed their check
// (T: 1e-100 in float); the steps themselves, from which the weights and sigmas are made in
// double, stay at least that bound of double (T: 1e-220 failed there). Increments divide by dt: 1 /
// dt stays below the largest over 10^6, and ten standard deviations of an increment, 10 |C row| /
// sqrt(dt), within the paths' bound.
void check_finite_paths(const Params& params, const BridgeModel& model, bool increments) {
  const bool single = precision_of(params) == Precision::float32;
  const double largest =
      single ? double{std::numeric_limits<float>::max()} : std::numeric_limits<double>::max();
  // A round number: 1e13 in float, 1e148 in double.
  const double bound = power_of_ten_below(std::sqrt(largest) / 1e6);
  const double smallest_noise = power_of_ten_above(
      single
          ? double{std::numeric_limits<float>::min()} / (std::numeric_limits<float>::epsilon() / 2)
          : std::numeric_limits<double>::min() / (std::numeric_limits<double>::epsilon() / 2));
  const std::string precision = single ? "float" : "double";
  const std::string within =
      "; at most " + format_number(bound) + " in " + precision +
      ", so that the paths and the check's sums of their squares stay finite";
  const std::string times_key = params.has("times") ? "times" : "T";
  const double span = model.grid.at(model.grid.steps()) - model.grid.t0;
  double step = span;
  int step_end = model.grid.steps();
  for (int i = 1; i <= model.grid.steps(); ++i) {
    const double dt = model.grid.at(i) - model.grid.at(i - 1);
    if (dt < step) {
      step = dt;
      step_end = i;
    }
  }
  const std::string smallest_step = "the smallest step, t_" + std::to_string(step_end) + " - " +
                                    (step_end == 1 ? "t0" : "t_" + std::to_string(step_end - 1)) +
                                    " = " + format_number(step);
  // The weights and sigmas are computed in double from the steps, whatever the paths' precision.
  const double smallest_step_allowed = power_of_ten_above(
      std::numeric_limits<double>::min() / (std::numeric_limits<double>::epsilon() / 2));
  if (!(step >= smallest_step_allowed)) {
    params.reject(times_key, smallest_step + "; at least " + format_number(smallest_step_allowed) +
                                 ", so that the steps, and the weights and sigmas made from them "
                                 "in double, are normal numbers");
  }
  // Finite with room for the roundings that follow: 1e32 in float, 1e302 in double.
  const double scale_bound = power_of_ten_below(largest / 1e6);
  if (increments && !(1.0 / step <= scale_bound)) {
    params.reject(times_key, smallest_step + ", gives increments a scale 1 / dt of " +
                                 format_number(1.0 / step) + "; at most " +
                                 format_number(scale_bound) + " in " + precision);
  }
  // A product of the covariance's row and a time term out of range is the fault of the one
  // further from 1 in the failing direction: the covariance's key where the input gives one.
  const char* factor_key = params.has("covariance")          ? "covariance"
                           : params.has("covariance_factor") ? "covariance_factor"
                                                             : nullptr;
  const auto key_of = [&](double factor_term, double time_term, bool too_large) {
    const bool factor_at_fault = too_large ? factor_term > time_term : factor_term < time_term;
    return factor_key != nullptr && factor_at_fault ? std::string(factor_key) : times_key;
  };
  const int dim = model.dim;
  for (int c = 0; c < dim; ++c) {
    double row = 0.0;
    for (int j = 0; j < dim; ++j)
      row += model.factor[static_cast<std::size_t>(c * dim + j)] *
             model.factor[static_cast<std::size_t>(c * dim + j)];
    const std::string component = "component " + std::to_string(c + 1);
    const double start = model.x0[static_cast<std::size_t>(c)];
    if (!(std::abs(start) <= bound)) {
      params.reject("x0", component + " is " + format_number(start) + within);
    }
    const double spread = 10.0 * std::sqrt(row) * std::sqrt(span);
    if (!(spread <= bound)) {
      params.reject(key_of(std::sqrt(row), std::sqrt(span), true),
                    component +
                        " spreads ten standard deviations, 10 sqrt(t_N - t0) |C row|, "
                        "to " +
                        format_number(spread) + within);
    }
    const double noise = std::sqrt(row) * std::sqrt(step / 2.0);
    if (!(noise >= smallest_noise)) {
      params.reject(key_of(std::sqrt(row), std::sqrt(step / 2.0), false),
                    component + "'s noise at " + smallest_step + ", sqrt(dt / 2) |C row|, is " +
                        format_number(noise) + "; at least " + format_number(smallest_noise) +
                        " in " + precision + ", so that its roundings are normal numbers");
    }
    const double increment = 10.0 * std::sqrt(row) / std::sqrt(step);
    if (increments && !(increment <= bound)) {
      params.reject(key_of(std::sqrt(row), 1.0 / std::sqrt(step), true),
                    component + "'s increments at " + smallest_step +
                        " spread ten standard deviations, 10 |C row| / sqrt(dt), to " +
                        format_number(increment) + within);
    }
  }
}

BridgeModel model_of(const Params& params) {
  BridgeModel model;
  model.grid = grid_of(params);
  model.order = order_of(params, model.grid);
  model.dim = static_cast<int>(params.integer("dimension"));
  const auto& x0 = params.reals("x0");
  if (x0.size() == 1) {
    model.x0.assign(static_cast<std::size_t>(model.dim), x0.front());
  } else if (x0.size() == static_cast<std::size_t>(model.dim)) {
    model.x0 = x0;
  } else {
    params.reject("x0", "expected one value or " + std::to_string(model.dim) +
                            " (the dimension), found " + std::to_string(x0.size()));
  }
  model.factor = factor_of(params, model.dim);
  check_finite_paths(params, model, choices().output.of(params) == Output::increments);
  return model;
}

ExecutionStrategy strategy_of(const Params& params, const BridgeModel& model) {
  try {
    return build_strategy(model.grid, model.order);
  } catch (const std::length_error& e) {
    params.reject("order", e.what());
  }
}

BridgeProblem read_problem(const Params& params) {
  BridgeModel model = model_of(params);
  ExecutionStrategy strategy = strategy_of(params, model);
  return BridgeProblem{std::move(model), std::move(strategy)};
}

std::string sobol_table_of(const Params& params) {
  if (params.has("sobol_table")) return params.string("sobol_table");
  return default_sobol_table();
}

}  // namespace

const BridgeProblem& problem_of(const Params& params) {
  return params.parsed<BridgeProblem>(read_problem);
}

std::string default_sobol_table() {
  return data_file("sobol/new-joe-kuo-6.21201");
}

std::vector<ParamSpec> bridge_params() {
  const BridgeChoices& words = choices();
  return {
      ParamSpec::integer("paths", 1439744,
                         "sample paths, over all ranks (default: seed 004's problem)")
          .range(1, 1.0e12)
          .sweepable(),
      ParamSpec::integer("steps", 64, "N: times t_1..t_N on a uniform grid from t0 to T")
          .range(1, kMaxSteps)
          .sweepable(),
      ParamSpec::real("T", 1.0, "the last time t_N of the uniform grid"),
      ParamSpec::real("t0", 0.0, "the start time, where the value x0 is known"),
      ParamSpec::real_list("times", {}, "t_1 < ... < t_N explicitly, instead of steps and T")
          .optional()
          .items(1, kMaxSteps),
      ParamSpec::real_list("x0", {0.0}, "the start value: one number, or d"),
      ParamSpec::integer("dimension", 1, "d: components of each point").range(1, 8),
      ParamSpec::real_matrix("covariance",
                             "Sigma, d x d, symmetric positive definite; its Cholesky factor "
                             "correlates the components (default: the identity)")
          .items(1, 8),
      ParamSpec::real_matrix("covariance_factor",
                             "C with C C^T = Sigma, d x d, lower triangular with a non-zero "
                             "diagonal, instead of covariance")
          .items(1, 8),
      ParamSpec::integers_or_name(
          "order", words.order.word(OrderName::bisection), words.order.words(),
          "construction order: bisection (t_N, then gaps' midpoints in time, "
          "level by level), sequential, quantlib (QuantLib's index "
          "bisection), a list of the time indices 1..N, or a file of them; a list of these "
          "sweeps")
          .sweepable(),
      words.output
          .param(Output::paths,
                 "paths: X(t_i); increments: (X(t_i) - X(t_{i-1})) / (t_i - t_{i-1})")
          .sweepable(),
      precision_param(Precision::float32, "working precision"),
      words.normals
          .param(Normals::pseudo,
                 "pseudo: Philox4x32-10 counters (path, coordinate); sobol: Joe-Kuo Sobol "
                 "points, dimension k d + c for component c of the k-th point of the "
                 "order; both through the inverse normal CDF")
          .sweepable(),
      ParamSpec::integer("seed", 2012, "the pseudo-random key").range(0, 9.0e18),
      ParamSpec::path("sobol_table",
                      "direction numbers in Joe and Kuo's format (default: the shipped "
                      "inputs/sobol/new-joe-kuo-6.21201)"),
      words.layout
          .param(Layout::time_major,
                 "normals and output: time_major puts one step's values of consecutive "
                 "paths together (coalesced); path_major keeps each path together")
          .sweepable(),
      ParamSpec::integer("team_size", 128, "threads per team of the shared_stack variant")
          .range(1, 1024),
      words.validate.param(Check::sample,
                           "compare with the reference bridge: sample (4096 paths spread over each "
                           "rank's share) or full (every path)"),
      ParamSpec::string("dump", "",
                        "a file to write, for each path, a line of its normals in construction "
                        "order and a line of its output at t_1..t_N (small runs, one variant)")
          .optional()
          .output_file(),
  };
}

void check_bridge(const Params& params) {
  if (params.given("times") && (params.given("steps") || params.given("T"))) {
    params.reject("times", "give either times or steps and T, not both");
  }
  if (params.has("covariance") && params.has("covariance_factor")) {
    params.reject("covariance_factor", "give either covariance or covariance_factor, not both");
  }
  const BridgeModel& model = problem_of(params).model;
  if (sobol_normals(params)) {
    const char* key = params.has("sobol_table") ? "sobol_table" : "normals";
    std::string table;
    try {
      table = sobol_table_of(params);
    } catch (const InputError& e) {
      params.reject(key, e.what());
    }
    if (!std::filesystem::is_regular_file(table)) {
      params.reject(
          key, "the Sobol direction numbers " + table + " are missing; give sobol_table: FILE");
    }
    const double needed = static_cast<double>(model.grid.steps()) * model.dim;
    // The table's faults (an empty file, a malformed line) are the key's: the message names the
    // input's line too. Every line the run will use is read now, so that a malformed one stops
    // the input at its load, not when its run starts after the runs before it.
    int available = 0;
    try {
      available = sobol_table_dimensions(table);
      if (needed <= available) read_sobol_directions(table, static_cast<int>(needed));
    } catch (const InputError& e) {
      params.reject(key, e.what());
    }
    if (needed > available) {
      params.reject(key, "needs " + std::to_string(static_cast<long long>(needed)) +
                             " Sobol dimensions (steps x dimension), beyond the " +
                             std::to_string(available) + " of " + table);
    }
    if (static_cast<double>(params.integer("paths")) > kMaxSobolPaths) {
      params.reject("paths", "Sobol points of 32-bit direction numbers serve at most " +
                                 std::to_string(static_cast<long long>(kMaxSobolPaths)) + " paths");
    }
  }
  if (params.has("dump")) {
    const auto& variants = params.strings(kVariantKey);
    if (variants.size() != 1 || variants.front() == kAllVariants) {
      params.reject("dump", "the dump holds one variant's output; select one variant");
    }
    const double values =
        static_cast<double>(params.integer("paths")) * model.grid.steps() * model.dim;
    if (values > kMaxDumpValues) {
      params.reject("dump",
                    "is for small runs: at most 1e6 values (paths x steps x "
                    "dimension), this run has " +
                        std::to_string(static_cast<long long>(values)));
    }
  }
}

BridgeSetup setup_of(const Params& params, const Comm& comm) {
  BridgeSetup s;
  s.model = problem_of(params).model;
  s.strategy = problem_of(params).strategy;
  s.global_paths = params.integer("paths");
  const std::int64_t ranks = comm.size(), rank = comm.rank();
  const std::int64_t share = s.global_paths / ranks, extra = s.global_paths % ranks;
  s.local_paths = share + (rank < extra ? 1 : 0);
  s.first_path = rank * share + std::min(rank, extra);
  s.increments = choices().output.of(params) == Output::increments;
  s.time_major = choices().layout.of(params) == Layout::time_major;
  s.sobol = sobol_normals(params);
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  if (s.sobol) s.sobol_table = sobol_table_of(params);
  s.validate_full = choices().validate.of(params) == Check::full;
  if (params.has("dump")) s.dump = params.string("dump");
  s.team_size = static_cast<int>(params.integer("team_size"));
  return s;
}

}  // namespace kmini::bridge
