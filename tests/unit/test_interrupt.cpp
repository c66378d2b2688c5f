// The signal handler's rule (core/interrupt.hpp): a second signal ends the process at once, unless
// it comes within a quarter of a second of the first, when it is the same request sent twice (GNU
// timeout signals the process, then its process group). raise() runs the handler before it
// returns, so the two signals' spacing is the test's own; each case runs in a child process.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

#include "core/interrupt.hpp"

namespace kmini {
namespace {

TEST(InterruptDeathTest, ASecondSignalAtOnceIsTheSameRequest) {
  EXPECT_EXIT(
      {
        interrupt::install();
        std::raise(SIGTERM);
        std::raise(SIGTERM);
        std::exit(interrupt::received() == SIGTERM ? 7 : 8);
      },
      ::testing::ExitedWithCode(7), "");
}

TEST(InterruptDeathTest, ASecondSignalLaterEndsTheProcess) {
  EXPECT_EXIT(
      {
        interrupt::install();
        std::raise(SIGINT);
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        std::raise(SIGINT);
        std::exit(7);
      },
      ::testing::KilledBySignal(SIGINT), "");
}

// The process's last look (run_command, after Kokkos and MPI have finished): a signal caught
// before it is returned; one after it takes the signal's default action, so that none is caught
// and then never looked at (a SIGTERM in a run's last tenth of a second gave exit 0).
TEST(InterruptDeathTest, TheLastLookSeesASignalCaughtBeforeItAndLeavesLaterOnesTheirDefault) {
  EXPECT_EXIT(
      {
        interrupt::install();
        std::raise(SIGHUP);
        std::exit(interrupt::received_before_exit() == SIGHUP ? 7 : 8);
      },
      ::testing::ExitedWithCode(7), "");
  EXPECT_EXIT(
      {
        interrupt::install();
        if (interrupt::received_before_exit() != 0) std::exit(8);
        std::raise(SIGTERM);
        std::exit(7);
      },
      ::testing::KilledBySignal(SIGTERM), "");
}

}  // namespace
}  // namespace kmini
