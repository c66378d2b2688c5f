// The bridge app end to end on this machine's backend: every variant, order, layout, precision
// and output passes its validation; dumped paths agree with a bridge written here from equation
// (5) for the dumped normals; the paths have the Brownian motion's mean and covariance; Sobol
// normals are the published points'; every variant and layout builds the same paths; bad input
// exits 2 naming the key.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/expect.hpp"
#include "support/kmini_binary.hpp"
#include "support/quantlib_order.hpp"
#include "support/report_reading.hpp"
#include "support/variant_tables.hpp"

namespace kmini {
namespace {

using testing::describe;
using testing::kmini;
using testing::metric;
using testing::ProcessResult;
using testing::run_report;
using testing::TempDir;

const std::vector<std::string> kVariants = testing::variant_names("bridge");
const std::set<std::string> kVectorVariants{"shared_vector", "shared_vector_prefetch",
                                            "fused_vector", "fused_vector_prefetch"};
const int kVectorCount = static_cast<int>(kVectorVariants.size());

// Small runs: one timed repetition, no warm-up.
constexpr const char* kQuick = "repetitions: 1\nwarmup: 0\n";

// A three-dimensional covariance of unequal variances and correlations of both signs.
const std::vector<std::vector<double>> kSigma3{
    {0.04, 0.012, -0.006}, {0.012, 0.09, 0.0}, {-0.006, 0.0, 0.0225}};

std::string list_of(const std::vector<double>& values) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    out << (i == 0 ? "" : ", ") << values[i];
  out << "]";
  return out.str();
}

std::string list_of(const std::vector<int>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i == 0 ? "" : ", ") + std::to_string(values[i]);
  return out + "]";
}

std::string matrix_of(const std::vector<std::vector<double>>& rows) {
  std::string out = "[";
  for (std::size_t i = 0; i < rows.size(); ++i)
    out += (i == 0 ? "" : ", ") + list_of(rows[i]);
  return out + "]";
}

// A suite of bridge runs, one per body (YAML lines at the left margin).
std::string suite(const std::vector<std::string>& bodies) {
  std::string out = "runs:\n";
  for (const auto& body : bodies) {
    out += "  - app: bridge\n";
    std::istringstream lines(std::string(kQuick) + body);
    for (std::string line; std::getline(lines, line);)
      out += "    " + line + "\n";
  }
  return out;
}

// A result that ran and passed, over all `paths`, with the strategy's metrics.
void expect_passed(const YAML::Node& result, std::int64_t paths) {
  SCOPED_TRACE(describe(result));
  ASSERT_EQ(result["status"].as<std::string>(), "ran");
  const YAML::Node validation = result["validation"];
  EXPECT_EQ(validation["status"].as<std::string>(), "PASS") << validation;
  EXPECT_LE(validation["value"].as<double>(), validation["tolerance"].as<double>());
  EXPECT_CONTAINS(
      validation["metric"].as<std::string>(),
      "- reference bridge| / its rounding bound over " + std::to_string(paths) + " checked paths");
  EXPECT_EQ(metric(result, "checked_paths"), static_cast<double>(paths));
  EXPECT_EQ(result["work_per_repetition"]["items"].as<double>(), static_cast<double>(paths));
  EXPECT_LE(metric(result, "stack_optimized"), metric(result, "stack_user_order"));
  EXPECT_GE(metric(result, "stack_fused"), 0.0);
  const double from_registers = metric(result, "fused_neighbours_from_registers");
  EXPECT_GE(from_registers, 0.0);
  EXPECT_LE(from_registers, 1.0);
  EXPECT_GE(metric(result, "construction_depth"), 1.0);
  EXPECT_GT(metric(result, "normals_seconds"), 0.0);
  EXPECT_GT(metric(result, "normals_GBps"), 0.0);
  const std::string variant = result["variant"].as<std::string>();
  const bool shared = variant.rfind("shared_", 0) == 0;
  EXPECT_EQ(result["metrics"]["team_size"].IsDefined(), shared);
}

// The results of every run of the report; those not applicable must be vector variants whose
// reason `vector_not_applicable` accepts.
template <class Accepts>
std::vector<YAML::Node> results_of(const YAML::Node& doc, Accepts vector_not_applicable,
                                   int* skipped) {
  std::vector<YAML::Node> ran;
  *skipped = 0;
  if (!doc.IsMap()) {
    ADD_FAILURE() << "no report";
    return ran;
  }
  for (const auto& run : doc["runs"]) {
    for (const auto& result : run["results"]) {
      if (result["status"].as<std::string>() != "not_applicable") {
        ran.push_back(result);
        continue;
      }
      ++*skipped;
      SCOPED_TRACE(describe(result));
      EXPECT_EQ(kVectorVariants.count(result["variant"].as<std::string>()), 1u);
      EXPECT_TRUE(vector_not_applicable(result)) << result["reason"];
      EXPECT_CONTAINS(result["reason"].as<std::string>(),
                      "which needs layout time_major and a "
                      "multiple of");
    }
  }
  EXPECT_EQ(doc["summary"]["status"].as<std::string>(), "VALID");
  return ran;
}

// ---- every variant, order, layout, precision and output ---------------------------------------

std::vector<int> random_permutation(int n, unsigned seed) {
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    order[static_cast<std::size_t>(i)] = i + 1;
  std::uint64_t state = seed;
  for (int i = n - 1; i > 0; --i) {  // Fisher-Yates on a fixed LCG: the same on every platform
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    std::swap(order[static_cast<std::size_t>(i)], order[(state >> 33) % (i + 1)]);
  }
  return order;
}

// Paths of the every-variant sweep: many more than a team or a vector, few enough that the 512
// results take seconds; fewer in the sanitizers' slow build.
#if defined(KMINI_SANITIZED)
constexpr int kSweepPaths = 200;
#else
constexpr int kSweepPaths = 2000;
#endif

TEST(BridgeVariants, EveryOrderLayoutPrecisionAndOutput) {
  TempDir dir;
  std::vector<std::string> runs;
  for (const int steps : {13, 64}) {
    runs.push_back("paths: " + std::to_string(kSweepPaths) + "\nsteps: " + std::to_string(steps) +
                   "\norder: [bisection, sequential, quantlib, " +
                   list_of(random_permutation(steps, 13 + steps)) +
                   "]\nlayout: [time_major, path_major]\nprecision: [float, double]\n"
                   "output: [paths, increments]\nvariant: all\n");
  }
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(dir, suite(runs)),
      [](const YAML::Node& r) {
        // The paths divide into 16 bytes of either precision: only path_major is refused.
        return r["point"]["layout"].as<std::string>() == "path_major";
      },
      &skipped);
  // 2 runs x 4 orders x 2 layouts x 2 precisions x 2 outputs, every variant.
  EXPECT_EQ(results.size() + static_cast<std::size_t>(skipped), 2u * 32u * kVariants.size());
  EXPECT_EQ(skipped, 2 * 16 * kVectorCount);
  std::map<std::string, int> per_variant;
  for (const auto& result : results) {
    expect_passed(result, kSweepPaths);
    ++per_variant[result["variant"].as<std::string>()];
  }
  for (const auto& variant : kVariants) {
    EXPECT_EQ(per_variant[variant], kVectorVariants.count(variant) ? 32 : 64) << variant;
  }
}

TEST(BridgeVariants, VectorVariantsNeedPathsTheVectorDivides) {
  // 2002 paths: 2 doubles divide them, 4 floats do not; 2001 neither.
  TempDir dir;
  const std::string variants = "variant: [shared_vector, fused_vector, naive]\n";
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(dir, suite({"paths: 2002\nsteps: 9\nprecision: [float, double]\n" + variants,
                             "paths: 2001\nsteps: 9\nprecision: [float, double]\n" + variants})),
      [](const YAML::Node& r) {
        const std::string reason = r["reason"].as<std::string>();
        return r["point"]["precision"].as<std::string>() == "float"
                   ? reason.find("a thread builds 4 adjacent paths") != std::string::npos
                   : reason.find("a thread builds 2 adjacent paths") != std::string::npos;
      },
      &skipped);
  EXPECT_EQ(skipped, 2 + 4);
  ASSERT_EQ(results.size(), 12u - 6u);
  for (const auto& result : results) {
    const auto paths =
        static_cast<std::int64_t>(result["work_per_repetition"]["items"].as<double>());
    expect_passed(result, paths);
    if (kVectorVariants.count(result["variant"].as<std::string>())) {
      EXPECT_EQ(paths, 2002);
      EXPECT_EQ(result["point"]["precision"].as<std::string>(), "double");
    }
  }
}

TEST(BridgeVariants, SeveralDimensionsWithACovariance) {
  // d = 3 and 8, every variant (the fused vectors in double; in float they are the next test's),
  // both layouts and outputs.
  TempDir dir;
  const std::string common =
      "paths: 256\nsteps: 64\nlayout: [time_major, path_major]\n"
      "output: [paths, increments]\n";
  const std::string all_but_float_vector =
      "variant: [naive, shared_stack, prefetch, fused_no_prefetch, fused, shared_vector, "
      "shared_vector_prefetch, cpu_serial, cpu_openmp]\n";
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(dir, suite({common + "dimension: 3\ncovariance: " + matrix_of(kSigma3) +
                                 "\nprecision: double\nvariant: all\n",
                             common + "dimension: 3\ncovariance: " + matrix_of(kSigma3) +
                                 "\nprecision: float\n" + all_but_float_vector,
                             common + "dimension: 8\nprecision: double\nvariant: all\n"})),
      [](const YAML::Node& r) { return r["point"]["layout"].as<std::string>() == "path_major"; },
      &skipped);
  // Path-major refuses the vector variants: every one in double, the two shared ones in float.
  EXPECT_EQ(skipped, kVectorCount * 2 + 2 * 2 + kVectorCount * 2);
  const std::size_t all = kVariants.size();
  EXPECT_EQ(results.size() + static_cast<std::size_t>(skipped), 4u * (all + (all - 2) + all));
  for (const auto& result : results)
    expect_passed(result, 256);
}

TEST(BridgeVariants, FloatVectorsInSeveralDimensions) {
  // A thread's stack holds 16-byte vectors of 4 floats. Bisection over 64 times needs 5 fused
  // slots: 10 vectors for d = 2 run; 40 for d = 8 run too, or are refused for the thread-local
  // stack (the run's one variant: exit 2, naming the reason), never overrun it.
  for (const int d : {2, 8}) {
    SCOPED_TRACE("dimension " + std::to_string(d));
    TempDir dir;
    const std::string input =
        dir.write("in.yaml", "app: bridge\npaths: 64\nsteps: 64\ndimension: " + std::to_string(d) +
                                 "\nprecision: float\nvariant: fused_vector\n");
    const ProcessResult r =
        kmini({"run", input, "--report", dir.file("r.yaml"), "--ceiling-elements", "0"});
    const YAML::Node result = YAML::LoadFile(dir.file("r.yaml"))["runs"][0]["results"][0];
    if (d == 8 && result["status"].as<std::string>() == "not_applicable") {
      EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
      EXPECT_CONTAINS(result["reason"].as<std::string>(), "thread-local stack");
      EXPECT_CONTAINS(r.err, "no variant applies here: fused_vector: its thread-local stack");
      continue;
    }
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    expect_passed(result, 64);
    EXPECT_GE(metric(result, "stack_fused"), 5.0);  // slot 4 is the one the case is about
  }
}

TEST(BridgeVariants, ADeepOrderInTwoDimensions) {
  // Bisection over 2^15 times keeps 15 points on the naive stack (17 slots with x_0's and the
  // discard slot): 34 words of d = 2, within the thread-local stack's 128, so it must run.
  TempDir dir;
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(dir, suite({"paths: 4\nsteps: 32768\nT: 32768\ndimension: 2\n"
                             "precision: double\nvariant: [naive, prefetch]\n"})),
      [](const YAML::Node&) { return false; }, &skipped);
  ASSERT_EQ(results.size(), 2u);
  for (const auto& result : results) {
    expect_passed(result, 4);
    EXPECT_GE(metric(result, "stack_optimized"), 15.0);
  }
}

TEST(BridgeVariants, OrderFromAFileSampledAndFullValidation) {
  // More paths than the sampled check covers: validate: full checks every one, sample 4096.
  TempDir dir;
  const std::vector<int> order = random_permutation(24, 5);
  std::string text = "# evaluation order\n";
  for (std::size_t i = 0; i < order.size(); ++i)
    text += std::to_string(order[i]) + (i % 5 == 4 ? "\n" : ", ");
  dir.write("order.txt", text + "\n");
  const std::string body = "paths: 5000\nsteps: 24\norder: order.txt\n";
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(dir, suite({body + "validate: full\nvariant: [fused, shared_stack, cpu_openmp]\n",
                             body + "variant: naive\n"})),
      [](const YAML::Node&) { return false; }, &skipped);
  ASSERT_EQ(results.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i)
    expect_passed(results[i], 5000);
  const YAML::Node sampled = results[3];
  EXPECT_EQ(sampled["validation"]["status"].as<std::string>(), "PASS");
  EXPECT_CONTAINS(sampled["validation"]["metric"].as<std::string>(), "over 4096 checked paths");
  EXPECT_EQ(metric(sampled, "checked_paths"), 4096.0);
  EXPECT_EQ(sampled["work_per_repetition"]["items"].as<double>(), 5000.0);
}

// ---- dumps against a bridge written here ------------------------------------------------------

// A dump: per path, its normals in construction order and its output at t_1..t_N.
struct Dump {
  std::vector<std::string> comments;
  std::vector<std::string> normal_lines;  // as written, to compare runs byte for byte
  std::vector<std::vector<double>> normals, output;
};

std::vector<double> numbers_of(const std::string& line) {
  std::vector<double> values;
  const char* at = line.c_str();
  for (;;) {
    char* end = nullptr;
    const double v = std::strtod(at, &end);
    if (end == at) break;
    values.push_back(v);
    at = end;
  }
  return values;
}

Dump read_dump(const std::string& path, std::size_t width) {
  Dump dump;
  std::istringstream lines(testing::read_file(path));
  std::string line;
  bool normals_next = true;
  while (std::getline(lines, line)) {
    if (!line.empty() && line[0] == '#') {
      EXPECT_TRUE(dump.normals.empty()) << "a comment after the first path: " << line;
      dump.comments.push_back(line);
      continue;
    }
    const std::vector<double> values = numbers_of(line);
    EXPECT_EQ(values.size(), width)
        << "line " << (normals_next ? "of normals " : "of output ") << dump.normals.size() + 1;
    if (normals_next) {
      dump.normal_lines.push_back(line);
      dump.normals.push_back(values);
    } else {
      dump.output.push_back(values);
    }
    normals_next = !normals_next;
  }
  EXPECT_EQ(dump.comments.size(), 2u);
  EXPECT_EQ(dump.normals.size(), dump.output.size());
  return dump;
}

// A bridge problem as the test states it, independently of the app's parsing.
struct Problem {
  double t0 = 0.0;
  std::vector<double> times;  // t_1..t_N
  std::vector<int> order;     // time indices 1..N in construction order
  int dim = 1;
  std::vector<double> x0;
  std::vector<double> factor;  // C, d x d row-major
  bool increments = false;
  bool single = false;  // float

  int steps() const { return static_cast<int>(times.size()); }
  double at(int i) const { return i == 0 ? t0 : times[static_cast<std::size_t>(i) - 1]; }
  double unit() const {
    return single ? std::numeric_limits<float>::epsilon() / 2
                  : std::numeric_limits<double>::epsilon() / 2;
  }
};

std::vector<double> uniform_times(double t0, double t_end, int steps) {
  std::vector<double> times;
  for (int i = 1; i <= steps; ++i)
    times.push_back(i == steps ? t_end : t0 + (t_end - t0) * i / steps);
  return times;
}

// t_N, then breadth first the time nearest each gap's middle, the earlier of two equally near;
// used on grids where a tie is exact (t_i = i) or there is none.
std::vector<int> bisection(const Problem& p) {
  std::vector<int> order{p.steps()};
  std::deque<std::pair<int, int>> gaps{{0, p.steps()}};
  while (!gaps.empty()) {
    const auto [a, b] = gaps.front();
    gaps.pop_front();
    if (b - a < 2) continue;
    const double middle = (p.at(a) + p.at(b)) / 2;
    int best = a + 1;
    for (int m = a + 2; m < b; ++m) {
      if (std::fabs(p.at(m) - middle) < std::fabs(p.at(best) - middle)) best = m;
    }
    order.push_back(best);
    gaps.push_back({a, best});
    gaps.push_back({best, b});
  }
  return order;
}

std::vector<int> sequential(int steps) {
  std::vector<int> order;
  for (int i = 1; i <= steps; ++i)
    order.push_back(i);
  return order;
}

// The lower-triangular C with C C^T = sigma.
std::vector<double> cholesky(const std::vector<std::vector<double>>& sigma) {
  const std::size_t d = sigma.size();
  std::vector<double> c(d * d, 0.0);
  for (std::size_t i = 0; i < d; ++i) {
    for (std::size_t j = 0; j <= i; ++j) {
      double s = sigma[i][j];
      for (std::size_t k = 0; k < j; ++k)
        s -= c[i * d + k] * c[j * d + k];
      c[i * d + j] = i == j ? std::sqrt(s) : s / c[j * d + j];
    }
  }
  return c;
}

std::vector<double> flat(const std::vector<std::vector<double>>& rows) {
  std::vector<double> out;
  for (const auto& row : rows)
    out.insert(out.end(), row.begin(), row.end());
  return out;
}

struct Expected {
  std::vector<double> values;  // the path or its increments, a point's components together
  std::vector<double> bound;   // the largest |error| each may have in the working precision
};

// Equation (5), point by point in the construction order, in double: between the known
// neighbours (t_l, X_l) and (t_r, X_r)
//   X(t) = (1 - w) X_l + w X_r + s C z,  w = (t - t_l) / (t_r - t_l),  s = sqrt(w (t_r - t)),
// and after the last known point X(t) = X_l + sqrt(t - t_l) C z. The bound is the rounding of
// the working precision: a few units per interpolation, of the size of its terms, along the
// longest chain of interpolations behind a point, doubled.
Expected bridge(const Problem& p, const std::vector<double>& z) {
  const int n = p.steps(), d = p.dim;
  std::vector<std::vector<double>> x(static_cast<std::size_t>(n) + 1);
  std::vector<int> depth(static_cast<std::size_t>(n) + 1, 0);
  x[0] = p.x0;
  double magnitude = 0.0;
  for (const double v : p.x0)
    magnitude = std::max(magnitude, std::fabs(v));
  for (std::size_t k = 0; k < p.order.size(); ++k) {
    const int point = p.order[k];
    int left = point - 1;
    while (x[static_cast<std::size_t>(left)].empty())
      --left;
    int right = point + 1;
    while (right <= n && x[static_cast<std::size_t>(right)].empty())
      ++right;
    const double t = p.at(point), tl = p.at(left);
    const bool bounded = right <= n;
    const double tr = bounded ? p.at(right) : 0.0;
    // Ratios of steps first, so that tiny steps (1e-250) neither underflow nor lose bits.
    const double to_right = bounded ? (t - tl) / (tr - tl) : 0.0;
    const double sigma = bounded ? std::sqrt(to_right * (tr - t)) : std::sqrt(t - tl);
    std::vector<double> value(static_cast<std::size_t>(d));
    for (int c = 0; c < d; ++c) {
      double cz = 0.0, size = 0.0;
      for (int j = 0; j < d; ++j) {
        const double term = p.factor[static_cast<std::size_t>(c * d + j)] *
                            z[k * static_cast<std::size_t>(d) + static_cast<std::size_t>(j)];
        cz += term;
        size += std::fabs(term);
      }
      const double xl = x[static_cast<std::size_t>(left)][static_cast<std::size_t>(c)];
      const double mean =
          bounded ? (1.0 - to_right) * xl +
                        to_right * x[static_cast<std::size_t>(right)][static_cast<std::size_t>(c)]
                  : xl;
      value[static_cast<std::size_t>(c)] = mean + sigma * cz;
      magnitude =
          std::max({magnitude, std::fabs(value[static_cast<std::size_t>(c)]), sigma * size});
    }
    x[static_cast<std::size_t>(point)] = value;
    depth[static_cast<std::size_t>(point)] =
        1 + std::max(depth[static_cast<std::size_t>(left)],
                     bounded ? depth[static_cast<std::size_t>(right)] : 0);
  }
  const int longest = *std::max_element(depth.begin(), depth.end());
  const double path_bound = 2.0 * longest * (8.0 + 2.0 * d) * p.unit() * magnitude;
  Expected e;
  for (int i = 1; i <= n; ++i) {
    const double dt = p.at(i) - p.at(i - 1);
    for (int c = 0; c < d; ++c) {
      const double xi = x[static_cast<std::size_t>(i)][static_cast<std::size_t>(c)];
      if (!p.increments) {
        e.values.push_back(xi);
        e.bound.push_back(path_bound);
      } else {
        const double inc =
            (xi - x[static_cast<std::size_t>(i - 1)][static_cast<std::size_t>(c)]) / dt;
        e.values.push_back(inc);
        e.bound.push_back(2.0 * path_bound / dt + 4.0 * p.unit() * std::fabs(inc));
      }
    }
  }
  return e;
}

// Every dumped path against the bridge above from its dumped normals.
void expect_dump_matches_bridge(const Dump& dump, const Problem& p, std::size_t paths) {
  ASSERT_EQ(dump.output.size(), paths);
  int bad = 0;
  for (std::size_t path = 0; path < paths; ++path) {
    const Expected e = bridge(p, dump.normals[path]);
    for (std::size_t j = 0; j < e.values.size() && j < dump.output[path].size(); ++j) {
      const double error = std::fabs(dump.output[path][j] - e.values[j]);
      if (!(error <= e.bound[j]) && bad++ < 5) {
        ADD_FAILURE() << "path " << path << ", value " << j << ": " << dump.output[path][j]
                      << " vs " << e.values[j] << " (bound " << e.bound[j] << ")";
      }
    }
  }
  EXPECT_EQ(bad, 0);
}

struct DumpCase {
  std::string name;
  std::string yaml;  // the run's body but for dump
  Problem problem;
  std::size_t paths;
};

std::vector<DumpCase> dump_cases() {
  std::vector<DumpCase> cases;
  {
    Problem p;
    p.t0 = 0.5;
    p.times = {0.6, 0.65, 0.9, 1.4, 1.45, 2.0, 3.0};
    p.order = {4, 7, 1, 6, 2, 5, 3};
    p.x0 = {1.5};
    p.factor = {1.0};
    cases.push_back({"irregular times after t0 = 0.5, a user's order, double",
                     "paths: 100\nt0: 0.5\ntimes: " + list_of(p.times) +
                         "\norder: " + list_of(p.order) +
                         "\nx0: 1.5\nprecision: double\nseed: 7\n"
                         "variant: fused\n",
                     p, 100});
  }
  {
    Problem p;
    p.t0 = -1.0;
    p.times = {-0.9, -0.7, -0.2, 0.1, 0.15, 0.6, 1.3, 2.0, 2.2};
    p.order = bisection(p);
    p.x0 = {-0.25};
    p.factor = {1.0};
    p.increments = true;
    p.single = true;
    cases.push_back({"Sobol increments in float, bisection in time, path_major",
                     "paths: 64\nt0: -1\ntimes: " + list_of(p.times) +
                         "\norder: bisection\nx0: -0.25\nprecision: float\nnormals: sobol\n"
                         "output: increments\nlayout: path_major\nvariant: naive\n",
                     p, 64});
  }
  {
    Problem p;
    p.times = {0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0};
    p.order = testing::quantlib_loop(p.steps());
    p.dim = 3;
    p.x0 = {1.0, -2.0, 0.5};
    p.factor = cholesky(kSigma3);
    p.single = true;
    cases.push_back({"d = 3 with a covariance, Sobol, float, quantlib",
                     "paths: 128\ntimes: " + list_of(p.times) +
                         "\norder: quantlib\ndimension: 3\nx0: [1, -2, 0.5]\ncovariance: " +
                         matrix_of(kSigma3) +
                         "\nprecision: float\nnormals: sobol\nvariant: shared_stack\n",
                     p, 128});
  }
  {
    Problem p;
    p.t0 = 2.0;
    p.times = uniform_times(2.0, 3.0, 10);
    p.order = sequential(10);
    p.dim = 3;
    p.x0 = {0.3, 0.0, -0.7};
    p.factor = cholesky(kSigma3);
    p.increments = true;
    cases.push_back({"d = 3 increments in double, sequential from t0 = 2",
                     "paths: 50\nt0: 2\nsteps: 10\nT: 3\norder: sequential\ndimension: 3\n"
                     "x0: [0.3, 0, -0.7]\ncovariance: " +
                         matrix_of(kSigma3) +
                         "\nprecision: double\noutput: increments\nlayout: path_major\n"
                         "variant: prefetch\n",
                     p, 50});
  }
  {
    // A factor given as such (lower triangular, as a Cholesky factor is): C C^T correlates.
    const std::vector<std::vector<double>> factor{{0.5, 0.0}, {-0.3, 0.8}};
    Problem p;
    p.times = {0.1, 0.4, 0.5, 0.55, 1.0, 1.7};
    p.order = {6, 2, 3, 5, 1, 4};
    p.dim = 2;
    p.x0 = {0.1, 0.2};
    p.factor = flat(factor);
    cases.push_back({"d = 2 from covariance_factor, double",
                     "paths: 80\ntimes: " + list_of(p.times) + "\norder: " + list_of(p.order) +
                         "\ndimension: 2\nx0: [0.1, 0.2]\ncovariance_factor: " + matrix_of(factor) +
                         "\nprecision: double\nvariant: cpu_openmp\n",
                     p, 80});
  }
  {
    Problem p;
    p.times = uniform_times(0.0, 16.0, 16);
    p.order = bisection(p);
    p.x0 = {3.0};
    p.factor = {0.5};
    p.increments = true;
    cases.push_back({"d = 1 with a covariance, Sobol increments, fused_vector",
                     "paths: 64\nsteps: 16\nT: 16\nx0: 3\ncovariance: [[0.25]]\n"
                     "precision: double\nnormals: sobol\noutput: increments\n"
                     "variant: fused_vector\n",
                     p, 64});
  }
  {
    // Steps of 1e-251, whose products underflow in double: a bridge that multiplied two steps
    // before dividing by a third dropped every interior point's noise, and its check, made the
    // same way, agreed.
    Problem p;
    p.times = uniform_times(0.0, 1e-250, 10);
    p.order = {10, 5, 2, 8, 1, 3, 4, 6, 7, 9};  // bisection's ties depend on the grid's rounding
    p.x0 = {0.0};
    p.factor = {1.0};
    cases.push_back({"steps of 1e-251, double",
                     "paths: 50\nsteps: 10\nT: 1e-250\norder: " + list_of(p.order) +
                         "\nx0: 0\nprecision: double\nvariant: prefetch\n",
                     p, 50});
  }
  return cases;
}

TEST(BridgeDump, PathsAreEquationFiveForTheDumpedNormals) {
  TempDir dir;
  const std::vector<DumpCase> cases = dump_cases();
  std::vector<std::string> bodies;
  for (std::size_t i = 0; i < cases.size(); ++i)
    bodies.push_back(cases[i].yaml + "dump: " + dir.file("dump" + std::to_string(i) + ".txt") +
                     "\n");
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(dir, suite(bodies)), [](const YAML::Node&) { return false; }, &skipped);
  ASSERT_EQ(results.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].name);
    expect_passed(results[i], static_cast<std::int64_t>(cases[i].paths));
    const Problem& p = cases[i].problem;
    const Dump dump =
        read_dump(dir.file("dump" + std::to_string(i) + ".txt"), p.order.size() * p.dim);
    EXPECT_CONTAINS(dump.comments[0], std::string(p.single ? "float" : "double") + ", output " +
                                          (p.increments ? "increments" : "paths"));
    expect_dump_matches_bridge(dump, p, cases[i].paths);
  }
}

// The every-variant problem: d = 2 with a covariance on t_i = i, where bisection's midpoints are
// exact.
Problem shared_problem() {
  Problem p;
  p.times = uniform_times(0.0, 20.0, 20);
  p.order = bisection(p);
  p.dim = 2;
  p.x0 = {0.5, -0.5};
  p.factor = cholesky({{1.0, 0.3}, {0.3, 0.5}});
  p.single = true;
  return p;
}

TEST(BridgeDump, EveryVariantAndLayoutBuildsTheSamePaths) {
  TempDir dir;
  const Problem p = shared_problem();
  const std::string body =
      "paths: 64\nsteps: 20\nT: 20\norder: bisection\ndimension: 2\nx0: [0.5, -0.5]\n"
      "covariance: [[1, 0.3], [0.3, 0.5]]\nprecision: float\n";
  std::vector<std::pair<std::string, std::string>> runs;  // variant, layout
  for (const auto& variant : kVariants)
    runs.push_back({variant, "time_major"});
  for (const std::string variant : {"naive", "fused", "shared_stack", "cpu_serial"})
    runs.push_back({variant, "path_major"});
  std::vector<std::string> bodies;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    bodies.push_back(body + "variant: " + runs[i].first + "\nlayout: " + runs[i].second +
                     "\ndump: " + dir.file("dump" + std::to_string(i) + ".txt") + "\n");
  }
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(dir, suite(bodies)), [](const YAML::Node&) { return false; }, &skipped);
  ASSERT_EQ(results.size(), runs.size());
  const std::size_t width = 20 * 2;
  const Dump first = read_dump(dir.file("dump0.txt"), width);
  ASSERT_EQ(first.output.size(), 64u);
  expect_dump_matches_bridge(first, p, 64);
  for (std::size_t i = 1; i < runs.size(); ++i) {
    SCOPED_TRACE(runs[i].first + ", " + runs[i].second);
    expect_passed(results[i], 64);
    const Dump dump = read_dump(dir.file("dump" + std::to_string(i) + ".txt"), width);
    ASSERT_EQ(dump.output.size(), 64u);
    EXPECT_CONTAINS(dump.comments[0], "variant " + runs[i].first + ", 64 paths, 20 times");
    // The same normals, character for character; outputs within both runs' rounding.
    EXPECT_EQ(dump.normal_lines, first.normal_lines);
    expect_dump_matches_bridge(dump, p, 64);
    int bad = 0;
    for (std::size_t path = 0; path < 64; ++path) {
      const Expected e = bridge(p, first.normals[path]);
      for (std::size_t j = 0; j < width; ++j) {
        const double off = std::fabs(dump.output[path][j] - first.output[path][j]);
        if (!(off <= 2.0 * e.bound[j]) && bad++ < 5) {
          ADD_FAILURE() << "path " << path << ", value " << j << ": " << dump.output[path][j]
                        << " vs " << first.output[path][j] << " from " << runs[0].first;
        }
      }
    }
    EXPECT_EQ(bad, 0);
  }
}

// ---- statistics ---------------------------------------------------------------------------------

// The mean of `samples` and the standard error of that mean, from the samples.
struct Estimate {
  double mean = 0.0;
  double standard_error = 0.0;
};

Estimate estimate(const std::vector<double>& samples) {
  double sum = 0.0;
  for (const double v : samples)
    sum += v;
  const double n = static_cast<double>(samples.size());
  const double mean = sum / n;
  double squares = 0.0;
  for (const double v : samples)
    squares += (v - mean) * (v - mean);
  return {mean, std::sqrt(squares / (n - 1) / n)};
}

const std::vector<double> kStatTimes{0.3,  0.4, 0.45, 0.6, 0.8, 0.85, 1.0, 1.2,
                                     1.25, 1.5, 1.8,  2.0, 2.1, 2.5,  3.0, 3.25};
const std::vector<std::vector<double>> kStatSigma{{0.5, -0.2}, {-0.2, 0.3}};

TEST(BridgeStatistics, MeanAndCovarianceOfBrownianMotion) {
  // Cov(X_c(s), X_e(t)) = min(s - t0, t - t0) Sigma_ce, X(t) - x0 of mean 0; each estimate within
  // 4 of its standard errors, estimated from the products themselves. Pseudo-random normals:
  // Sobol points are not independent draws.
  constexpr std::size_t kPaths = 15000;
  const double t0 = 0.25;
  const std::vector<double> x0{1.0, -1.0};
  TempDir dir;
  const std::string dump_path = dir.file("dump.txt");
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(dir, suite({"paths: 15000\nt0: 0.25\ntimes: " + list_of(kStatTimes) +
                             "\ndimension: 2\nx0: [1, -1]\ncovariance: " + matrix_of(kStatSigma) +
                             "\nprecision: double\nseed: 99\nvariant: cpu_openmp\ndump: " +
                             dump_path + "\n"})),
      [](const YAML::Node&) { return false; }, &skipped);
  ASSERT_EQ(results.size(), 1u);
  expect_passed(results[0], kPaths);
  const std::size_t n = kStatTimes.size(), d = 2, width = n * d;
  const Dump dump = read_dump(dump_path, width);
  ASSERT_EQ(dump.output.size(), kPaths);

  std::vector<double> samples(kPaths);
  int outside = 0;
  const auto check = [&](const std::string& what, double expected) {
    const Estimate e = estimate(samples);
    if (!(std::fabs(e.mean - expected) <= 4.0 * e.standard_error) && outside++ < 5) {
      ADD_FAILURE() << what << ": " << e.mean << " vs " << expected << " (standard error "
                    << e.standard_error << ")";
    }
  };
  // The normals: mean 0, variance 1 (z^2 has variance 2), in every coordinate.
  for (std::size_t j = 0; j < width; ++j) {
    for (std::size_t path = 0; path < kPaths; ++path)
      samples[path] = dump.normals[path][j];
    check("mean of normal " + std::to_string(j), 0.0);
    for (double& v : samples)
      v *= v;
    check("variance of normal " + std::to_string(j), 1.0);
  }
  for (std::size_t a = 0; a < width; ++a) {
    const std::size_t i = a / d, c = a % d;
    for (std::size_t path = 0; path < kPaths; ++path)
      samples[path] = dump.output[path][a] - x0[c];
    check("mean of X_" + std::to_string(c) + "(t_" + std::to_string(i + 1) + ") - x0", 0.0);
    for (std::size_t b = a; b < width; ++b) {
      const std::size_t j = b / d, e = b % d;
      for (std::size_t path = 0; path < kPaths; ++path)
        samples[path] = (dump.output[path][a] - x0[c]) * (dump.output[path][b] - x0[e]);
      const double expected = std::min(kStatTimes[i] - t0, kStatTimes[j] - t0) * kStatSigma[c][e];
      check("Cov(X_" + std::to_string(c) + "(t_" + std::to_string(i + 1) + "), X_" +
                std::to_string(e) + "(t_" + std::to_string(j + 1) + "))",
            expected);
    }
  }
  EXPECT_EQ(outside, 0);
  // The check has power: four standard errors of the variance at t_N are less than what
  // measuring time from 0 instead of t0 would add to it.
  for (std::size_t path = 0; path < kPaths; ++path)
    samples[path] = std::pow(dump.output[path][width - 2] - x0[0], 2);
  EXPECT_LT(4.0 * estimate(samples).standard_error, t0 * kStatSigma[0][0]);
}

TEST(BridgeStatistics, IncrementsSumBackToThePaths) {
  // The same seed gives the same normals, so the increments of one run, times their steps, add
  // up to the other's path, in either precision.
  TempDir dir;
  const std::string common = "paths: 400\nt0: 0.25\ntimes: " + list_of(kStatTimes) +
                             "\ndimension: 2\nx0: [1, -1]\ncovariance: " + matrix_of(kStatSigma) +
                             "\nseed: 5\norder: quantlib\n";
  std::vector<std::string> bodies;
  for (const std::string precision : {"float", "double"}) {
    for (const std::string output : {"paths", "increments"}) {
      bodies.push_back(common + "precision: " + precision + "\noutput: " + output +
                       "\nvariant: " + (precision == "float" ? "fused" : "cpu_serial") +
                       "\ndump: " + dir.file(precision + "-" + output + ".txt") + "\n");
    }
  }
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(dir, suite(bodies)), [](const YAML::Node&) { return false; }, &skipped);
  ASSERT_EQ(results.size(), 4u);
  const std::size_t n = kStatTimes.size(), d = 2;
  for (const std::string precision : {"float", "double"}) {
    SCOPED_TRACE(precision);
    const Dump paths = read_dump(dir.file(precision + "-paths.txt"), n * d);
    const Dump increments = read_dump(dir.file(precision + "-increments.txt"), n * d);
    ASSERT_EQ(paths.output.size(), 400u);
    ASSERT_EQ(increments.output.size(), 400u);
    EXPECT_EQ(paths.normal_lines, increments.normal_lines);
    Problem p;
    p.t0 = 0.25;
    p.times = kStatTimes;
    p.order = testing::quantlib_loop(static_cast<int>(n));
    p.dim = 2;
    p.x0 = {1.0, -1.0};
    p.factor = cholesky(kStatSigma);
    p.single = precision == "float";
    Problem as_increments = p;
    as_increments.increments = true;
    int bad = 0;
    for (std::size_t path = 0; path < 400; ++path) {
      // x0 plus the increments times their steps, against the path: off by the increments'
      // bounds times their steps, summed, and the path's own bound.
      const Expected path_bound = bridge(p, paths.normals[path]);
      const Expected increment_bound = bridge(as_increments, paths.normals[path]);
      for (std::size_t c = 0; c < d; ++c) {
        double x = p.x0[c], allowed = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
          const double dt = p.at(static_cast<int>(i) + 1) - p.at(static_cast<int>(i));
          x += increments.output[path][i * d + c] * dt;
          allowed += increment_bound.bound[i * d + c] * dt;
          const double off = std::fabs(x - paths.output[path][i * d + c]);
          if (!(off <= allowed + path_bound.bound[i * d + c]) && bad++ < 5) {
            ADD_FAILURE() << "path " << path << ", t_" << i + 1 << ", component " << c << ": " << x
                          << " vs " << paths.output[path][i * d + c];
          }
        }
      }
    }
    EXPECT_EQ(bad, 0);
  }
}

// ---- Sobol --------------------------------------------------------------------------------------

double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

TEST(BridgeSobol, NormalsArePublishedPointsThroughTheInverseCdf) {
  // scipy 1.10.1 qmc.Sobol(d=6, scramble=False).random(17), rows 1..16 (row 0 is the origin,
  // which no path takes: path i takes point i + 1). Joe and Kuo's table, Gray-code order.
  const double points[16][6] = {
      {0.5, 0.5, 0.5, 0.5, 0.5, 0.5},
      {0.75, 0.25, 0.25, 0.25, 0.75, 0.75},
      {0.25, 0.75, 0.75, 0.75, 0.25, 0.25},
      {0.375, 0.375, 0.625, 0.875, 0.375, 0.125},
      {0.875, 0.875, 0.125, 0.375, 0.875, 0.625},
      {0.625, 0.125, 0.875, 0.625, 0.625, 0.875},
      {0.125, 0.625, 0.375, 0.125, 0.125, 0.375},
      {0.1875, 0.3125, 0.9375, 0.4375, 0.5625, 0.3125},
      {0.6875, 0.8125, 0.4375, 0.9375, 0.0625, 0.8125},
      {0.9375, 0.0625, 0.6875, 0.1875, 0.3125, 0.5625},
      {0.4375, 0.5625, 0.1875, 0.6875, 0.8125, 0.0625},
      {0.3125, 0.1875, 0.3125, 0.5625, 0.9375, 0.4375},
      {0.8125, 0.6875, 0.8125, 0.0625, 0.4375, 0.9375},
      {0.5625, 0.4375, 0.0625, 0.8125, 0.1875, 0.6875},
      {0.0625, 0.9375, 0.5625, 0.3125, 0.6875, 0.1875},
      {0.09375, 0.46875, 0.46875, 0.65625, 0.28125, 0.96875},
  };
  // Dimension k d + c drives component c of the k-th point of the order, whatever the order:
  // d = 1 over 6 times and d = 2 over 3 (in quantlib order) read the same six dimensions.
  TempDir dir;
  const std::string common = "paths: 16\nnormals: sobol\nprecision: double\nvariant: cpu_serial\n";
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(
          dir,
          suite({common + "steps: 6\norder: sequential\ndump: " + dir.file("d1.txt"),
                 common + "steps: 3\ndimension: 2\norder: quantlib\ndump: " + dir.file("d2.txt")})),
      [](const YAML::Node&) { return false; }, &skipped);
  ASSERT_EQ(results.size(), 2u);
  for (const std::string name : {"d1.txt", "d2.txt"}) {
    SCOPED_TRACE(name);
    const Dump dump = read_dump(dir.file(name), 6);
    ASSERT_EQ(dump.normals.size(), 16u);
    for (std::size_t path = 0; path < 16; ++path) {
      for (std::size_t j = 0; j < 6; ++j) {
        const double u = points[path][j];
        EXPECT_NEAR(normal_cdf(dump.normals[path][j]), u, 2e-16 + 1e-15 * u)
            << "path " << path << ", dimension " << j + 1;
      }
    }
    // Point 1 is 1/2 in every dimension: the first path's normals are 0.
    for (const double z : dump.normals[0])
      EXPECT_LT(std::fabs(z), 1e-15);
  }
}

TEST(BridgeSobol, PointsLieInsideTheUnitInterval) {
  // 4096 points over 16 dimensions: every normal finite and no further out than the 32-bit
  // points' extremes, 2^-32 and 1 - 2^-32; the first 2^12 points of a dimension are distinct.
  TempDir dir;
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(dir, suite({"paths: 4096\nsteps: 8\ndimension: 2\nnormals: sobol\n"
                             "precision: float\nvariant: fused\ndump: " +
                             dir.file("dump.txt")})),
      [](const YAML::Node&) { return false; }, &skipped);
  ASSERT_EQ(results.size(), 1u);
  expect_passed(results[0], 4096);
  const Dump dump = read_dump(dir.file("dump.txt"), 16);
  ASSERT_EQ(dump.normals.size(), 4096u);
  for (std::size_t j = 0; j < 16; ++j) {
    std::set<double> seen;
    for (std::size_t path = 0; path < 4096; ++path) {
      const double z = dump.normals[path][j];
      ASSERT_TRUE(std::isfinite(z)) << "path " << path << ", dimension " << j + 1;
      const double u = normal_cdf(z);
      EXPECT_GT(u, 0x1p-33) << "path " << path << ", dimension " << j + 1;
      EXPECT_LT(u, 1.0 - 0x1p-33) << "path " << path << ", dimension " << j + 1;
      seen.insert(z);
    }
    EXPECT_EQ(seen.size(), 4096u) << "dimension " << j + 1;
  }
}

TEST(BridgeSobol, TheLastDimensionOfTheShippedTable) {
  // steps x dimension = 21201, the table's size: it runs, and the app's check of every normal
  // against its host evaluation passes.
  TempDir dir;
  int skipped = 0;
  const std::vector<YAML::Node> results = results_of(
      run_report(dir, suite({"paths: 4\nsteps: 21201\nnormals: sobol\nprecision: double\n"
                             "variant: cpu_serial\ndump: " +
                             dir.file("dump.txt")})),
      [](const YAML::Node&) { return false; }, &skipped);
  ASSERT_EQ(results.size(), 1u);
  expect_passed(results[0], 4);
  const Dump dump = read_dump(dir.file("dump.txt"), 21201);
  ASSERT_EQ(dump.normals.size(), 4u);
  for (const auto& normals : dump.normals) {
    for (const double z : normals)
      ASSERT_TRUE(std::isfinite(z));
  }
}

// ---- bad input ----------------------------------------------------------------------------------

// `kmini check` exits 2 with one line naming the problem; with `by_run`, `kmini run` does too
// and writes no report.
void expect_rejected(const std::string& yaml, const std::string& what, const std::string& also = "",
                     bool by_run = false) {
  SCOPED_TRACE(yaml);
  TempDir dir;
  const std::string input = dir.write("in.yaml", "app: bridge\n" + yaml);
  std::vector<std::vector<std::string>> commands{{"check", input}};
  if (by_run) {
    commands.push_back({"run", input, "--report", dir.file("r.yaml"), "--ceiling-elements", "0"});
  }
  for (const auto& command : commands) {
    SCOPED_TRACE("kmini " + command[0]);
    const ProcessResult r = kmini(command);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    const auto lines = testing::nonempty_lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_CONTAINS(lines[0], "kmini: error: ");
    EXPECT_CONTAINS(lines[0], what);
    if (!also.empty()) {
      EXPECT_CONTAINS(lines[0], also);
    }
  }
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"in.yaml"});
}

// The same through `kmini run`, which must stop before running anything.
void expect_run_rejected(const std::string& yaml, const std::string& what) {
  expect_rejected(yaml, what, "", true);
}

TEST(BridgeBadInput, TimesNotStrictlyIncreasingOrNotAfterT0) {
  expect_run_rejected("times: [0.1, 0.3, 0.2]\n",
                      "in.yaml:2:8: times: times must increase strictly from t0: t_3 = "
                      "0.20000000000000001 is not after t_2 = 0.29999999999999999");
  expect_rejected("times: [0.1, 0.1]\n",
                  "times: times must increase strictly from t0: t_2 = 0.10000000000000001 is not "
                  "after t_1 = 0.10000000000000001");
  expect_rejected("t0: 0.5\ntimes: [0.5, 0.6]\n",
                  "times: times must increase strictly from t0: t_1 = 0.5 is not after t0 = 0.5");
  expect_rejected("t0: 1\ntimes: [0.5, 2]\n", "t_1 = 0.5 is not after t0 = 1");
  // On a uniform grid the end time names the problem.
  expect_rejected("t0: 2\nT: 1\n", "T: times must increase strictly from t0: t_1 = ");
}

// Values whose paths, or the check's sums of their squares, pass the precision's largest: these
// ran and failed their check with inf (exit 3). The bound is sqrt(largest) / 10^6 rounded down
// to a power of ten: 1e13 in float, 1e148 in double; inside it, the input is accepted.
TEST(BridgeBadInput, StartsAndSpreadsPastThePrecisionsRange) {
  expect_run_rejected("x0: [1e308]\nprecision: double\n",
                      "in.yaml:2:5: x0: component 1 is 1e+308; at most 1e+148 in double");
  expect_rejected("x0: [0, 1e300]\ndimension: 2\n",
                  "x0: component 2 is 1e+300; at most 1e+13 in float");
  expect_run_rejected("times: [0.5, 1e308]\nprecision: double\n",
                      "in.yaml:2:8: times: component 1 spreads ten standard deviations");
  expect_rejected("T: 1e30\n",
                  "T: component 1 spreads ten standard deviations, 10 sqrt(t_N - "
                  "t0) |C row|, to 1e+16; at most 1e+13 in float");
  // The covariance's row, not T, is at fault where it is the term further from 1.
  expect_rejected("covariance_factor: [[1, 0], [1e13, 1]]\ndimension: 2\n",
                  "covariance_factor: component 2 spreads");
  expect_run_rejected("dimension: 2\ncovariance: [[1e308, 0], [0, 1e308]]\nprecision: double\n",
                      "in.yaml:3:13: covariance: component 1 spreads");
  for (const char* fits :
       {"x0: [1e12]\n", "T: 1e22\n", "x0: [1e147]\nprecision: double\n", "T: 1e-40\n",
        "T: 1e-280\nprecision: double\n", "T: 1e-20\noutput: increments\n"}) {
    TempDir dir;
    const ProcessResult r =
        kmini({"check", dir.write("in.yaml", std::string("app: bridge\n") + fits)});
    EXPECT_EQ(r.exit_code, 0) << fits << r.err;
  }
}

// Steps so small that the noise added at them, or the steps themselves, are subnormal numbers in
// the paths' precision: these ran and failed their check (exit 3), or, where the check rounded
// the same way, passed without the noise. The bounds are the smallest normal over the unit
// roundoff, rounded up to a power of ten: 1e-30 in float for the noise, 1e-291 for the steps.
TEST(BridgeBadInput, StepsTooSmallForThePrecision) {
  expect_run_rejected("T: 1e-70\n", "in.yaml:2:4: T: component 1's noise at the smallest step, t_");
  expect_rejected("steps: 16\nT: 1e-100\n",
                  "sqrt(dt / 2) |C row|, is 1.7677669529663688e-51; at least 1e-30 in float, so "
                  "that its roundings are normal numbers");
  expect_rejected("steps: 16\nT: 1e-300\nprecision: double\n",
                  "T: the smallest step, t_13 - t_12 = 6.249999999999991e-302; at least 1e-291");
  expect_rejected("T: 1e-30\noutput: increments\n",
                  "T: component 1's increments at the smallest step, t_");
  expect_rejected("T: 1e-31\noutput: increments\n",
                  "T: the smallest step, t_1 - t0 = 1.5625e-33, gives increments a scale 1 / dt of "
                  "6.4e+32; at most 1e+32 in float");
}

// A Sobol table with a malformed line among those the run uses is refused when the input is
// loaded: it was found only when its run started, after every run before it had run.
TEST(BridgeBadInput, SobolTableMalformedWhereTheRunReadsIt) {
  TempDir files;
  const std::string table =
      files.write("sobol.txt", "d s a m_i\n2 1 0 1\n3 2 1 1 5\n4 3 1 1 3 1\n");
  expect_run_rejected("steps: 4\nnormals: sobol\nsobol_table: " + table + "\n",
                      "sobol_table: " + table + ":3: ");
  // An empty table is the key's fault too: the message names the input's line and key.
  const std::string empty = files.write("empty.txt", "");
  expect_run_rejected("steps: 4\nnormals: sobol\nsobol_table: " + empty + "\n",
                      "in.yaml:4:14: sobol_table: " + empty +
                          ":1: expected the header \"d s a m_i\" of Joe and Kuo's table, found an "
                          "empty file");
  // A run that needs only the lines before it is accepted.
  TempDir dir;
  const ProcessResult r = kmini(
      {"check", dir.write("in.yaml",
                          "app: bridge\nsteps: 2\nnormals: sobol\nsobol_table: " + table + "\n")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(BridgeBadInput, TimesWithStepsOrT) {
  expect_run_rejected("times: [0.1, 0.2]\nsteps: 2\n",
                      "times: give either times or steps and T, not both");
  expect_rejected("times: [0.1, 0.2]\nT: 0.2\n",
                  "times: give either times or steps and T, not both");
}

TEST(BridgeBadInput, OrderNotAPermutation) {
  const std::string prefix = "order: not a permutation of the time indices 1..4: ";
  expect_rejected("steps: 4\norder: [1, 2, 2, 4]\n", prefix + "entry 3 (2) repeats entry 2",
                  "in.yaml:3:8: ", true);
  expect_rejected("steps: 4\norder: [1, 2, 5, 4]\n",
                  prefix + "entry 3 (5) is not a time index in 1..4");
  expect_rejected("steps: 4\norder: [4, 0, 1, 2, 3]\n",
                  prefix + "entry 2 (0) is not a time index in 1..4");
  expect_rejected("steps: 4\norder: [1, 2, 3]\n",
                  prefix + "time index 4 is missing (the order has 3 entries for 4 times)");
  // A list of time indices as one bare integer.
  expect_rejected("steps: 2\norder: 2\n",
                  "order: not a permutation of the time indices 1..2: "
                  "time index 1 is missing");
}

TEST(BridgeBadInput, AnInlineIndexBeyondThirtyTwoBits) {
  // The offending entry is named as the user wrote it.
  expect_rejected("steps: 3\norder: [1, 2, 5000000000]\n",
                  "order: not a permutation of the time indices 1..3: entry 3 (5000000000) is not "
                  "a time index in 1..3");
}

TEST(BridgeBadInput, OrderFiles) {
  TempDir files;
  const std::string repeat = files.write("repeat.txt", "# t_3 twice\n3, 1\n3\n");
  expect_run_rejected(
      "steps: 3\norder: " + repeat + "\n",
      "order: not a permutation of the time indices 1..3: entry 3 (3) repeats entry 1");
  const std::string word = files.write("word.txt", "3 1\n2 two\n");
  expect_rejected("steps: 3\norder: " + word + "\n",
                  word + ":2: expected an integer time index, found 'two'");
  expect_rejected("steps: 3\norder: bisect\n",
                  "order: expected one of: bisection, sequential, "
                  "quantlib");
}

TEST(BridgeBadInput, CovarianceNotSymmetricPositiveDefinite) {
  expect_run_rejected(
      "dimension: 2\ncovariance: [[1, 0.5], [0.4, 1]]\n",
      "in.yaml:3:13: covariance: the covariance matrix is not symmetric: entry [1][0] "
      "= 0.40000000000000002 but [0][1] = 0.5");
  expect_rejected("dimension: 2\ncovariance: [[1, 2], [2, 1]]\n",
                  "covariance: the covariance matrix is not positive definite: its leading 2x2 "
                  "minor is not positive");
  expect_rejected("dimension: 3\ncovariance: [[1, 0, 0], [0, 0, 0], [0, 0, 1]]\n",
                  "covariance: the covariance matrix is not positive definite: its leading 2x2 "
                  "minor is not positive");
  expect_rejected("covariance: [[-1]]\n", "its leading 1x1 minor is not positive");
}

TEST(BridgeBadInput, CovarianceOfTheWrongSize) {
  expect_run_rejected("dimension: 2\ncovariance: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n",
                      "covariance: expected a 2x2 matrix for dimension 2, found 3x3");
  expect_rejected("dimension: 2\ncovariance: [[1, 0, 0], [0, 1, 0]]\n",
                  "covariance: expected a 2x2 matrix for dimension 2, found 2x3");
  expect_rejected("dimension: 3\ncovariance_factor: [[1, 0], [0, 1]]\n",
                  "covariance_factor: expected a 3x3 matrix for dimension 3, found 2x2");
  expect_rejected(
      "dimension: 2\ncovariance: [[1, 0], [0, 1]]\ncovariance_factor: [[1, 0], [0, "
      "1]]\n",
      "covariance_factor: give either covariance or covariance_factor, not both");
  expect_rejected("dimension: 2\nx0: [1, 2, 3]\n",
                  "x0: expected one value or 2 (the dimension), found 3");
}

// An upper factor (R^T R = Sigma, the other convention) would silently give R R^T; a zero on the
// diagonal a singular covariance, which covariance itself is refused for.
TEST(BridgeBadInput, CovarianceFactorsThatAreNotLowerTriangularOrAreSingular) {
  expect_rejected("dimension: 2\ncovariance_factor: [[1, 0.5], [0, 1]]\n",
                  "covariance_factor: expected a lower-triangular factor (C C^T = Sigma), found "
                  "0.5 at row 1, column 2, above the diagonal");
  expect_rejected("dimension: 3\ncovariance_factor: [[1, 0, 0], [0.2, 0, 0], [0.1, 0.3, 1]]\n",
                  "covariance_factor: the factor is singular: its diagonal entry 2 is 0");
}

TEST(BridgeBadInput, NothingToBuild) {
  expect_run_rejected("dimension: 0\n", "in.yaml:2:12: dimension: expected an integer in [1, 8]");
  expect_rejected("dimension: 9\n", "dimension: expected an integer in [1, 8], found '9'");
  expect_rejected("steps: 0\n", "in.yaml:2:8: steps: expected an integer in [1, 65535]");
  expect_rejected("paths: 0\n", "in.yaml:2:8: paths: expected an integer in [1, ");
  expect_rejected("times: []\n", "in.yaml:2:8: times: expected a list of numbers, found 0 items");
}

TEST(BridgeBadInput, ARunWhereNoVariantApplies) {
  // shared_vector needs the time_major layout: with path_major alone nothing can run, which is
  // the input's fault (exit 2, the reason on stderr), not a failed validation (3). The report
  // still records what happened.
  TempDir dir;
  const std::string input = dir.write(
      "in.yaml", "app: bridge\npaths: 64\nsteps: 8\nlayout: path_major\nvariant: shared_vector\n");
  const ProcessResult r =
      kmini({"run", input, "--report", dir.file("r.yaml"), "--ceiling-elements", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_CONTAINS(r.err, "kmini: error: " + input +
                             ":1:1: bridge: no variant applies here: "
                             "shared_vector: a thread builds 4 adjacent paths");
  const YAML::Node report = YAML::LoadFile(dir.file("r.yaml"));
  EXPECT_EQ(report["runs"][0]["results"][0]["status"].as<std::string>(), "not_applicable");
  // One variant that applies is enough for the run to stand on its validation.
  const std::string mixed = dir.write("mixed.yaml",
                                      "app: bridge\npaths: 64\nsteps: 8\nlayout: path_major\n"
                                      "variant: [shared_vector, naive]\n");
  const ProcessResult ok =
      kmini({"run", mixed, "--report", dir.file("m.yaml"), "--ceiling-elements", "0"});
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
}

TEST(BridgeBadInput, HostVariantsCountInTheDryRun) {
  // The host variants keep their own normals and output on the host: 2^20 paths of 64 float
  // steps, 256 MiB each.
  TempDir dir;
  const std::string input = dir.write(
      "in.yaml", "app: bridge\npaths: 1048576\nsteps: 64\nvariant: [cpu_serial, naive]\n");
  const ProcessResult r = kmini({"run", input, "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "host memory per rank");
  EXPECT_CONTAINS(r.out, "512.0 MiB             512.0 MiB");
}

TEST(BridgeBadInput, SobolBeyondTheShippedTable) {
  expect_rejected("normals: sobol\nsteps: 11000\ndimension: 2\n",
                  "normals: needs 22000 Sobol dimensions (steps x dimension), beyond the 21201 of ",
                  "new-joe-kuo-6.21201", true);
  expect_rejected("normals: sobol\nsteps: 21202\n",
                  "normals: needs 21202 Sobol dimensions (steps x dimension), beyond the 21201");
  // Path i takes point i + 1 of 32-bit direction numbers, whose last is 2^32 - 1.
  expect_rejected("normals: sobol\npaths: 4294967296\n",
                  "in.yaml:3:8: paths: Sobol points of 32-bit direction numbers serve at most "
                  "4294967295 paths");
  // The pseudo-random normals have no such limit.
  TempDir dir;
  const std::string input =
      dir.write("in.yaml", "app: bridge\nsteps: 11000\ndimension: 2\nnormals: pseudo\n");
  const ProcessResult r = kmini({"check", input});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(BridgeBadInput, DumpOfOneVariantOfASmallRun) {
  TempDir dir;
  const std::string dump = dir.file("dump.txt");
  expect_run_rejected("paths: 10\ndump: " + dump + "\n",
                      "dump: the dump holds one variant's output; select one variant");
  expect_rejected("paths: 10\nvariant: all\ndump: " + dump + "\n",
                  "dump: the dump holds one variant's output; select one variant");
  expect_rejected("paths: 10\nvariant: [naive, fused]\ndump: " + dump + "\n",
                  "dump: the dump holds one variant's output; select one variant");
  expect_rejected("paths: 100000\nsteps: 11\nvariant: naive\ndump: " + dump + "\n",
                  "dump: is for small runs: at most 1e6 values (paths x steps x dimension), this "
                  "run has 1100000");
  expect_rejected("paths: 50000\nsteps: 5\ndimension: 5\nvariant: naive\ndump: " + dump + "\n",
                  "this run has 1250000");
  expect_rejected("paths: 10\nvariant: naive\ndump: " + dir.file("none/dump.txt") + "\n",
                  "in.yaml:4:7: dump: dump '" + dir.file("none/dump.txt") + "': folder '" +
                      dir.file("none") + "' does not exist");
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace kmini
