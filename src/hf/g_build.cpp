#include "hf/g_build.hpp"

#include <Kokkos_ScatterView.hpp>
#include <algorithm>
#include <chrono>
#include <utility>

#include "core/host_backends.hpp"
#include "core/view_of.hpp"
#include "hf/boys.hpp"

namespace kmini::hf {

template <class Memory>
struct GBuilder::Tables {
  ShellPairs<Memory> pairs;
  BoysTable<Memory> boys;
  ShellData<Memory> shells;
  std::vector<ClassData<Memory>> classes;
};

namespace {

using Device = Kokkos::DefaultExecutionSpace;
using Host = Kokkos::HostSpace;

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
                             const std::vector<std::array<int, 2>>& pair_shells, int shells) {
  ClassData<Memory> data;
  const auto ints = [](const char* label, const std::vector<int>& values) {
    return view_of<IntView<Memory>>(label, values);
  };
  data.bra_kind = plan.bra_kind;
  data.ket_kind = plan.ket_kind;
  data.bra_pairs = ints("hf::bra_pairs", plan.bra_pairs);
  data.ket_pairs = ints("hf::ket_pairs", plan.ket_pairs);
  data.ket_count = ints("hf::ket_count", plan.ket_count);
  data.bra_reach = ints("hf::bra_reach", plan.bra_reach);
  data.offsets = view_of<Kokkos::View<std::int64_t*, Memory>>("hf::quartet_offsets", plan.offsets);
  data.bra_begin = plan.bra_begin;
  data.bra_end = plan.bra_end;

  std::vector<int> bra_position(pair_shells.size(), -1), ket_position(pair_shells.size(), -1);
  std::vector<std::pair<int, int>> bra_a, bra_b, ket_c, ket_d;
  for (int p = plan.bra_begin; p < plan.bra_end; ++p) {
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

// Runs f(Class) for each planned class with quartets on this rank, with the class's index.
template <class F>
void for_each_class(const QuartetPlan& plan, F&& f) {
  for (std::size_t i = 0; i < plan.classes.size(); ++i) {
    const ClassPlan& c = plan.classes[i];
    if (c.local_quartets() == 0) continue;
    with_quartet_class(c.bra_kind, c.ket_kind, [&](auto cls) { f(cls, i); });
  }
}

// Lanes per team of kernel_split's gather: a warp on a GPU. The host has far fewer threads than
// blocks and gains nothing from lanes, but takes as many as its teams allow (up to 4) so that
// the tests on the host run the lanes' split and their ordered sum.
constexpr int kGatherLanes =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMemory>::accessible ? 4 : 32;

// "hf::eri_ppps" and the like: every kernel named after its class, for profilers.
template <class Class>
std::string kernel_label(const char* stem) {
  return std::string("hf::") + stem + pair_kind_name(Class::bra_kind) +
         pair_kind_name(Class::ket_kind);
}

}  // namespace

GBuilder::GBuilder(const MolecularBasis& basis, const std::vector<std::array<int, 2>>& pair_shells,
                   const ShellPairs<Kokkos::HostSpace>& pairs, const QuartetPlan& plan,
                   double batch_bytes)
    : basis_(basis),
      pair_shells_(pair_shells),
      host_pairs_(pairs),
      plan_(plan),
      batch_bytes_(batch_bytes),
      device_(std::make_unique<Tables<DeviceMemory>>(make_tables<DeviceMemory>())) {
  for (const ClassPlan& c : plan_.classes) {
    with_quartet_class(c.bra_kind, c.ket_kind, [&](auto cls) {
      quartets_ += static_cast<double>(c.local_quartets());
      integrals_ += static_cast<double>(c.local_quartets()) * decltype(cls)::integrals;
    });
  }
}

GBuilder::~GBuilder() = default;

template <class Memory>
GBuilder::Tables<Memory> GBuilder::make_tables() const {
  Tables<Memory> t;
  t.pairs = copy_shell_pairs<Memory>(host_pairs_);
  t.boys = make_boys_table<Memory>();
  const int shells = static_cast<int>(basis_.shells.size());
  std::vector<int> first(shells), functions(shells);
  for (int s = 0; s < shells; ++s) {
    first[s] = basis_.shells[s].first_function;
    functions[s] = cartesian_functions(basis_.shells[s].l);
  }
  t.shells.first_function = view_of<IntView<Memory>>("hf::shell_first", first);
  t.shells.functions = view_of<IntView<Memory>>("hf::shell_functions", functions);
  Kokkos::View<int**, Kokkos::LayoutRight, Memory> pair_of("hf::pair_of", shells, shells);
  auto host_pair_of = Kokkos::create_mirror_view(pair_of);
  Kokkos::deep_copy(host_pair_of, -1);
  for (std::size_t i = 0; i < pair_shells_.size(); ++i)
    host_pair_of(pair_shells_[i][0], pair_shells_[i][1]) = static_cast<int>(i);
  Kokkos::deep_copy(pair_of, host_pair_of);
  t.shells.pair_of = pair_of;
  for (const ClassPlan& c : plan_.classes)
    t.classes.push_back(class_data<Memory>(c, pair_shells_, shells));
  return t;
}

std::vector<std::array<int, 2>> GBuilder::batches(const ClassPlan& plan) const {
  std::vector<std::array<int, 2>> out;
  double per_quartet = 0.0;
  with_quartet_class(plan.bra_kind, plan.ket_kind,
                     [&](auto cls) { per_quartet = sizeof(double) * decltype(cls)::integrals; });
  int begin = plan.bra_begin;
  while (begin < plan.bra_end) {
    int end = begin + 1;  // at least one bra, whatever its size
    while (end < plan.bra_end && static_cast<double>(plan.offsets[end + 1 - plan.bra_begin] -
                                                     plan.offsets[begin - plan.bra_begin]) *
                                         per_quartet <=
                                     batch_bytes_)
      ++end;
    out.push_back({begin, end});
    begin = end;
  }
  return out;
}

template <class Class>
std::size_t GBuilder::compute_batch(std::size_t class_index, std::int64_t first,
                                    std::int64_t count) {
  const auto needed = static_cast<std::size_t>(count * Class::integrals);
  if (buffer_.extent(0) < needed)
    buffer_ = Kokkos::View<double*, DeviceMemory>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hf::eri_buffer")), needed);
  batch_capacity_ = std::max(batch_capacity_, static_cast<double>(needed));
  const Tables<DeviceMemory>& t = *device_;
  Kokkos::parallel_for(kernel_label<Class>("eri_"),
                       Kokkos::RangePolicy<Device, Kokkos::IndexType<std::int64_t>>(0, count),
                       ComputeQuartets<Class, DeviceMemory>{t.pairs, t.boys, t.classes[class_index],
                                                            buffer_, first});
  return needed;
}

// The host's part of a build where some classes are host_update or cpu: the density copied over
// once, and a G private to each host thread, added into the device's G at the end.
struct GBuilder::HostPart {
  Matrix<Host> density;
  Matrix<Host> g;
  decltype(Kokkos::Experimental::create_scatter_view(std::declval<Matrix<Host>>())) scatter;
};

void GBuilder::build(GUpdate update, const Matrix<DeviceMemory>& density,
                     const Matrix<DeviceMemory>& g) {
  build_by_class(std::vector<GUpdate>(plan_.classes.size(), update), density, g);
}

void GBuilder::build_by_class(const std::vector<GUpdate>& updates,
                              const Matrix<DeviceMemory>& density, const Matrix<DeviceMemory>& g,
                              std::vector<double>* class_seconds) {
  Kokkos::deep_copy(g, 0.0);
  if (class_seconds != nullptr) class_seconds->assign(plan_.classes.size(), 0.0);
  std::unique_ptr<HostPart> host;
  for_each_class(plan_, [&](auto cls, std::size_t i) {
    using Class = decltype(cls);
    if (class_seconds != nullptr) Kokkos::fence();  // only auto's trials time the classes
    const auto start = std::chrono::steady_clock::now();
    switch (updates.at(i)) {
      case GUpdate::atomic:
        scatter_class<Class, PlainAtomicAdd<DeviceMemory>>(i, density, g);
        break;
      case GUpdate::warp_aggregated:
        scatter_class<Class, WarpAggregatedAdd<DeviceMemory>>(i, density, g);
        break;
      case GUpdate::kernel_split:
        split_class<Class>(i, density, g);
        break;
      case GUpdate::host_update:
      case GUpdate::cpu:
        if (!host_) host_ = std::make_unique<Tables<Host>>(make_tables<Host>());
        if (!host) {
          host = std::make_unique<HostPart>();
          host->density = Kokkos::create_mirror_view_and_copy(Host(), density);
          host->g = Matrix<Host>("hf::g_host", g.extent(0), g.extent(1));
          host->scatter = Kokkos::Experimental::create_scatter_view(host->g);
        }
        host_class<Class>(updates[i], i, *host);
        break;
    }
    if (class_seconds != nullptr) {
      Kokkos::fence();
      (*class_seconds)[i] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  });
  if (host) {
    Kokkos::Experimental::contribute(host->g, host->scatter);
    const auto from_host = Kokkos::create_mirror_view_and_copy(DeviceMemory(), host->g);
    Kokkos::parallel_for(
        "hf::add_host_g",
        Kokkos::MDRangePolicy<Device, Kokkos::Rank<2, Kokkos::Iterate::Left>>(
            {0, 0},
            {static_cast<std::int64_t>(g.extent(0)), static_cast<std::int64_t>(g.extent(1))}),
        KOKKOS_LAMBDA(const std::int64_t r, const std::int64_t c) { g(r, c) += from_host(r, c); });
  }
  symmetrise<Device>(g);
  Kokkos::fence();
}

template <class Class, class Add>
void GBuilder::scatter_class(std::size_t i, const Matrix<DeviceMemory>& density,
                             const Matrix<DeviceMemory>& g) {
  const Tables<DeviceMemory>& t = *device_;
  using Target = DirectTarget<Add>;
  Kokkos::parallel_for(kernel_label<Class>("eri_scatter_"),
                       Kokkos::RangePolicy<Device, Kokkos::IndexType<std::int64_t>>(
                           0, plan_.classes[i].local_quartets()),
                       ScatterQuartets<Class, DeviceMemory, Target, false>{
                           t.pairs, t.boys, t.classes[i], density, {}, 0, Target{Add{g}}});
}

template <class Class>
void GBuilder::split_class(std::size_t i, const Matrix<DeviceMemory>& density,
                           const Matrix<DeviceMemory>& g) {
  const Tables<DeviceMemory>& t = *device_;
  const int shells = static_cast<int>(basis_.shells.size());
  const ClassPlan& c = plan_.classes[i];
  for (const auto& [p_begin, p_end] : batches(c)) {
    const std::int64_t first = c.offsets[p_begin - c.bra_begin];
    const std::int64_t count = c.offsets[p_end - c.bra_begin] - first;
    if (count == 0) continue;
    compute_batch<Class>(i, first, count);
    using Gather = GatherBlocks<Class, DeviceMemory>;
    const Gather gather{t.pairs, t.shells, t.classes[i], density, buffer_, p_begin, p_end, g};
    const int lanes = std::min(kGatherLanes, Kokkos::TeamPolicy<Device>(shells * shells, 1)
                                                 .team_size_max(gather, Kokkos::ParallelForTag()));
    Kokkos::parallel_for(kernel_label<Class>("gather_"),
                         Kokkos::TeamPolicy<Device>(shells * shells, lanes)
                             .set_scratch_size(0, Kokkos::PerTeam(Gather::scratch_bytes(lanes))),
                         gather);
  }
}

template <class Class>
void GBuilder::host_class(GUpdate update, std::size_t i, HostPart& host) {
  const Tables<Host>& h = *host_;
  const ClassPlan& c = plan_.classes[i];
  using Target = ScatterTarget<decltype(host.scatter)>;
  if (update == GUpdate::cpu) {
    Kokkos::parallel_for(
        kernel_label<Class>("eri_scatter_"),
        Kokkos::RangePolicy<OpenMPSpace, Kokkos::IndexType<std::int64_t>>(0, c.local_quartets()),
        ScatterQuartets<Class, Host, Target, false>{
            h.pairs, h.boys, h.classes[i], host.density, {}, 0, Target{host.scatter}});
    return;
  }
  for (const auto& [p_begin, p_end] : batches(c)) {
    const std::int64_t first = c.offsets[p_begin - c.bra_begin];
    const std::int64_t count = c.offsets[p_end - c.bra_begin] - first;
    if (count == 0) continue;
    const std::size_t needed = compute_batch<Class>(i, first, count);
    const auto integrals = Kokkos::create_mirror_view_and_copy(
        Host(), Kokkos::subview(buffer_, std::make_pair(std::size_t{0}, needed)));
    Kokkos::parallel_for(
        kernel_label<Class>("eri_scatter_"),
        Kokkos::RangePolicy<OpenMPSpace, Kokkos::IndexType<std::int64_t>>(first, first + count),
        ScatterQuartets<Class, Host, Target, true>{h.pairs, h.boys, h.classes[i], host.density,
                                                   integrals, first, Target{host.scatter}});
  }
}

}  // namespace kmini::hf
