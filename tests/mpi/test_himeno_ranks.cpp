// The himeno app split over ranks under mpirun: on every decomposition (1-D, 2-D, 3-D,
// MPI_Dims_create's, and with MPI handed the arrays' own pointers) each variant passes and
// agrees with the one-rank run; a split the job cannot make exits 2 naming it.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/cuda_ipc.hpp"
#include "support/expect.hpp"
#include "support/kmini_binary.hpp"
#include "support/mpirun.hpp"

namespace kmini {
namespace {

using testing::mpirun;
using testing::ProcessResult;
using testing::TempDir;

// Random values make every stencil term count, so a wrong halo edge or corner shows.
constexpr const char* kInput =
    "app: himeno\niterations: 5\ninitial: random\nseed: 3\n"
    "precision: [float, double]\n"
    "variant: [kokkos_reduce, warp_aggregated, host_serial, cpu_openmp]\n";
constexpr const char* kGrid = "grid: [17, 23, 30]\n";
constexpr std::size_t kResults =
    2 * 4;  // precisions x variants, times any swept parameter's values

struct Sums {
  double gosa = 0.0;
  double p_checksum = 0.0;
};

// A result's variant and the values of its point: what tells it from the run's other results.
std::string key_of(const YAML::Node& result) {
  std::string key = result["variant"].as<std::string>();
  for (const auto& entry : result["point"]) {
    key += " " + entry.first.as<std::string>() + "=" + YAML::Dump(entry.second);
  }
  return key;
}

// Runs kInput plus `extra` on `ranks` ranks; every result must pass. Its sums by variant and
// point; `results` of them.
std::map<std::string, Sums> run_on(int ranks, const std::string& extra,
                                   std::size_t results_expected = kResults) {
  SCOPED_TRACE(std::to_string(ranks) + " ranks, " + (extra.empty() ? "default split" : extra));
  TempDir dir;
  const std::string input = dir.write("in.yaml", kInput + extra);
  const std::string report = dir.file("report.yaml");
  const ProcessResult r =
      mpirun(ranks, {"run", input, "--report", report, "--ceiling-elements", "0"}, 1);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::map<std::string, Sums> sums;
  if (r.exit_code != 0) return sums;
  const YAML::Node doc = YAML::LoadFile(report);
  EXPECT_EQ(doc["meta"]["mpi"]["ranks"].as<int>(), ranks);
  EXPECT_EQ(doc["summary"]["status"].as<std::string>(), "VALID");
  const YAML::Node results = doc["runs"][0]["results"];
  EXPECT_EQ(results.size(), results_expected);
  for (const auto& res : results) {
    const std::string key = key_of(res);
    SCOPED_TRACE(key);
    EXPECT_EQ(res["status"].as<std::string>(), "ran");
    EXPECT_EQ(res["validation"]["status"].as<std::string>(), "PASS") << res["validation"];
    const YAML::Node metrics = res["metrics"];
    // The ranks' p, summed across ranks as the reference's is: the same sum exactly.
    EXPECT_EQ(metrics["p_checksum"]["value"].as<double>(),
              metrics["p_checksum_reference"]["value"].as<double>());
    // The original's order is a one-rank sum: reported on one rank only.
    EXPECT_EQ(metrics["gosa_original_order"].IsDefined(), ranks == 1);
    // Whether the exchange along i ran beside the sweep: a question for split runs only, and no
    // where it was not asked for.
    EXPECT_EQ(metrics["halo_overlapped"].IsDefined(), ranks > 1);
    if (ranks > 1 && res["point"]["halo_exchange"].IsDefined() &&
        res["point"]["halo_exchange"].as<std::string>() == "after_sweep") {
      EXPECT_EQ(metrics["halo_overlapped"]["value"].as<double>(), 0.0);
    }
    // Whether the faces went from GPU to GPU over CUDA IPC: never for host arrays, for MPI
    // asked for by name, or in a build without CUDA.
    EXPECT_EQ(metrics["halo_cuda_ipc"].IsDefined(), ranks > 1);
    if (ranks > 1) {
      const std::string variant = res["variant"].as<std::string>();
      const bool host_arrays = variant == "host_serial" || variant == "cpu_openmp";
      const bool mpi_named = res["point"]["halo_transport"].IsDefined() &&
                             res["point"]["halo_transport"].as<std::string>() == "mpi";
      if (host_arrays || mpi_named || !cuda_ipc_built()) {
        EXPECT_EQ(metrics["halo_cuda_ipc"]["value"].as<double>(), 0.0);
      }
    }
    // Where a split run's time went, per iteration of its last repetition: the exchange is
    // part of a rank's own share, and no rank's share exceeds the slowest repetition's.
    EXPECT_EQ(metrics["exchange_seconds_per_iteration"].IsDefined(), ranks > 1);
    if (ranks > 1) {
      const auto value = [&](const char* name) { return metrics[name]["value"].as<double>(); };
      const double slowest = res["time_s"]["max"].as<double>() / value("iterations_per_repetition");
      EXPECT_GT(value("exchange_seconds_per_iteration"), 0.0);
      EXPECT_GT(value("allreduce_seconds_per_iteration"), 0.0);
      EXPECT_LE(value("rank_busy_seconds_per_iteration_min"),
                value("rank_busy_seconds_per_iteration_max"));
      EXPECT_LE(value("exchange_seconds_per_iteration"),
                value("rank_busy_seconds_per_iteration_max"));
      EXPECT_LE(value("rank_busy_seconds_per_iteration_max"), slowest);
    }
    sums[key] =
        Sums{metrics["gosa"]["value"].as<double>(), metrics["p_checksum"]["value"].as<double>()};
  }
  return sums;
}

// Each variant's gosa and p's checksum on `ranks` ranks, split by `split`, equal the one-rank
// run's, up to the order of the sums across ranks. `common` goes to both runs, and makes
// `per_variant` results of each variant and precision.
void expect_same_as_one_rank(int ranks, const std::string& split_by,
                             const std::string& common = kGrid, std::size_t per_variant = 1) {
  const std::size_t results = kResults * per_variant;
  const std::map<std::string, Sums> one = run_on(1, common, results);
  const std::map<std::string, Sums> split = run_on(ranks, common + split_by, results);
  ASSERT_EQ(one.size(), results);
  ASSERT_EQ(split.size(), results);
  for (const auto& [key, expected] : one) {
    SCOPED_TRACE(key + " on " + std::to_string(ranks) + " ranks, " + split_by);
    const auto found = split.find(key);
    ASSERT_NE(found, split.end());
    EXPECT_GT(expected.gosa, 0.0);
    EXPECT_NEAR(found->second.gosa, expected.gosa, 1e-12 * expected.gosa);
    EXPECT_NEAR(found->second.p_checksum, expected.p_checksum, 1e-12 * expected.p_checksum);
  }
}

TEST(HimenoRanks, TwoRanksAlongIAndK) {
  expect_same_as_one_rank(2, "ranks: [2, 1, 1]\n");
  expect_same_as_one_rank(2, "ranks: [1, 1, 2]\n");
}

// The exchange along i beside the sweep, and after it, with every sweep: each sweeps the planes
// sent first and the others in a second launch, or all at once.
TEST(HimenoRanks, EverySweepWithTheExchangeBesideAndAfterIt) {
  expect_same_as_one_rank(3, "ranks: [3, 1, 1]\n",
                          std::string(kGrid) +
                              "sweep: [packed, shared, marching, mdrange]\n"
                              "halo_exchange: [overlapped, after_sweep]\n",
                          4 * 2);
}

// Blocks one and two planes thick along i: the planes sent are all the planes, with none or one
// between them, and with several ranks along j as well.
TEST(HimenoRanks, BlocksOneAndTwoPlanesThick) {
  expect_same_as_one_rank(4, "ranks: [4, 1, 1]\n", "grid: [8, 9, 10]\n");
  expect_same_as_one_rank(4, "ranks: [2, 2, 1]\n", "grid: [6, 9, 10]\n");
}

TEST(HimenoRanks, FourRanksInOneAndTwoDimensions) {
  expect_same_as_one_rank(4, "ranks: [4, 1, 1]\n");
  expect_same_as_one_rank(4, "ranks: [1, 2, 2]\n");
}

TEST(HimenoRanks, FourRanksAsMpiDimsCreateSplitsThem) {
  expect_same_as_one_rank(4, "");
}

TEST(HimenoRanks, MpiGivenTheArraysOwnPointers) {
  // On a host build the arrays are host memory: any MPI takes them.
  expect_same_as_one_rank(2, "gpu_aware_mpi: true\n");
}

// The transports side by side: MPI by name, and auto (CUDA IPC on a CUDA build with the ranks on
// one node, else MPI).
TEST(HimenoRanks, EveryHaloTransport) {
  expect_same_as_one_rank(3, "ranks: [1, 3, 1]\n",
                          std::string(kGrid) + "halo_transport: [auto, mpi]\n", 2);
}

// cuda_ipc beside gpu_aware_mpi: true asks for two transports; without CUDA, for one the build
// lacks. Either exits 2 naming the key, before anything runs.
TEST(HimenoRanks, CudaIpcThatCannotBeHadExitsTwo) {
  TempDir dir;
  const auto expect_refused = [&](const std::string& extra, const std::string& reason) {
    const std::string input = dir.write(
        "in.yaml", "app: himeno\nsize: XS\niterations: 1\nhalo_transport: cuda_ipc\n" + extra);
    const ProcessResult r =
        mpirun(2, {"run", input, "--report", dir.file("r.yaml"), "--ceiling-elements", "0"}, 1);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_CONTAINS(r.err, "halo_transport");
    EXPECT_CONTAINS(r.err, reason);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"in.yaml"});
  };
  expect_refused("gpu_aware_mpi: true\n", "choose one");
  if (!cuda_ipc_built()) expect_refused("", "cuda_ipc needs the CUDA backend");
}

// `kmini check` on the ranks it will run on agrees with the run: it said OK to a cuda_ipc halo on
// a build without CUDA, which the run then refused.
TEST(HimenoRanks, CheckRefusesTheCudaIpcThatTheRunRefuses) {
  if (cuda_ipc_built()) GTEST_SKIP() << "this build has CUDA IPC";
  TempDir dir;
  const std::string input =
      dir.write("in.yaml", "app: himeno\nsize: XS\niterations: 1\nhalo_transport: cuda_ipc\n");
  const ProcessResult r = mpirun(2, {"check", input}, 1);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_CONTAINS(r.err, "in.yaml:4:17: halo_transport: cuda_ipc needs the CUDA backend");
  // One rank exchanges no halo, yet the input would fail on more: check and the run refuse it
  // there too, as hf's g_sum_transport (both said OK on one rank).
  const ProcessResult one = mpirun(1, {"check", input}, 1);
  EXPECT_EQ(one.exit_code, 2) << one.out << one.err;
  EXPECT_CONTAINS(one.err, "in.yaml:4:17: halo_transport: cuda_ipc needs the CUDA backend");
  const ProcessResult run =
      mpirun(1, {"run", input, "--report", dir.file("r.yaml"), "--ceiling-elements", "0"}, 1);
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"in.yaml"});
}

// The temporal sweep on three ranks along i (its default split): each pass exchanges a halo
// time_steps planes deep and updates all but its outermost plane, so p equals the serial
// reference's bit for bit (the validation) and every gosa of the last pass is checked. The
// i-extent, 14 interior planes, gives the ranks 5, 5 and 4: at 4 steps the last rank's whole block
// is its neighbours' halo. 9 iterations end with single sweeps at 2 and 4 steps, after which a
// rehearsed solver's next passes read the deep halo again. Teams of 8 x 8 packs and runs of 3
// planes: a run's edge falls next to a rank's. host_openmp buffers each iteration's terms by the
// owned planes, which start past the deep halo.
TEST(HimenoRanks, TheTemporalSweepAlongIBitForBitWithAHaloTimeStepsDeep) {
  TempDir dir;
  const std::string input = dir.write(
      "in.yaml",
      std::string("app: himeno\ngrid: [17, 23, 30]\ninitial: random\nseed: 5\niterations: 9\n"
                  "sweep: temporal\ntime_steps: [2, 3, 4]\ntemporal_block: [3, 8, 8]\n"
                  "update: [copy_back, swap]\nprecision: double\n"
                  "variant: [kokkos_reduce, warp_aggregated, host_openmp, cpu_serial]\n"));
  const std::string report = dir.file("report.yaml");
  const ProcessResult r =
      mpirun(3, {"run", input, "--report", report, "--ceiling-elements", "0"}, 1);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const YAML::Node results = YAML::LoadFile(report)["runs"][0]["results"];
  ASSERT_EQ(results.size(), 3u * 2u * 4u);
  for (const auto& res : results) {
    SCOPED_TRACE(key_of(res));
    ASSERT_EQ(res["status"].as<std::string>(), "ran") << res["reason"];
    EXPECT_EQ(res["validation"]["status"].as<std::string>(), "PASS") << res["validation"];
    const YAML::Node metrics = res["metrics"];
    EXPECT_EQ(metrics["p_checksum"]["value"].as<double>(),
              metrics["p_checksum_reference"]["value"].as<double>());
    if (res["variant"].as<std::string>() == "cpu_serial") continue;
    // The last pass's iterations, each against the reference (9 is a pass of 3 steps' end).
    const int steps = res["point"]["time_steps"].as<int>();
    EXPECT_EQ(metrics["gosa_step_1"].IsDefined(), steps == 3);
    // The pass's exchange waits for the whole pass.
    EXPECT_EQ(metrics["halo_overlapped"]["value"].as<double>(), 0.0);
  }
}

// Where the ranks split j, or own fewer planes along i than the halo is deep, the device variants
// say why they cannot run, and the host's loops (which ignore the sweep) run and pass.
TEST(HimenoRanks, TheTemporalSweepSaysWhyItCannotSplitJOrThinBlocks) {
  const struct {
    const char* ranks;
    const char* reason;
  } cases[] = {
      {"[1, 2, 1]", "use ranks: [2, 1, 1]"},
      // 7 interior planes along i: 4 and 3 a rank, and a halo of 4.
      {"[2, 1, 1]", "a rank here owns 3"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.ranks);
    TempDir dir;
    const std::string input = dir.write(
        "in.yaml", std::string("app: himeno\niterations: 4\nsweep: temporal\ntime_steps: 4\n"
                               "temporal_block: [64, 8, 8]\n"
                               "grid: [10, 23, 30]\nranks: ") +
                       c.ranks + "\nvariant: [kokkos_reduce, cpu_serial]\n");
    const std::string report = dir.file("report.yaml");
    const ProcessResult r =
        mpirun(2, {"run", input, "--report", report, "--ceiling-elements", "0"}, 1);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const YAML::Node results = YAML::LoadFile(report)["runs"][0]["results"];
    ASSERT_EQ(results.size(), 2u);
    for (const auto& res : results) {
      SCOPED_TRACE(key_of(res));
      if (res["variant"].as<std::string>() == "kokkos_reduce") {
        EXPECT_EQ(res["status"].as<std::string>(), "not_applicable");
        EXPECT_CONTAINS(res["reason"].as<std::string>(), c.reason);
      } else {
        EXPECT_EQ(res["status"].as<std::string>(), "ran");
        EXPECT_EQ(res["validation"]["status"].as<std::string>(), "PASS");
      }
    }
  }
}

TEST(HimenoRanks, RanksOfAnotherJobExitTwo) {
  TempDir dir;
  const std::string input =
      dir.write("in.yaml", "app: himeno\nsize: XS\niterations: 1\nranks: [1, 1, 3]\n");
  const ProcessResult r =
      mpirun(2, {"run", input, "--report", dir.file("r.yaml"), "--ceiling-elements", "0"}, 1);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  // Rank 0 alone reports it (mpirun adds its own notice about the exit status).
  std::vector<std::string> kmini_lines;
  for (const auto& line : testing::nonempty_lines(r.err)) {
    if (line.rfind("kmini:", 0) == 0) kmini_lines.push_back(line);
  }
  ASSERT_EQ(kmini_lines.size(), 1u) << r.err;
  EXPECT_CONTAINS(kmini_lines[0],
                  "ranks: cannot split the grid over the ranks: [1, 1, 3] makes 3 "
                  "ranks, but the job has 2");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"in.yaml"});

  // kmini check under the same launcher finds the same, without starting MPI, and passes the
  // ranks that make the job.
  const ProcessResult checked = mpirun(2, {"check", input});
  EXPECT_EQ(checked.exit_code, 2) << checked.out << checked.err;
  EXPECT_CONTAINS(checked.err, "makes 3 ranks, but the job has 2");
  const std::string fits =
      dir.write("fits.yaml", "app: himeno\nsize: XS\niterations: 1\nranks: [2, 1, 1]\n");
  const ProcessResult ok = mpirun(2, {"check", fits});
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
}

}  // namespace
}  // namespace kmini
