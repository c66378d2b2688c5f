// The hf G build's per-build machinery on random data: incremental builds
// (hf/fock/incremental_g.hpp) against builds from the whole density, and the density screen's
// prefix cut (hf/screening/quartet_screen.hpp) and the kept lists (ListKept, hf/fock/g_kernels.hpp)
// against testing every planned quartet one by one, and the plan's lists
// (hf/screening/quartet_plan.hpp) against every quartet of random pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "hf/fock/g_kernels.hpp"
#include "hf/fock/incremental_g.hpp"
#include "hf/screening/quartet_plan.hpp"
#include "hf/screening/quartet_screen.hpp"

namespace kmini::hf {
namespace {

using Device = Kokkos::DefaultExecutionSpace;
using DeviceMatrix = IncrementalG::DeviceMatrix;

DeviceMatrix random_matrix(std::mt19937_64& rng, int n, double scale) {
  DeviceMatrix m("m", n, n);
  auto host = Kokkos::create_mirror_view(m);
  std::uniform_real_distribution<double> value(-scale, scale);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      host(i, j) = value(rng);
  Kokkos::deep_copy(m, host);
  return m;
}

std::vector<double> on_host(const DeviceMatrix& m) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
  return std::vector<double>(host.data(), host.data() + host.size());
}

// A linear stand-in for G: g_ij = sum_k w_ik d_kj, with a fixed random w, and a count of calls.
struct LinearG {
  DeviceMatrix w;
  int calls = 0;
  void operator()(const DeviceMatrix& d, const DeviceMatrix& g) {
    ++calls;
    const int n = static_cast<int>(d.extent(0));
    const auto weights = w;
    Kokkos::parallel_for(
        "test::linear_g", Kokkos::RangePolicy<Device>(0, n), KOKKOS_LAMBDA(const int i) {
          for (int j = 0; j < n; ++j) {
            double sum = 0.0;
            for (int k = 0; k < n; ++k)
              sum += weights(i, k) * d(k, j);
            g(i, j) = sum;
          }
        });
    Kokkos::fence();
  }
};

// Densities that converge as an SCF's do: each the last plus a change `ratio` times smaller.
std::vector<DeviceMatrix> converging_densities(std::mt19937_64& rng, int n, int count,
                                               double ratio = 0.1) {
  std::vector<DeviceMatrix> out{random_matrix(rng, n, 1.0)};
  for (int k = 1; k < count; ++k) {
    DeviceMatrix next("next", n, n);
    const DeviceMatrix change = random_matrix(rng, n, std::pow(ratio, k));
    const DeviceMatrix last = out.back();
    Kokkos::parallel_for(
        "test::next_density", Kokkos::RangePolicy<Device>(0, n * n),
        KOKKOS_LAMBDA(const int i) { next.data()[i] = last.data()[i] + change.data()[i]; });
    out.push_back(next);
  }
  Kokkos::fence();
  return out;
}

TEST(HfIncrementalG, GivesTheWholeDensitysGAndRebuildsOnSchedule) {
  std::mt19937_64 rng(17);
  const int n = 12;
  LinearG linear{random_matrix(rng, n, 1.0)};
  // The changes are 0.3, 0.09, ... of the first density, whose largest element is 1 to 1.5:
  // builds 1 to 5 change it by 2e-3 or more and are loose (like build 0, from the guess), build 6
  // is the full one that ends them, and builds 7 and 8 are tight, unless the schedule rebuilds.
  const std::vector<DeviceMatrix> densities = converging_densities(rng, n, 9, 0.3);
  const std::vector<std::vector<bool>> full_builds{
      {true, true, true, true, true, true, true, true, true},
      {true, false, false, true, false, false, true, false, false},
      {true, false, false, false, false, false, true, false, false}};
  const int everies[] = {1, 3, 100};
  for (int e = 0; e < 6; ++e) {
    const int every = everies[e % 3];
    // The default threshold's loosest scale, and a threshold already at the loosest one.
    const double loosest = e < 3 ? IncrementalG::loosest_scale_for(1e-12) : 1.0;
    SCOPED_TRACE("full_rebuild_every " + std::to_string(every) + ", loosest scale " +
                 std::to_string(loosest));
    IncrementalG incremental(FockBuild::incremental, every, loosest);
    for (std::size_t k = 0; k < densities.size(); ++k) {
      SCOPED_TRACE("build " + std::to_string(k));
      const DeviceMatrix g("g", n, n), want("want", n, n);
      double scale = -1.0;
      incremental.next(densities[k], g,
                       [&](const DeviceMatrix& d, const DeviceMatrix& out, double s) {
                         scale = s;
                         linear(d, out);
                       });
      const bool full = full_builds[e % 3][k];
      EXPECT_EQ(incremental.last_was_full(), full);
      // A large change is screened looser, by its size against the density's, up to
      // kLoosestScale (so is the first build, from the guess); a small one tighter, at
      // kTightestScale of it, but at the full threshold when built whole.
      double relative = 1.0;
      if (k > 0) {
        const std::vector<double> now = on_host(densities[k]), before = on_host(densities[k - 1]);
        double change = 0.0, whole = 0.0;
        for (std::size_t i = 0; i < now.size(); ++i) {
          change = std::max(change, std::fabs(now[i] - before[i]));
          whole = std::max(whole, std::fabs(now[i]));
        }
        relative = change / whole;
      }
      const double expected_scale =
          relative >= IncrementalG::kLooseAbove
              ? std::max(1.0, std::min(loosest, relative / IncrementalG::kLooseReference))
          : full ? 1.0
                 : IncrementalG::kTightestScale;
      EXPECT_EQ(scale > 1.0, k <= 5 && loosest > 1.0);
      EXPECT_EQ(scale < 1.0, k >= 7 && !full);
      if (k == 0) {
        EXPECT_EQ(scale, loosest);
      }
      EXPECT_DOUBLE_EQ(scale, expected_scale);
      EXPECT_EQ(incremental.last_threshold_scale(), scale);
      linear(densities[k], want);
      const std::vector<double> got = on_host(g), expected = on_host(want);
      double largest = 0.0;
      for (std::size_t i = 0; i < got.size(); ++i)
        largest = std::max(largest, std::fabs(got[i] - expected[i]));
      // Rounding alone: a G missing the previous builds' part would be off by O(1).
      EXPECT_LT(largest, 1e-12);
    }
  }
}

// Loose builds screen at most 1000 times the threshold, and never looser than 1e-9; a change of
// relative size r at r / 1e-4 times it.
TEST(HfIncrementalG, LooseBuildsStopAtTheLoosestThreshold) {
  EXPECT_DOUBLE_EQ(IncrementalG::loosest_scale_for(1e-14), 1000.0);
  EXPECT_DOUBLE_EQ(IncrementalG::loosest_scale_for(1e-12), 1000.0);
  EXPECT_DOUBLE_EQ(IncrementalG::loosest_scale_for(1e-11), 100.0);
  EXPECT_DOUBLE_EQ(IncrementalG::loosest_scale_for(1e-9), 1.0);
  EXPECT_DOUBLE_EQ(IncrementalG::loosest_scale_for(1e-6), 1.0);
  EXPECT_DOUBLE_EQ(IncrementalG::scale_for(FockBuild::incremental, false, 0.02, 1000.0), 200.0);
  EXPECT_DOUBLE_EQ(IncrementalG::scale_for(FockBuild::incremental, false, 0.5, 1000.0), 1000.0);
  EXPECT_DOUBLE_EQ(IncrementalG::scale_for(FockBuild::incremental, false, 5e-4, 1000.0),
                   IncrementalG::kTightestScale);
}

TEST(HfIncrementalG, FullBuildsEveryTimeWhenAskedTo) {
  std::mt19937_64 rng(18);
  const int n = 6;
  LinearG linear{random_matrix(rng, n, 1.0)};
  IncrementalG full(FockBuild::full, 5, IncrementalG::kLoosestScale);
  for (const DeviceMatrix& density : converging_densities(rng, n, 4)) {
    const DeviceMatrix g("g", n, n);
    full.next(density, g, [&](const DeviceMatrix& d, const DeviceMatrix& out, double scale) {
      // A full build is handed the density itself, not a change of it, at the full threshold.
      EXPECT_EQ(d.data(), density.data());
      EXPECT_EQ(scale, 1.0);
      linear(d, out);
    });
    EXPECT_TRUE(full.last_was_full());
  }
}

// ---- the density screen's prefix cut ---------------------------------------------------------

template <class T>
Kokkos::View<T*, Device::memory_space> device_view(const std::vector<T>& values) {
  Kokkos::View<T*, Device::memory_space> view("v", values.size());
  auto host = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < values.size(); ++i)
    host(i) = values[i];
  Kokkos::deep_copy(view, host);
  return view;
}

template <class View>
std::vector<typename View::non_const_value_type> host_vector(const View& view) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  return std::vector<typename View::non_const_value_type>(host.data(), host.data() + host.size());
}

// A class of `pairs` random pairs over `shells` shells (bra list = ket list, the diagonal case,
// or a ket list of its own), Schwarz bounds spread over twelve decades, a plan's prefixes at
// `plan_threshold`, and a random shell-block density; the cut at `threshold` must keep every
// planned quartet the screen keeps, and its offsets and reaches must describe its prefixes.
void check_cut(bool diagonal, int bra_begin, int bra_end, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int shells = 40, bras = 60, kets = diagonal ? bras : 75;
  std::uniform_int_distribution<int> shell(0, shells - 1);
  std::uniform_real_distribution<double> decade(-10.0, 1.0), unit(0.0, 1.0);
  // Pairs 0..bras-1 are the bras; the kets are the same pairs or the next ones.
  const int pair_count = diagonal ? bras : bras + kets;
  std::vector<double> bound(pair_count);
  std::vector<int> pair_shells(2 * pair_count);
  for (int p = 0; p < pair_count; ++p) {
    bound[p] = std::pow(10.0, decade(rng));
    pair_shells[2 * p] = shell(rng);
    pair_shells[2 * p + 1] = shell(rng);
  }
  std::vector<int> bra_pairs(bras), ket_pairs(kets);
  for (int p = 0; p < bras; ++p)
    bra_pairs[p] = p;
  for (int q = 0; q < kets; ++q)
    ket_pairs[q] = diagonal ? q : bras + q;
  // Listed as the plan lists them: by the bound rounded up to a power of 4, then by bound.
  const auto ceiling = [&](int pair) {
    return std::pow(4.0, std::floor(std::log(bound[pair]) / std::log(4.0)) + 1.0);
  };
  const auto by_ceiling = [&](int x, int y) {
    return std::make_pair(ceiling(x), bound[x]) > std::make_pair(ceiling(y), bound[y]);
  };
  std::sort(bra_pairs.begin(), bra_pairs.end(), by_ceiling);
  if (diagonal)
    ket_pairs = bra_pairs;
  else
    std::sort(ket_pairs.begin(), ket_pairs.end(), by_ceiling);
  std::vector<double> bra_bounds, ket_bounds, bra_ceilings, ket_ceilings;
  for (const int p : bra_pairs) {
    bra_bounds.push_back(bound[p]);
    bra_ceilings.push_back(ceiling(p));
  }
  for (const int q : ket_pairs) {
    ket_bounds.push_back(bound[q]);
    ket_ceilings.push_back(ceiling(q));
  }
  const double plan_threshold = 1e-14, threshold = 1e-11;
  std::vector<int> uncut(bras);
  for (int p = 0; p < bras; ++p) {
    uncut[p] = 0;
    while (uncut[p] < kets && bra_ceilings[p] * ket_ceilings[uncut[p]] >= plan_threshold)
      ++uncut[p];
  }
  std::vector<double> density(shells * shells);
  for (int s = 0; s < shells; ++s)
    for (int t = 0; t <= s; ++t)
      density[s * shells + t] = density[t * shells + s] = std::pow(10.0, -6.0 * unit(rng));

  ClassData<Device::memory_space> data;
  data.bra_kind = data.ket_kind = 0;
  if (!diagonal) data.bra_kind = 1;
  data.bra_pairs = device_view(bra_pairs);
  data.ket_pairs = device_view(ket_pairs);
  const auto screened = [&](const std::vector<int>& list) {
    std::vector<ScreenedPair> out;
    for (const int pair : list)
      out.push_back({bound[pair], {pair_shells[2 * pair], pair_shells[2 * pair + 1]}});
    return device_view(out);
  };
  data.bra_screen = screened(bra_pairs);
  data.ket_screen = screened(ket_pairs);
  data.bra_ceilings = device_view(bra_ceilings);
  data.ket_ceilings = device_view(ket_ceilings);
  data.ket_uncut = device_view(uncut);
  data.bra_begin = bra_begin;
  data.bra_end = bra_end;
  ClassCut<Device::memory_space> cut;
  cut.ket_count = Kokkos::View<int*, Device::memory_space>("count", bras);
  cut.ket_uncut = Kokkos::View<int*, Device::memory_space>("uncut", bras);
  cut.bra_reach = Kokkos::View<int*, Device::memory_space>("reach", kets);
  cut.offsets =
      Kokkos::View<std::int64_t*, Device::memory_space>("offsets", bra_end - bra_begin + 1);
  const double largest = *std::max_element(density.begin(), density.end());
  const std::int64_t total = cut_class<Device>(data, threshold, largest, cut);

  const auto count = host_vector(cut.ket_count);
  const auto reach = host_vector(cut.bra_reach);
  const auto offsets = host_vector(cut.offsets);
  const auto d = [&](int s, int t) { return density[s * shells + t]; };
  std::int64_t kept = 0, listed = 0;
  for (int p = 0; p < bras; ++p) {
    const bool mine = p >= bra_begin && p < bra_end;
    if (!mine) {
      EXPECT_EQ(count[p], 0) << p;
      continue;
    }
    EXPECT_EQ(offsets[p - bra_begin], listed) << p;
    listed += count[p];
    EXPECT_LE(count[p], uncut[p]);
    for (int q = 0; q < uncut[p] && (!diagonal || q <= p); ++q) {
      const int a = pair_shells[2 * bra_pairs[p]], b = pair_shells[2 * bra_pairs[p] + 1];
      const int c = pair_shells[2 * ket_pairs[q]], e = pair_shells[2 * ket_pairs[q] + 1];
      const double coupled = std::max({d(a, b), d(c, e), d(a, c), d(b, e), d(a, e), d(b, c)});
      if (bra_bounds[p] * ket_bounds[q] * coupled >= threshold) {
        ++kept;
        EXPECT_LT(q, count[p]) << "the cut dropped a quartet the screen keeps: " << p << ", " << q;
        // Its ket's reach covers the bra.
        EXPECT_LT(p, reach[q]) << p << ", " << q;
      }
    }
  }
  EXPECT_EQ(offsets.back(), listed);
  EXPECT_EQ(total, listed);
  EXPECT_GT(kept, 0);
  // And the cut does cut: the largest density bounds all, yet most pairs reach far below it.
  std::int64_t planned = 0;
  for (int p = bra_begin; p < bra_end; ++p)
    planned += diagonal ? std::min(uncut[p], p + 1) : uncut[p];
  EXPECT_LT(listed, planned);
  // Reaches are exactly where the prefixes (before the diagonal cut) stop.
  for (int q = 0; q < kets; ++q) {
    int expected = bra_begin;
    while (expected < bra_end && host_vector(cut.ket_uncut)[expected] > q)
      ++expected;
    EXPECT_EQ(reach[q], expected) << q;
  }

  // The kept lists of the cut's candidates, in chunks and windows of several lengths: each kept
  // candidate once, with its bra, in the part its exchange updates decide, and each window's
  // candidates together and in order.
  data.ket_count = cut.ket_count;
  data.bra_reach = cut.bra_reach;
  data.offsets = cut.offsets;
  QuartetScreen<Device::memory_space> screen;
  screen.threshold = threshold;
  screen.by_density = true;
  screen.pair_bound = device_view(bound);
  Kokkos::View<int* [2], Kokkos::LayoutRight, Device::memory_space> pair_shell_view("shells",
                                                                                    pair_count);
  Kokkos::deep_copy(pair_shell_view, Kokkos::View<int* [2], Kokkos::LayoutRight, Kokkos::HostSpace>(
                                         pair_shells.data(), pair_count));
  screen.pair_shells = pair_shell_view;
  Kokkos::View<double**, Kokkos::LayoutRight, Device::memory_space> shell_density("d", shells,
                                                                                  shells);
  Kokkos::deep_copy(shell_density, Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>(
                                       density.data(), shells, shells));
  screen.shell_density = shell_density;
  // Per candidate t of the cut: 0 dropped, 1 kept for its Coulomb updates, 2 with exchange.
  std::vector<int> expected_part(static_cast<std::size_t>(total)), expected_bra(total);
  for (int p = bra_begin; p < bra_end; ++p)
    for (int q = 0; q < count[p]; ++q) {
      const int a = pair_shells[2 * bra_pairs[p]], b = pair_shells[2 * bra_pairs[p] + 1];
      const int c = pair_shells[2 * ket_pairs[q]], e = pair_shells[2 * ket_pairs[q] + 1];
      const double exchange = std::max({d(a, c), d(b, e), d(a, e), d(b, c)});
      const double coupled = std::max({d(a, b), d(c, e), exchange});
      const std::int64_t t = offsets[p - bra_begin] + q;
      expected_bra[t] = p;
      expected_part[t] = bra_bounds[p] * ket_bounds[q] * coupled < threshold    ? 0
                         : bra_bounds[p] * ket_bounds[q] * exchange < threshold ? 1
                                                                                : 2;
    }
  ASSERT_GT(std::count(expected_part.begin(), expected_part.end(), 1), 0);
  ASSERT_GT(std::count(expected_part.begin(), expected_part.end(), 2), 0);
  for (const int window : {1, 3, 64, ListKept<Device>::kWindow}) {
    const int chunk = static_cast<int>(total / 2 + 5);
    std::vector<int> seen(static_cast<std::size_t>(total), 0);
    for (int first = 0; first < total; first += chunk) {
      SCOPED_TRACE("window " + std::to_string(window) + ", chunk from " + std::to_string(first));
      const int candidates = static_cast<int>(std::min<std::int64_t>(chunk, total - first));
      KeptList<Device::memory_space> list("list", candidates);
      Kokkos::View<int[2], Device::memory_space> listed("listed");
      const ListKept<Device> lister{data, screen, first, candidates, window, list, listed};
      Kokkos::parallel_for(lister.policy(), lister);
      const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list);
      const auto parts = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), listed);
      ASSERT_LE(parts(0) + parts(1), candidates);
      // Entries [from, to) of one part; `step` +1 where a window's candidates ascend, -1 descend.
      const auto check_part = [&](int from, int to, int part, int step) {
        std::vector<int> windows_seen;
        for (int k = from; k < to; ++k) {
          const int offset = entries(k, 0), t = first + offset;
          ASSERT_TRUE(offset >= 0 && offset < candidates) << k;
          EXPECT_EQ(expected_part[t], part) << t;
          EXPECT_EQ(entries(k, 1), expected_bra[t]) << t;
          ++seen[t];
          const int window_of = offset / window;
          if (k > from && entries(k - 1, 0) / window == window_of) {
            EXPECT_GT((offset - entries(k - 1, 0)) * step, 0) << "out of order at " << k;
          } else {
            EXPECT_EQ(std::count(windows_seen.begin(), windows_seen.end(), window_of), 0)
                << "window " << window_of << " split in the list";
            windows_seen.push_back(window_of);
          }
        }
      };
      check_part(0, parts(0), 2, 1);
      check_part(candidates - parts(1), candidates, 1, -1);
    }
    for (std::int64_t t = 0; t < total; ++t)
      EXPECT_EQ(seen[t], expected_part[t] == 0 ? 0 : 1) << "candidate " << t;
  }
}

TEST(HfDensityScreen, TheCutKeepsEveryQuartetTheScreenKeeps) {
  check_cut(true, 0, 60, 1);
  check_cut(false, 0, 60, 2);
  // One rank's share of the bras.
  check_cut(true, 27, 51, 3);
  check_cut(false, 30, 60, 4);
}

// The primitive screen's cutoff divides the threshold's share by the largest density that the
// build's updates multiply the quartet's integrals by: every pairing's where the build makes the
// Coulomb updates, the exchange pairings' alone where it makes K alone (fock_algorithm: split).
TEST(HfDensityScreen, ThePrimitiveCutoffFollowsTheUpdatesTheBuildMakes) {
  std::mt19937_64 rng(20261204);
  std::uniform_real_distribution<double> small(1e-7, 1e-5), large(0.2, 0.9);
  // Shells 0 and 1 form the bra, 2 and 3 the ket: compact pairs some way apart.
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> density("d", 4, 4);
  for (int s = 0; s < 4; ++s)
    for (int t = 0; t < 4; ++t)
      density(s, t) = (s < 2) == (t < 2) ? large(rng) : small(rng);
  Kokkos::View<double*, Kokkos::HostSpace> bound("q", 2);
  bound(0) = 0.7;
  bound(1) = 0.3;
  Kokkos::View<int* [2], Kokkos::LayoutRight, Kokkos::HostSpace> shells("shells", 2);
  shells(0, 0) = 0;
  shells(0, 1) = 1;
  shells(1, 0) = 2;
  shells(1, 1) = 3;
  QuartetScreen<Kokkos::HostSpace> screen;
  screen.shell_density = density;
  screen.pair_bound = bound;
  screen.pair_shells = shells;
  screen.threshold = 1e-12;
  screen.by_density = true;
  const double exchange = std::max({density(0, 2), density(1, 3), density(0, 3), density(1, 2)});
  const double coupled = std::max({density(0, 1), density(2, 3), exchange});
  const double share = QuartetScreen<Kokkos::HostSpace>::kPrimitiveShare * screen.threshold;
  EXPECT_DOUBLE_EQ(screen.primitive_cutoff(0, 1), share / coupled);
  screen.coulomb = false;
  EXPECT_DOUBLE_EQ(screen.primitive_cutoff(0, 1), share / exchange);
  EXPECT_GT(screen.primitive_cutoff(0, 1), 1e4 * share / coupled);
  screen.primitive_screen = false;
  EXPECT_EQ(screen.primitive_cutoff(0, 1), 0.0);
  // Under Schwarz screening the bound is on the integrals alone, whichever updates are made.
  screen.primitive_screen = true;
  screen.by_density = false;
  EXPECT_DOUBLE_EQ(screen.primitive_cutoff(0, 1), share);
}

// The plan on random pairs: every quartet with Q_P Q_Q >= threshold is one rank's candidate
// exactly once and the only candidates Schwarz screening computes, a candidate is within the
// ceilings' factor 16 of the threshold, and the lists
// run by ceiling and then by primitive products, so that neighbouring kets loop alike.
TEST(HfQuartetPlan, ListsEverySurvivorOnceGroupedByCeilingAndContraction) {
  std::mt19937_64 rng(77);
  const int pairs = 400;
  const double threshold = 1e-12;
  // Every kind but (dd): the plan holds the classes of the kinds present and no others.
  std::uniform_int_distribution<int> kind(0, kDD - 1), products(0, 5);
  std::uniform_real_distribution<double> decade(-9.0, 1.0);
  const int product_counts[] = {1, 3, 6, 9, 18, 36};
  std::vector<int> kinds(pairs), primitives(pairs);
  std::vector<double> bound(pairs);
  for (int i = 0; i < pairs; ++i) {
    kinds[i] = kind(rng);
    primitives[i] = product_counts[products(rng)];
    bound[i] = std::pow(10.0, decade(rng));
  }
  for (const int ranks : {1, 3, 8}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    std::map<std::pair<int, int>, int> seen;  // (bra pair, ket pair) -> times computed
    // Schwarz screening computes the candidates the kernels' screen keeps.
    QuartetScreen<Kokkos::HostSpace> screen;
    screen.threshold = threshold;
    screen.pair_bound =
        Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            bound.data(), pairs);
    for (int rank = 0; rank < ranks; ++rank) {
      const QuartetPlan plan = plan_quartets(kinds, primitives, bound, threshold, rank, ranks);
      ASSERT_EQ(plan.classes.size(), static_cast<std::size_t>(kDD * (kDD + 1) / 2));
      for (const ClassPlan& c : plan.classes)
        EXPECT_LT(c.bra_kind, kDD);
      for (const ClassPlan& c : plan.classes) {
        const auto ordered = [&](const std::vector<int>& list, const std::vector<double>& ceiling) {
          ASSERT_EQ(list.size(), ceiling.size());
          for (std::size_t k = 0; k < list.size(); ++k) {
            EXPECT_LE(bound[list[k]], ceiling[k]);
            EXPECT_GT(4.0 * bound[list[k]], ceiling[k]);
            if (k == 0) continue;
            EXPECT_LE(ceiling[k], ceiling[k - 1]);
            if (ceiling[k] == ceiling[k - 1]) {
              EXPECT_LE(primitives[list[k]], primitives[list[k - 1]]);
            }
          }
        };
        ordered(c.bra_pairs, c.bra_ceilings);
        ordered(c.ket_pairs, c.ket_ceilings);
        for (std::size_t p = 1; p < c.ket_uncut.size(); ++p)
          EXPECT_LE(c.ket_uncut[p], c.ket_uncut[p - 1]);
        ASSERT_EQ(c.offsets.size(), c.bra_pairs.size() + 1);
        for (std::size_t p = 0; p < c.bra_pairs.size(); ++p)
          EXPECT_EQ(c.offsets[p + 1] - c.offsets[p], c.ket_count[p]);
        for (const auto& [first, end] : c.share)
          for (int p = first; p < end; ++p) {
            for (int q = 0; q < c.ket_count[p]; ++q) {
              const int bra = c.bra_pairs[p], ket = c.ket_pairs[q];
              EXPECT_GE(bound[bra] * bound[ket], threshold / 16.0);
              EXPECT_EQ(screen.keeps(bra, ket), bound[bra] * bound[ket] >= threshold);
              if (screen.keeps(bra, ket)) ++seen[{std::max(bra, ket), std::min(bra, ket)}];
            }
          }
      }
    }
    int survivors = 0;
    for (int x = 0; x < pairs; ++x)
      for (int y = 0; y <= x; ++y)
        if (bound[x] * bound[y] >= threshold) {
          ++survivors;
          const auto found = seen.find({x, y});
          EXPECT_TRUE(found != seen.end() && found->second == 1)
              << "pairs " << x << ", " << y << " listed "
              << (found == seen.end() ? 0 : found->second) << " times";
        }
    EXPECT_EQ(static_cast<int>(seen.size()), survivors);
    EXPECT_GT(survivors, 1000);
  }
}

// The ranks' shares: on random primitive counts and candidate prefixes, every bra is one rank's
// exactly once, each rank's stripes ascend without touching, and each rank's estimated cost is
// the total's even share within one bra's cost per stripe. Dealt back and forth, stripes of a
// cost that falls steadily along the list favour no rank: within the same bound.
TEST(HfQuartetPlan, SharesCoverEveryBraOnceAtAboutEqualCost) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int> primitives(1, 36), kets(0, 300);
  ClassPlan c;
  const int bras = 2000, ket_pairs = 300;
  c.bra_pairs.assign(bras, 0);
  for (int p = 0; p < bras; ++p)
    c.bra_primitives.push_back(primitives(rng));
  c.ket_primitives_before.assign(1, 0.0);
  for (int q = 0; q < ket_pairs; ++q)
    c.ket_primitives_before.push_back(c.ket_primitives_before.back() + primitives(rng));
  std::vector<int> count(bras);
  for (int& n : count)
    n = kets(rng);
  std::sort(count.rbegin(), count.rend());  // prefixes shrink down the bras, as the plan's do
  const std::vector<double> before = bra_cost_before(c, count.data());
  ASSERT_EQ(before.size(), static_cast<std::size_t>(bras + 1));
  double largest = 0.0;
  for (int p = 0; p < bras; ++p) {
    EXPECT_DOUBLE_EQ(before[p + 1] - before[p],
                     c.bra_primitives[p] * c.ket_primitives_before[count[p]]);
    largest = std::max(largest, before[p + 1] - before[p]);
  }
  for (const int ranks : {1, 2, 3, 7, 16}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    std::vector<int> owner(bras, -1);
    for (int rank = 0; rank < ranks; ++rank) {
      const auto share = bra_share(before, rank, ranks, kStripesPerRank);
      if (ranks == 1) {
        EXPECT_EQ(share, (std::vector<std::array<int, 2>>{{0, bras}}));
      }
      double cost = 0.0;
      int previous_end = -1;
      for (const auto& [first, end] : share) {
        EXPECT_LT(previous_end, first);
        EXPECT_LT(first, end);
        previous_end = end;
        cost += before[end] - before[first];
        for (int p = first; p < end; ++p) {
          EXPECT_EQ(owner[p], -1) << "bra " << p;
          owner[p] = rank;
        }
      }
      EXPECT_NEAR(cost, before.back() / ranks, kStripesPerRank * largest) << "rank " << rank;
    }
    EXPECT_EQ(std::count(owner.begin(), owner.end(), -1), 0);
  }
}

// The shares cut by a build's measure: each stripe's estimate scaled by its kept fraction. On
// random fractions (some stripes keeping nothing), the measured costs add up stripe by stripe,
// every bra is one rank's exactly once, and each rank's measured cost is the total's even share
// within one bra's cost per stripe. A cut that hands a stripe to two ranks, or to none, fails.
TEST(HfQuartetPlan, MeasuredSharesCoverEveryBraOnceAtAboutEqualMeasuredCost) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> primitives(1, 36);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const int bras = 3000;
  std::vector<double> estimate(bras + 1, 0.0);
  for (int p = 0; p < bras; ++p)
    estimate[p + 1] = estimate[p] + primitives(rng) * (bras - p);  // falling along the list
  for (const int ranks : {2, 3, 4, 7}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const int stripes = stripes_of(ranks, kStripesPerRank);
    ASSERT_EQ(stripes, ranks * kStripesPerRank);
    const std::vector<int> bounds = stripe_bounds(estimate, stripes);
    std::vector<double> kept(stripes);
    for (double& f : kept)
      f = uniform(rng) < 0.2 ? 0.0 : uniform(rng) * uniform(rng);
    const std::vector<double> measured = measured_cost_before(estimate, bounds, kept);
    ASSERT_EQ(measured.size(), estimate.size());
    double largest = 0.0;
    for (int k = 0; k < stripes; ++k) {
      EXPECT_NEAR(measured[bounds[k + 1]] - measured[bounds[k]],
                  kept[k] * (estimate[bounds[k + 1]] - estimate[bounds[k]]),
                  1e-9 * measured.back());
      for (int p = bounds[k]; p < bounds[k + 1]; ++p)
        largest = std::max(largest, measured[p + 1] - measured[p]);
    }
    ASSERT_GT(measured.back(), 0.0);
    std::vector<int> owner(bras, -1);
    for (int rank = 0; rank < ranks; ++rank) {
      ClassPlan c;
      c.deal(measured, rank, ranks);
      ASSERT_EQ(c.stripes.size(), static_cast<std::size_t>(stripes) + 1);
      double cost = 0.0;
      for (const auto& [first, end] : c.share) {
        cost += measured[end] - measured[first];
        for (int p = first; p < end; ++p) {
          EXPECT_EQ(owner[p], -1) << "bra " << p;
          owner[p] = rank;
        }
      }
      EXPECT_NEAR(cost, measured.back() / ranks, kStripesPerRank * largest) << "rank " << rank;
    }
    EXPECT_EQ(std::count(owner.begin(), owner.end(), -1), 0);
  }
}

}  // namespace
}  // namespace kmini::hf
