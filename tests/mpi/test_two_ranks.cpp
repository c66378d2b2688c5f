// kmini under mpirun -n 2: both ranks run, rank 0 alone prints and writes, work adds up.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/kmini_binary.hpp"
#include "support/mpirun.hpp"

namespace kmini {
namespace {

using testing::mpirun;
using testing::mpirun_each;
using testing::ProcessResult;
using testing::TempDir;
using testing::test_input;

// A job that ended with exit 2 and one line from kmini on stderr, holding each of `parts`.
void expect_one_message_and_exit_two(const ProcessResult& r,
                                     const std::vector<std::string>& parts) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  std::vector<std::string> kmini_lines;
  for (const auto& line : testing::nonempty_lines(r.err))
    if (line.rfind("kmini:", 0) == 0) kmini_lines.push_back(line);
  ASSERT_EQ(kmini_lines.size(), 1u) << r.err;
  for (const std::string& part : parts)
    EXPECT_NE(kmini_lines[0].find(part), std::string::npos) << kmini_lines[0];
}

TEST(TwoRanks, WorkIsSummedAndRankZeroReports) {
  TempDir dir;
  const std::string report = dir.file("two.yaml");
  const ProcessResult r =
      mpirun(2, {"run", test_input("stream_small.yaml"), "--set", "stream.precision=double",
                 "--report", report, "--ceiling-elements", "100000"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // Rank 0 alone prints: one verdict line.
  std::size_t verdicts = 0;
  for (std::size_t at = r.out.find("VALID:"); at != std::string::npos;
       at = r.out.find("VALID:", at + 1)) {
    ++verdicts;
  }
  EXPECT_EQ(verdicts, 1u) << r.out;

  const YAML::Node doc = YAML::LoadFile(report);
  EXPECT_EQ(doc["meta"]["mpi"]["ranks"].as<int>(), 2);
  const YAML::Node placement = doc["meta"]["mpi"]["placement"];
  ASSERT_EQ(placement.size(), 2u);
  EXPECT_EQ(placement[0]["rank"].as<int>(), 0);
  EXPECT_EQ(placement[1]["rank"].as<int>(), 1);
  EXPECT_EQ(doc["ceilings"]["copy"]["ranks"].as<int>(), 2);
  const YAML::Node results = doc["runs"][0]["results"];
  ASSERT_EQ(results.size(), 8u);  // every stream variant
  for (const auto& res : results) {
    EXPECT_EQ(res["validation"]["status"].as<std::string>(), "PASS");
  }
  // copy on each rank moves 2 x 100000 doubles; the report counts both ranks.
  EXPECT_EQ(results[0]["work_per_repetition"]["bytes"].as<double>(), 2.0 * 2 * 100000 * 8);
  EXPECT_EQ(doc["summary"]["status"].as<std::string>(), "VALID");
}

TEST(TwoRanks, BadInputExitsTwoWithOneMessage) {
  TempDir dir;
  const std::string input = dir.write("bad.yaml", "app: stream\nelemnts: 5\n");
  const ProcessResult r = mpirun(2, {"run", input, "--ceiling-elements", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  // Rank 0 alone reports it (mpirun adds its own notice about the exit status).
  std::size_t kmini_lines = 0;
  for (const auto& line : testing::nonempty_lines(r.err)) {
    if (line.rfind("kmini:", 0) == 0) ++kmini_lines;
  }
  EXPECT_EQ(kmini_lines, 1u) << r.err;
  EXPECT_NE(r.err.find("did you mean 'elements'?"), std::string::npos) << r.err;
}

// Ranks that disagree about the input (another file, a --set on one rank, an input bad on one
// rank alone, as a node-local molecule file can be) or about the options that steer every rank
// (--dry-run, --ceiling-elements) end with exit 2 and one message, where the job hung,
// ran different problems or failed in MPI (exit 4); an error on rank 1 alone is said, by rank 1.
TEST(TwoRanks, RanksThatReadDifferentInputsExitTwoWithOneMessage) {
  TempDir dir;
  const std::string a = dir.write("a.yaml", "app: stream\nelements: 100000\nrepetitions: 2\n");
  const std::string b = dir.write("b.yaml", "app: stream\nelements: 100001\nrepetitions: 2\n");
  const std::string bad = dir.write("bad.yaml", "app: stream\nelemnts: 100000\n");
  const std::vector<std::string> common = {"--ceiling-elements", "0", "--report",
                                           dir.file("r.yaml")};
  const auto args = [&](const std::string& input, std::vector<std::string> extra = {}) {
    std::vector<std::string> out = {"run", input};
    out.insert(out.end(), extra.begin(), extra.end());
    out.insert(out.end(), common.begin(), common.end());
    return out;
  };
  const struct {
    const char* what;
    std::vector<std::vector<std::string>> ranks;
    const char* message;
  } cases[] = {
      {"another file", {args(a), args(b)}, "rank 1 read a different input from rank 0's"},
      {"a --set on rank 1",
       {args(a), args(a, {"--set", "stream.repetitions=3"})},
       "rank 1 read a different input from rank 0's"},
      {"bad on rank 1 alone", {args(a), args(bad)}, "rank 1: "},
      {"another probe length on rank 1",
       {args(a), {"run", a, "--ceiling-elements", "4096", "--report", dir.file("r.yaml")}},
       "rank 1 was given other options than rank 0"},
      {"--dry-run on rank 1 alone",
       {args(a), args(a, {"--dry-run"})},
       "rank 1 was given other options than rank 0"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    expect_one_message_and_exit_two(mpirun_each(c.ranks, 60), {c.message});
    EXPECT_FALSE(std::filesystem::exists(dir.file("r.yaml")));
  }
}

// Ranks started with different commands (mpirun's MPMD form), or one refused its command line
// or KMINI_DATA_DIR, end with exit 2 and one message from rank 0 naming both: a rank that never
// joined MPI left `kmini run` on the others waiting in MPI_Init for ever.
TEST(TwoRanks, RanksStartedWithDifferentCommandsExitTwoWithOneMessage) {
  TempDir dir;
  const std::string a = dir.write("a.yaml", "app: stream\nelements: 100000\nrepetitions: 2\n");
  const std::vector<std::string> run = {"run", a,          "--ceiling-elements",
                                        "0",   "--report", dir.file("r.yaml")};
  std::vector<std::string> typo = run;
  typo[4] = "--repotr";
  const struct {
    const char* what;
    std::vector<std::vector<std::string>> ranks;
    const char* message;
  } cases[] = {
      {"check on rank 1",
       {run, {"check", a}},
       "rank 1 runs `kmini check`, and rank 0 runs `kmini run`"},
      {"check on rank 0",
       {{"check", a}, run},
       "rank 1 runs `kmini run`, and rank 0 runs `kmini check`"},
      {"--version on rank 1", {run, {"--version"}}, "rank 1 runs `kmini --version`"},
      {"a typo on rank 1", {run, typo}, "rank 1 refused to start: unknown option '--repotr'"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    expect_one_message_and_exit_two(
        mpirun_each(c.ranks, 60),
        {c.message, "every rank of an MPI job must run the same kmini command"});
    EXPECT_FALSE(std::filesystem::exists(dir.file("r.yaml")));
  }
  // The same command on both ranks still runs: check says its verdict, with exit 0.
  const ProcessResult both = mpirun_each({{"check", a}, {"check", a}}, 60);
  EXPECT_EQ(both.exit_code, 0) << both.out << both.err;
  EXPECT_NE(both.out.find(": OK, 1 run(s)"), std::string::npos) << both.out;
}

// `kmini check` in a job answers once: rank 0 prints the verdict, and ranks whose inputs differ or
// fail on one rank alone end with exit 2 and one message, as `kmini run`'s do.
TEST(TwoRanks, CheckAnswersOnceAndRanksThatReadDifferentInputsExitTwo) {
  TempDir dir;
  const std::string a = dir.write("a.yaml", "app: stream\nelements: 100000\nrepetitions: 2\n");
  const std::string b = dir.write("b.yaml", "app: stream\nelements: 100001\nrepetitions: 2\n");
  const std::string bad = dir.write("bad.yaml", "app: stream\nelemnts: 100000\n");
  const ProcessResult both = mpirun(2, {"check", a});
  EXPECT_EQ(both.exit_code, 0) << both.out << both.err;
  std::size_t verdicts = 0;
  for (const auto& line : testing::nonempty_lines(both.out))
    if (line.find(": OK, 1 run(s)") != std::string::npos) ++verdicts;
  EXPECT_EQ(verdicts, 1u) << both.out;
  expect_one_message_and_exit_two(mpirun_each({{"check", a}, {"check", b}}, 60),
                                  {"rank 1 read a different input from rank 0's"});
  expect_one_message_and_exit_two(mpirun_each({{"check", a}, {"check", bad}}, 60),
                                  {"rank 1: ", "did you mean 'elements'?"});
}

// The memory gate's refusal where rank 1 alone lacks the memory (an address-space limit on it
// alone) names rank 1, where it read as rank 0's. (A sanitized kmini cannot start under such a
// limit.)
TEST(TwoRanks, AMemoryRefusalOnRankOneAloneNamesIt) {
#if !defined(KMINI_SANITIZED)
  TempDir dir;
  const std::string input = dir.write("in.yaml", "app: stream\nelements: 40000000\n");
  const std::vector<std::string> run = {"run", input,      "--ceiling-elements",
                                        "0",   "--report", dir.file("r.yaml")};
  std::vector<std::string> args = {"timeout",
                                   "-k",
                                   "5",
                                   "60",
                                   testing::mpiexec(),
                                   "--oversubscribe",
                                   "-n",
                                   "1",
                                   testing::kmini_binary()};
  args.insert(args.end(), run.begin(), run.end());
  args.insert(args.end(), {":", "-n", "1", "bash", "-c", "ulimit -v 1000000 && exec \"$@\"", "bash",
                           testing::kmini_binary()});
  args.insert(args.end(), run.begin(), run.end());
  testing::prepare_environment();
  expect_one_message_and_exit_two(testing::run_process(args),
                                  {"kmini: error: rank 1: " + input +
                                   ":1:1: stream: needs 915.5 MiB of memory per rank, but "
                                   "the address-space limit (ulimit -v, RLIMIT_AS) leaves "});
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.yaml")));
#endif
}

// A command-line mistake on every rank is printed once.
TEST(TwoRanks, CommandLineErrorsArePrintedOnce) {
  const ProcessResult r = mpirun(2, {"run", "in.yaml", "--repotr", "r.yaml"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  std::size_t kmini_lines = 0;
  for (const auto& line : testing::nonempty_lines(r.err)) {
    if (line.rfind("kmini:", 0) == 0) ++kmini_lines;
  }
  EXPECT_EQ(kmini_lines, 1u) << r.err;
  EXPECT_NE(r.err.find("unknown option '--repotr'"), std::string::npos) << r.err;
}

TEST(TwoRanks, ValidationFailureExitsThree) {
  TempDir dir;
  const ProcessResult r = mpirun(2, {"run", test_input("stream_broken.yaml"), "--report",
                                     dir.file("r.yaml"), "--ceiling-elements", "0"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
}

}  // namespace
}  // namespace kmini
