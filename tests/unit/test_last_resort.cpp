// The last resort (core/last_resort.hpp): a signal that finds no safe point within
// LastResort::kSeconds ends the process with 128 + signal, after the report of what finished is
// written; a run that begins its own ending first is left alone. Each case runs in a child
// process, whose "run" is a loop with no safe point, as one long kernel launch is.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "core/interrupt.hpp"
#include "core/last_resort.hpp"

namespace kmini {
namespace {

using Clock = std::chrono::steady_clock;

std::string scratch_file(const std::string& name) {
  const std::string path = ::testing::TempDir() + "kmini-last-resort-" + name;
  std::remove(path.c_str());
  return path;
}

bool exists(const std::string& path) {
  struct stat status {};
  return stat(path.c_str(), &status) == 0;
}

// Seconds of a loop that looks at no signal.
void busy_for(double seconds) {
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  volatile double sink = 0.0;
  while (Clock::now() < end)
    sink = sink + 1.0;
}

TEST(LastResortDeathTest, ASignalInsideALongLaunchEndsTheProcessWithinASecondAndItsReport) {
  ::testing::GTEST_FLAG(death_test_style) = "threadsafe";
  const std::string report = scratch_file("report");
  const auto start = Clock::now();
  EXPECT_EXIT(
      {
        interrupt::install();
        const LastResort last_resort([&](int signal) {
          std::ofstream(report) << "stopped by " << interrupt::name(signal) << "\n";
        });
        std::raise(SIGTERM);
        busy_for(20.0);  // past this, the signal waited for the "launch"
        std::exit(7);
      },
      ::testing::ExitedWithCode(128 + SIGTERM), "");
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_LT(seconds, 5.0) << "the signal waited for the launch's end";
  std::ifstream written(report);
  std::string line;
  std::getline(written, line);
  EXPECT_EQ(line, "stopped by SIGTERM");
}

TEST(LastResortDeathTest, ARunThatBeginsItsOwnEndingInTimeIsLeftAlone) {
  ::testing::GTEST_FLAG(death_test_style) = "threadsafe";
  const std::string report = scratch_file("left-alone");
  EXPECT_EXIT(
      {
        interrupt::install();
        LastResort last_resort([&](int) { std::ofstream(report) << "written\n"; });
        std::raise(SIGINT);
        busy_for(0.2);  // a safe point soon after the signal
        last_resort.finish();
        busy_for(2.0 * LastResort::kSeconds);  // the run's own ending, slower than the grace
        std::exit(7);
      },
      ::testing::ExitedWithCode(7), "");
  EXPECT_FALSE(exists(report)) << "the last resort wrote over the run's own ending";
}

TEST(LastResortDeathTest, NoSignalNoEnding) {
  ::testing::GTEST_FLAG(death_test_style) = "threadsafe";
  const std::string report = scratch_file("no-signal");
  EXPECT_EXIT(
      {
        interrupt::install();
        const LastResort last_resort([&](int) { std::ofstream(report) << "written\n"; });
        busy_for(2.0 * LastResort::kSeconds);
        std::exit(7);
      },
      ::testing::ExitedWithCode(7), "");
  EXPECT_FALSE(exists(report));
}

}  // namespace
}  // namespace kmini
