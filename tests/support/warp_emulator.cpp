#include "support/warp_emulator.hpp"

#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace kmini::testing {

namespace {
int lanes_in(unsigned mask) {
  return __builtin_popcount(mask);
}
}  // namespace

unsigned EmulatedLane::active_mask() const {
  return warp_.active_;
}

unsigned EmulatedLane::match_any(unsigned mask, std::uint64_t key) const {
  const auto keys = exchange(mask, key);
  unsigned peers = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if ((mask >> lane & 1u) != 0u && keys[lane] == key) peers |= 1u << lane;
  }
  return peers;
}

int EmulatedLane::check_source(unsigned mask, int source_lane) const {
  // __shfl_sync from a lane outside the mask is undefined on the GPU; here it is a test failure.
  if (source_lane < 0 || source_lane > 31 || (mask >> source_lane & 1u) == 0u) {
    throw std::logic_error("lane " + std::to_string(lane_) + " shuffled from lane " +
                           std::to_string(source_lane) + ", outside the mask");
  }
  return source_lane;
}

std::array<std::uint64_t, 32> EmulatedLane::exchange(unsigned mask, std::uint64_t payload) const {
  if ((mask >> lane_ & 1u) == 0u) {
    throw std::logic_error("lane " + std::to_string(lane_) +
                           " joined a collective without its bit");
  }
  std::unique_lock<std::mutex> lock(warp_.mutex_);
  WarpEmulator::Round& round = warp_.rounds_[mask];
  auto give_up_if_aborted = [&] {
    if (warp_.aborted_) throw std::runtime_error("another lane failed");
  };
  // A lane that hurried on to its next collective on the same mask waits for this one to drain.
  warp_.changed_.wait(lock, [&] { return !round.complete || warp_.aborted_; });
  give_up_if_aborted();
  round.payload[lane_] = payload;
  if (++round.arrived == lanes_in(mask)) {
    round.complete = true;
    warp_.changed_.notify_all();
  } else {
    warp_.changed_.wait(lock, [&] { return round.complete || warp_.aborted_; });
    give_up_if_aborted();
  }
  const auto out = round.payload;
  if (++round.left == lanes_in(mask)) {
    round = WarpEmulator::Round{};
    warp_.changed_.notify_all();
  }
  return out;
}

void WarpEmulator::run(unsigned active, const std::function<void(const EmulatedLane&)>& body) {
  active_ = active;
  aborted_ = false;
  atomics_ = 0;
  rounds_.clear();
  std::vector<std::thread> lanes;
  std::vector<std::exception_ptr> errors(32);
  for (int lane = 0; lane < 32; ++lane) {
    if ((active >> lane & 1u) == 0u) continue;
    lanes.emplace_back([this, lane, &body, &errors] {
      try {
        body(EmulatedLane(*this, lane));
      } catch (...) {
        errors[lane] = std::current_exception();
        const std::lock_guard<std::mutex> lock(mutex_);
        aborted_ = true;
        changed_.notify_all();
      }
    });
  }
  for (auto& t : lanes)
    t.join();
  // The first failure is the cause; the others only gave up waiting for it.
  std::exception_ptr cause;
  for (const auto& e : errors) {
    if (!e) continue;
    try {
      std::rethrow_exception(e);
    } catch (const std::logic_error&) {
      std::rethrow_exception(e);
    } catch (...) {
      if (!cause) cause = e;
    }
  }
  if (cause) std::rethrow_exception(cause);
}

}  // namespace kmini::testing
