// GBuilder's plan, screen and builds. The quartet classes' kernels are launched from
// g_build_class.hpp, compiled in g_build_classes_*.cpp.
#include "hf/fock/g_build.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <utility>

#include "core/host_backends.hpp"
#include "core/timing.hpp"
#include "core/view_of.hpp"
#include "hf/fock/g_build_state.hpp"
#include "hf/integrals/eri.hpp"  // with_quartet_class
#include "hf/screening/schwarz.hpp"

namespace kmini::hf {

double GBuildRecord::total_computed() const {
  return std::accumulate(computed.begin(), computed.end(), 0.0);
}

double GBuildRecord::total_seconds() const {
  return std::accumulate(seconds.begin(), seconds.end(), 0.0);
}

namespace {

using Impl::Device;
using Impl::Host;

template <class Memory>
using IntView = Kokkos::View<int*, Memory>;

// Compressed rows: for each key in [0, keys), the positions whose key it is, ascending.
void compress(const std::vector<std::pair<int, int>>& key_position, int keys,
              std::vector<int>& begin, std::vector<int>& items) {
  begin.assign(static_cast<std::size_t>(keys) + 1, 0);
  for (const auto& kp : key_position)
    ++begin[static_cast<std::size_t>(kp.first) + 1];
  for (int k = 0; k < keys; ++k)
    begin[k + 1] += begin[k];
  items.assign(key_position.size(), 0);
  std::vector<int> next(begin.begin(), begin.end() - 1);
  for (const auto& kp : key_position)  // positions arrive ascending, so rows stay sorted
    items[static_cast<std::size_t>(next[kp.first]++)] = kp.second;
}

template <class Memory>
ClassData<Memory> class_data(const ClassPlan& plan,
                             const std::vector<std::array<int, 2>>& pair_shells,
                             const std::vector<double>& bounds, int shells) {
  ClassData<Memory> data;
  const auto ints = [](const char* label, const std::vector<int>& values) {
    return view_of<IntView<Memory>>(label, values);
  };
  const auto screened = [&](const char* label, const std::vector<int>& pairs) {
    std::vector<ScreenedPair> out;
    for (const int pair : pairs)
      out.push_back({bounds[pair], {pair_shells[pair][0], pair_shells[pair][1]}});
    return view_of<Kokkos::View<ScreenedPair*, Memory>>(label, out);
  };
  data.bra_kind = plan.bra_kind;
  data.ket_kind = plan.ket_kind;
  data.bra_pairs = ints("hf::bra_pairs", plan.bra_pairs);
  data.ket_pairs = ints("hf::ket_pairs", plan.ket_pairs);
  data.bra_screen = screened("hf::bra_screen", plan.bra_pairs);
  data.ket_screen = screened("hf::ket_screen", plan.ket_pairs);
  data.bra_ceilings = view_of<Kokkos::View<double*, Memory>>("hf::bra_ceilings", plan.bra_ceilings);
  data.ket_ceilings = view_of<Kokkos::View<double*, Memory>>("hf::ket_ceilings", plan.ket_ceilings);
  data.ket_uncut = ints("hf::ket_uncut", plan.ket_uncut);
  data.bra_begin = 0;  // every bra: a rank's share is a choice of ranges among them
  data.bra_end = static_cast<int>(plan.bra_pairs.size());
  data.ket_count = ints("hf::ket_count", plan.ket_count);
  data.bra_reach = ints("hf::bra_reach", plan.bra_reach);
  data.offsets = view_of<Kokkos::View<std::int64_t*, Memory>>("hf::quartet_offsets", plan.offsets);

  std::vector<int> bra_position(pair_shells.size(), -1), ket_position(pair_shells.size(), -1);
  std::vector<std::pair<int, int>> bra_a, bra_b, ket_c, ket_d;
  for (int p = 0; p < data.bra_end; ++p) {
    const int pair = plan.bra_pairs[p];
    bra_position[pair] = p;
    bra_a.push_back({pair_shells[pair][0], p});
    bra_b.push_back({pair_shells[pair][1], p});
  }
  for (int q = 0; q < static_cast<int>(plan.ket_pairs.size()); ++q) {
    const int pair = plan.ket_pairs[q];
    ket_position[pair] = q;
    ket_c.push_back({pair_shells[pair][0], q});
    ket_d.push_back({pair_shells[pair][1], q});
  }
  data.bra_position = ints("hf::bra_position", bra_position);
  data.ket_position = ints("hf::ket_position", ket_position);
  std::vector<int> begin, items;
  compress(bra_a, shells, begin, items);
  data.bra_first_begin = ints("hf::bra_first_begin", begin);
  data.bra_first = ints("hf::bra_first", items);
  compress(bra_b, shells, begin, items);
  data.bra_second_begin = ints("hf::bra_second_begin", begin);
  data.bra_second = ints("hf::bra_second", items);
  compress(ket_c, shells, begin, items);
  data.ket_first_begin = ints("hf::ket_first_begin", begin);
  data.ket_first = ints("hf::ket_first", items);
  compress(ket_d, shells, begin, items);
  data.ket_second_begin = ints("hf::ket_second_begin", begin);
  data.ket_second = ints("hf::ket_second", items);
  return data;
}

// Views for a class's per-build prefixes, and the class data pointed at them.
template <class Memory>
ClassCut<Memory> cut_views(const ClassPlan& plan, ClassData<Memory>& data) {
  ClassCut<Memory> cut;
  cut.ket_count = IntView<Memory>("hf::cut_ket_count", plan.bra_pairs.size());
  cut.ket_uncut = IntView<Memory>("hf::cut_ket_uncut", plan.bra_pairs.size());
  cut.bra_reach = IntView<Memory>("hf::cut_bra_reach", plan.ket_pairs.size());
  cut.offsets = Kokkos::View<std::int64_t*, Memory>("hf::cut_offsets", plan.bra_pairs.size() + 1);
  data.ket_count = cut.ket_count;
  data.bra_reach = cut.bra_reach;
  data.offsets = cut.offsets;
  return cut;
}

template <class Memory>
void copy_cut(const ClassCut<Memory>& to, const ClassCut<DeviceMemory>& from) {
  Kokkos::deep_copy(to.ket_count, from.ket_count);
  Kokkos::deep_copy(to.ket_uncut, from.ket_uncut);
  Kokkos::deep_copy(to.bra_reach, from.bra_reach);
  Kokkos::deep_copy(to.offsets, from.offsets);
}

// g += other.
void add_into(const Matrix<DeviceMemory>& g, const Matrix<DeviceMemory>& other) {
  Kokkos::parallel_for(
      "hf::add_host_g",
      Kokkos::MDRangePolicy<Device, Kokkos::Rank<2, Kokkos::Iterate::Left>>(
          {0, 0}, {static_cast<std::int64_t>(g.extent(0)), static_cast<std::int64_t>(g.extent(1))}),
      KOKKOS_LAMBDA(const std::int64_t r, const std::int64_t c) { g(r, c) += other(r, c); });
}

// g = (g + g^T) / 2.
template <class Exec>
void symmetrise(const Matrix<typename Exec::memory_space>& g) {
  const int n = static_cast<int>(g.extent(0));
  Kokkos::parallel_for(
      "hf::symmetrise_g", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const int i) {
        for (int j = 0; j < i; ++j) {
          const double mean = 0.5 * (g(i, j) + g(j, i));
          g(i, j) = mean;
          g(j, i) = mean;
        }
      });
}

// Each class's index and its with_quartet_class type.
template <class F>
void with_class(const QuartetPlan& plan, std::size_t i, F&& f) {
  with_quartet_class(plan.classes[i].bra_kind, plan.classes[i].ket_kind, f);
}

// A host has far fewer threads than a GPU: its first launch of a class holds at most this many
// quartets of 64 integrals, a few tenths of a second on two cores, where the GPU's
// chunk_quartets took seconds there before its launches were first timed.
constexpr std::int64_t kHostFirstChunkQuartets = std::int64_t{1} << 17;

}  // namespace

GBuilder::GBuilder(const MolecularBasis& basis, const GBuildSettings& settings, int rank, int ranks)
    : GBuilder(basis, bounded_pairs(basis, settings.threshold, settings.setup_stop_requested),
               settings, rank, ranks) {}

GBuilder::GBuilder(const MolecularBasis& basis, const BoundedPairs& pairs,
                   const GBuildSettings& settings, int rank, int ranks)
    : basis_(basis),
      settings_(settings),
      rank_(rank),
      ranks_(ranks),
      pair_shells_(pairs.shells),
      host_pairs_(pairs.host),
      pair_kinds_(pairs.kinds) {
  for (std::size_t i = 0; i < pair_shells_.size(); ++i)
    pair_primitives_.push_back(host_pairs_.primitives_begin(i + 1) -
                               host_pairs_.primitives_begin(i));
  const auto setup_stop = settings_.setup_stop_requested;
  schwarz_ = schwarz_bounds(host_pairs_, pair_kinds_, setup_stop);
  // Unfinished bounds plan nothing worth having: the caller's safe point throws the builder away.
  if (setup_stop != nullptr && setup_stop()) return;
  // Densities of closed shells in normalised functions rarely reach 2.5 (|D_ij| <= 2 where the
  // functions are orthonormal); a build with a larger one plans again.
  covered_density_ = 4.0;
  make_plan();
}

GBuilder::~GBuilder() = default;

void GBuilder::make_plan() {
  const double plan_threshold = settings_.screening == Screening::density
                                    ? settings_.threshold / covered_density_
                                    : settings_.threshold;
  plan_ = plan_quartets(pair_kinds_, pair_primitives_, schwarz_, plan_threshold, rank_, ranks_);
  device_ = make_tables<DeviceMemory>();
  host_.reset();
  kept_.assign(plan_.classes.size(), 0.0);
  coulomb_only_.assign(plan_.classes.size(), 0.0);
  list_seconds_.assign(plan_.classes.size(), 0.0);
  clear_range_kept();
}

void GBuilder::clear_range_kept() {
  range_kept_.clear();
  for (const ClassPlan& c : plan_.classes)
    range_kept_.emplace_back(c.share.size(), 0.0);
}

std::vector<double> GBuilder::stripe_kept_fractions() const {
  const int stripes = stripes_of(ranks_, kStripesPerRank);
  std::vector<double> out(plan_.classes.size() * static_cast<std::size_t>(stripes), 0.0);
  for (std::size_t i = 0; i < plan_.classes.size(); ++i) {
    const ClassPlan& c = plan_.classes[i];
    // A range is one or more whole stripes (dealt_share merges neighbours): each gets the
    // range's fraction.
    std::size_t k = 0;
    for (std::size_t r = 0; r < c.share.size(); ++r) {
      const auto [first, end] = c.share[r];
      const double candidates = static_cast<double>(c.offsets[end] - c.offsets[first]);
      const double fraction = candidates > 0.0 ? range_kept_[i][r] / candidates : 0.0;
      while (c.stripes[k + 1] <= first)
        ++k;
      for (; k < c.stripes.size() - 1 && c.stripes[k + 1] <= end; ++k)
        out[i * stripes + k] = fraction;
    }
  }
  return out;
}

void GBuilder::deal_by_kept(const std::vector<double>& fractions) {
  const std::size_t stripes = static_cast<std::size_t>(stripes_of(ranks_, kStripesPerRank));
  for (std::size_t i = 0; i < plan_.classes.size(); ++i) {
    ClassPlan& c = plan_.classes[i];
    const std::vector<double> kept(fractions.begin() + i * stripes,
                                   fractions.begin() + (i + 1) * stripes);
    // Within a class a kept quartet costs about the same, whatever its primitives: the four-GPU
    // builds' own times followed their quartet counts (docs/notes/scaling.md), so the measured
    // cost is kept quartets, not the estimate's primitive products.
    const std::vector<double> candidates(c.offsets.begin(), c.offsets.end());
    const std::vector<double> before = measured_cost_before(candidates, c.stripes, kept);
    if (before.back() > 0.0) c.deal(before, rank_, ranks_);
  }
  clear_range_kept();
}

template <class Memory>
std::unique_ptr<GBuilder::Tables<Memory>> GBuilder::make_tables() const {
  auto t = std::make_unique<Tables<Memory>>();
  t->pairs = copy_shell_pairs<Memory>(host_pairs_);
  t->boys = make_boys_table<Memory>();
  const int shells = static_cast<int>(basis_.shells.size());
  std::vector<int> first(shells), functions(shells);
  for (int s = 0; s < shells; ++s) {
    first[s] = basis_.shells[s].first_function;
    functions[s] = cartesian_functions(basis_.shells[s].l);
  }
  t->shells.first_function = view_of<IntView<Memory>>("hf::shell_first", first);
  t->shells.functions = view_of<IntView<Memory>>("hf::shell_functions", functions);
  Kokkos::View<int**, Kokkos::LayoutRight, Memory> pair_of("hf::pair_of", shells, shells);
  auto host_pair_of = Kokkos::create_mirror_view(pair_of);
  Kokkos::deep_copy(host_pair_of, -1);
  for (std::size_t i = 0; i < pair_shells_.size(); ++i)
    host_pair_of(pair_shells_[i][0], pair_shells_[i][1]) = static_cast<int>(i);
  Kokkos::deep_copy(pair_of, host_pair_of);
  t->shells.pair_of = pair_of;
  t->kept_count = Kokkos::View<int[2], Memory>("hf::kept_count");
  // A launch's time grows with its quartets' integrals: a class's first chunks hold about as
  // many as chunk_quartets quartets of 64 integrals, and time then sizes them (TimedChunks).
  const std::int64_t first_chunk = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible
                                       ? std::min(settings_.chunk_quartets, kHostFirstChunkQuartets)
                                       : settings_.chunk_quartets;
  for (std::size_t i = 0; i < plan_.classes.size(); ++i)
    with_class(plan_, i, [&](auto cls) {
      const std::int64_t by_integrals = first_chunk * 64 / decltype(cls)::integrals;
      t->chunks.emplace_back(std::min(first_chunk, by_integrals), settings_.smallest_chunk_quartets,
                             settings_.launch_seconds);
      // A batch's gather and host additions in one launch each at first.
      t->gather_chunks.emplace_back(std::int64_t{shells} * shells, settings_.smallest_gather_blocks,
                                    settings_.launch_seconds);
      t->buffered_chunks.emplace_back(std::numeric_limits<std::int64_t>::max(),
                                      settings_.smallest_host_additions, settings_.launch_seconds);
    });
  const bool by_density = settings_.screening == Screening::density;
  for (const ClassPlan& c : plan_.classes) {
    t->classes.push_back(class_data<Memory>(c, pair_shells_, schwarz_, shells));
    if (by_density) t->cuts.push_back(cut_views<Memory>(c, t->classes.back()));
  }
  t->screen.by_density = by_density;
  t->screen.primitive_screen = settings_.primitive_screening;
  t->screen.threshold = settings_.threshold;
  t->screen.coulomb = settings_.coulomb;
  t->screen.pair_bound = view_of<Kokkos::View<double*, Memory>>("hf::pair_bound", schwarz_);
  if (by_density) {
    t->shell_density =
        Kokkos::View<double**, Kokkos::LayoutRight, Memory>("hf::shell_density", shells, shells);
    t->screen.shell_density = t->shell_density;
    t->screen.pair_shells = t->pairs.shells;
  }
  return t;
}

void GBuilder::screen(const Matrix<DeviceMemory>& density, Build& build) {
  const std::size_t classes = plan_.classes.size();
  build.candidates.assign(classes, 0);
  build.totals.assign(classes, 0);
  kept_.assign(classes, 0.0);
  coulomb_only_.assign(classes, 0.0);
  list_seconds_.assign(classes, 0.0);
  clear_range_kept();
  build.host_offsets.assign(classes, {});
  last_.largest_density = 0.0;
  last_.longest_chunk_seconds = 0.0;
  if (settings_.screening == Screening::schwarz) {
    for (std::size_t i = 0; i < classes; ++i) {
      build.totals[i] = plan_.classes[i].quartets();
      build.candidates[i] = plan_.classes[i].share_of(plan_.classes[i].offsets);
    }
    return;
  }
  double largest = shell_density_maxima<Device>(density, device_->shells, device_->shell_density);
  if (largest > covered_density_) {
    covered_density_ = 2.0 * largest;
    make_plan();
    largest = shell_density_maxima<Device>(density, device_->shells, device_->shell_density);
  }
  last_.largest_density = largest;
  if (largest == 0.0) return;  // a zero density (no change): no quartet contributes
  // Every kernel of this build, and the host's tables, test against the same threshold. The
  // plan's prefixes reach it: a scale below 1 is max|change| / max|density| or more
  // (incremental_g.hpp), and the full builds keep max|density| under covered_density_.
  const double threshold = settings_.threshold * threshold_scale_;
  device_->screen.threshold = threshold;
  if (host_) host_->screen.threshold = threshold;
  for (std::size_t i = 0; i < classes; ++i) {
    if (plan_.classes[i].quartets() == 0) continue;
    build.totals[i] = cut_class<Device>(device_->classes[i], threshold, largest, device_->cuts[i]);
    build.candidates[i] = ranks_ == 1 || build.totals[i] == 0
                              ? build.totals[i]
                              : plan_.classes[i].share_of(offsets(i, build));
  }
}

const std::vector<std::int64_t>& GBuilder::offsets(std::size_t i, Build& build) const {
  if (settings_.screening == Screening::schwarz) return plan_.classes[i].offsets;
  std::vector<std::int64_t>& out = build.host_offsets[i];
  if (out.empty()) {
    const auto host = Kokkos::create_mirror_view_and_copy(Host(), device_->cuts[i].offsets);
    out.assign(host.data(), host.data() + host.size());
  }
  return out;
}

std::vector<std::array<int, 2>> GBuilder::batches(std::size_t i, int bra_begin, int bra_end,
                                                  Build& build) const {
  const std::vector<std::int64_t>& at = offsets(i, build);
  double per_quartet = 0.0;
  with_class(plan_, i, [&](auto cls) { per_quartet = sizeof(double) * decltype(cls)::integrals; });
  std::vector<std::array<int, 2>> out;
  int begin = bra_begin;
  while (begin < bra_end) {
    int end = begin + 1;  // at least one bra, whatever its size
    while (end < bra_end &&
           static_cast<double>(at[end + 1] - at[begin]) * per_quartet <= settings_.batch_bytes)
      ++end;
    out.push_back({begin, end});
    begin = end;
  }
  return out;
}

void GBuilder::build(const GUpdate& update, const Matrix<DeviceMemory>& density,
                     const Matrix<DeviceMemory>& g) {
  build_by_class(std::vector<const GUpdate*>(plan_.classes.size(), &update), density, g);
}

void GBuilder::build_by_class(const std::vector<const GUpdate*>& updates,
                              const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g) {
  Build build;
  build.density = density;
  build.g = g;
  Kokkos::deep_copy(g, 0.0);
  screen(density, build);
  const std::size_t classes = plan_.classes.size();
  last_.seconds.assign(classes, 0.0);
  for (std::size_t i = 0; i < classes; ++i) {
    if (build.candidates[i] == 0) continue;
    if (stopping()) break;
    // Fenced on both sides, so that each class's time is its own.
    Kokkos::fence();
    const auto start = std::chrono::steady_clock::now();
    for (const auto& [first, end] : plan_.classes[i].share)
      run_class(*updates.at(i), i, first, end, build);
    Kokkos::fence();
    last_.seconds[i] = seconds_since(start);
  }
  finish(build, g);
}

void GBuilder::run_class(const GUpdate& update, std::size_t i, std::int64_t bra_begin,
                         std::int64_t bra_end, Build& build) {
  ClassShare share(*this, i, static_cast<int>(bra_begin), static_cast<int>(bra_end), &build,
                   nullptr);
  if (share.empty()) return;
  const double before = kept_[i];
  update.action.build(share);
  // The share's range that holds these bras (auto's trial builds a range in pieces).
  const std::vector<std::array<int, 2>>& ranges = plan_.classes[i].share;
  const auto range =
      std::upper_bound(ranges.begin(), ranges.end(), bra_begin,
                       [](std::int64_t bra, const std::array<int, 2>& r) { return bra < r[0]; }) -
      ranges.begin() - 1;
  range_kept_[i][range] += kept_[i] - before;
}

std::array<std::int64_t, 2> GBuilder::quartet_range(std::size_t i, int bra_begin, int bra_end,
                                                    Build& build) const {
  // The whole class (a lone rank's share): no offsets needed on the host.
  if (bra_begin == 0 && bra_end == static_cast<int>(plan_.classes[i].bra_pairs.size()))
    return {0, build.totals[i]};
  const std::vector<std::int64_t>& at = offsets(i, build);
  return {at[bra_begin], at[bra_end] - at[bra_begin]};
}

GBuilder::HostBuild& GBuilder::host_build(Build& build) {
  if (!host_) {
    host_ = make_tables<Host>();
    host_->screen.threshold = device_->screen.threshold;
  }
  if (!build.host) {
    auto host = std::make_unique<HostBuild>();
    host->density = Kokkos::create_mirror_view_and_copy(Host(), build.density);
    host->g = Matrix<Host>("hf::g_host", build.g.extent(0), build.g.extent(1));
    host->scatter = Kokkos::Experimental::create_scatter_view(host->g);
    // The host tables take this build's screen and prefixes from the device's.
    if (settings_.screening == Screening::density) {
      Kokkos::deep_copy(host_->shell_density, device_->shell_density);
      for (std::size_t k = 0; k < plan_.classes.size(); ++k)
        if (build.candidates[k] > 0) copy_cut(host_->cuts[k], device_->cuts[k]);
    }
    build.host = std::move(host);
  }
  return *build.host;
}

void GBuilder::warm_up(const std::vector<const GUpdate*>& updates,
                       const Matrix<DeviceMemory>& density) {
  const WarmUp warm{density,
                    Matrix<DeviceMemory>("hf::g_warm_up", density.extent(0), density.extent(1))};
  Tables<DeviceMemory>& t = *device_;
  if (t.kept_list.extent(0) == 0) t.kept_list = KeptList<DeviceMemory>("hf::kept_list", 1);
  for (std::size_t i = 0; i < plan_.classes.size(); ++i) {
    if (plan_.classes[i].quartets() == 0) continue;
    // The list holds the class's first candidate.
    const KeptList<DeviceMemory> list = t.kept_list;
    const ClassData<DeviceMemory> data = t.classes[i];
    Kokkos::parallel_for(
        "hf::warm_up_list", Kokkos::RangePolicy<Device>(0, 1), KOKKOS_LAMBDA(const int) {
          int p, q;
          data.quartet(0, p, q);
          list(0, 0) = 0;
          list(0, 1) = p;
        });
    for (const GUpdate* update : updates) {
      ClassShare share(*this, i, 0, 0, nullptr, &warm);
      update->action.build(share);
    }
  }
  Kokkos::fence();
}

bool ClassShare::empty() const {
  return warm_ == nullptr && builder_.quartet_range(i_, bra_begin_, bra_end_, *build_)[1] == 0;
}

void ClassShare::scatter(DeviceAdd add) {
  with_class(builder_.plan_, i_, [&](auto cls) {
    using Class = decltype(cls);
    if (warm_ != nullptr)
      builder_.warm_up_scatter<Class>(add, i_, *warm_);
    else
      builder_.scatter<Class>(add, i_, bra_begin_, bra_end_, *build_);
  });
}

void ClassShare::store_and_gather() {
  if (warm_ != nullptr) return;
  with_class(builder_.plan_, i_,
             [&](auto cls) { builder_.split<decltype(cls)>(i_, bra_begin_, bra_end_, *build_); });
}

void ClassShare::store_and_add_on_host() {
  if (warm_ != nullptr) return;
  with_class(builder_.plan_, i_, [&](auto cls) {
    builder_.add_batches_on_host<decltype(cls)>(i_, bra_begin_, bra_end_, *build_);
  });
}

void ClassShare::compute_on_host() {
  if (warm_ != nullptr) return;
  with_class(builder_.plan_, i_, [&](auto cls) {
    builder_.compute_on_host<decltype(cls)>(i_, bra_begin_, bra_end_, *build_);
  });
}

void GBuilder::finish(Build& build, const Matrix<DeviceMemory>& g) {
  if (build.host) {
    HostBuild& host = *build.host;
    Kokkos::Experimental::contribute(host.g, host.scatter);
    add_into(g, Kokkos::create_mirror_view_and_copy(DeviceMemory(), host.g));
  }
  symmetrise<Device>(g);
  Kokkos::fence();
  const std::size_t classes = plan_.classes.size();
  last_.candidates.assign(classes, 0.0);
  last_.computed = kept_;
  last_.coulomb_only = coulomb_only_;
  last_.list_seconds = list_seconds_;
  for (std::size_t i = 0; i < classes; ++i)
    last_.candidates[i] = static_cast<double>(build.candidates[i]);
}

}  // namespace kmini::hf
