// GBuilder's members that each quartet class instantiates: the launches of ClassShare's
// operations (g_build.hpp), which the updates are made of. Three translation units compile them,
// apart from each other and from the rest of GBuilder (g_build.cpp): the classes whose recursions
// are unrolled, split in two so that the halves compile side by side (the (dd| bras in
// g_build_classes_unrolled_dd.cpp, the others in g_build_classes_unrolled.cpp), and those that
// loop (g_build_classes_looped.cpp). All in one unit were the build's longest step by far
// (docs/notes/build-and-ci.md).
#pragma once

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>

#include "core/host_backends.hpp"
#include "core/timing.hpp"
#include "hf/fock/g_build_state.hpp"
#include "hf/fock/gather_blocks.hpp"
#include "hf/fock/quartet_launch.hpp"
#include "hf/integrals/eri.hpp"

namespace kmini::hf {

namespace Impl {

// Lanes per team of kernel_split's gather: a warp on a GPU. The host has far fewer threads than
// blocks and gains nothing from lanes, but takes as many as its teams allow (up to 4) so that
// the tests on the host run the lanes' split and their ordered sum.
constexpr int kGatherLanes =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMemory>::accessible ? 4 : 32;

// "hf::eri_atomic_ppps" and the like: every kernel named after its class, for profilers.
template <class Class>
std::string kernel_label(const char* stem) {
  return std::string("hf::") + stem + pair_kind_name(Class::bra_kind) +
         pair_kind_name(Class::ket_kind);
}

}  // namespace Impl

template <class Class>
void GBuilder::scatter(DeviceAdd add, std::size_t i, int bra_begin, int bra_end, Build& build) {
  const auto [first, count] = quartet_range(i, bra_begin, bra_end, build);
  using Plain = PlainAtomicAdd<DeviceMemory>;
  using Aggregated = WarpAggregatedAdd<DeviceMemory>;
  switch (add) {
    case DeviceAdd::plain_atomic:
      launch<Class>("eri_atomic_", i, first, count,
                    ScatterSink<Class, Impl::Device, Plain>{build.density, Plain{build.g}});
      break;
    case DeviceAdd::warp_aggregated:
      launch<Class>(
          "eri_warp_aggregated_", i, first, count,
          ScatterSink<Class, Impl::Device, Aggregated>{build.density, Aggregated{build.g}});
      break;
  }
}

template <class Class, class Sink>
void GBuilder::launch(const char* stem, std::size_t i, std::int64_t first, std::int64_t count,
                      const Sink& sink) {
  using Exec = typename Sink::Exec;
  using Memory = typename Exec::memory_space;
  auto& t = [&]() -> auto& {
    if constexpr (std::is_same_v<Memory, DeviceMemory>)
      return *device_;
    else
      return *host_;
  }
  ();
  // Chunks only shrink: the list that holds the first holds every later one.
  TimedChunks& chunks = t.chunks[i];
  const std::int64_t largest = std::min(count, chunks.size());
  if (static_cast<std::int64_t>(t.kept_list.extent(0)) < largest)
    t.kept_list = KeptList<Memory>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hf::kept_list")), largest);
  for_each_timed_chunk(chunks, first, count, [&](std::int64_t begin, std::int64_t size) {
    // The chunk before was fenced, and the counts' copy below waits for the list: the time
    // between is the list's alone.
    const Clock::time_point listing = Clock::now();
    const int candidates = static_cast<int>(size);
    Kokkos::deep_copy(t.kept_count, 0);
    const ListKept<Exec> list{t.classes[i], t.screen,    begin, candidates, ListKept<Exec>::kWindow,
                              t.kept_list,  t.kept_count};
    Kokkos::parallel_for(Impl::kernel_label<Class>("list_kept_"), list.policy(), list);
    int listed[2] = {0, 0};
    Kokkos::deep_copy(Kokkos::View<int[2], Kokkos::HostSpace>(listed), t.kept_count);
    list_seconds_[i] += seconds_since(listing);
    const ListedParts parts{listed[0], candidates - listed[1], listed[1]};
    kept_[i] += static_cast<double>(parts.total());
    coulomb_only_[i] += parts.coulomb;
    compute_listed<Class>(stem, i, t, begin, parts, sink);
    // The next chunk's listing waited for this one's quartets anyway; fenced here, its time is
    // the chunk's.
    Exec().fence();
  });
}

template <class Class, class Sink>
void GBuilder::compute_listed(const char* stem, std::size_t i,
                              const Tables<typename Sink::Exec::memory_space>& t,
                              std::int64_t first, const ListedParts& parts,
                              const Sink& sink) const {
  using Exec = typename Sink::Exec;
  // Dynamic: on the host, a static split gives the first thread the plan's most contracted
  // quartets (the GPU schedules its blocks as SMs free up anyway).
  Kokkos::parallel_for(
      Impl::kernel_label<Class>(stem),
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>, Kokkos::Schedule<Kokkos::Dynamic>,
                          Kokkos::LaunchBounds<Impl::QuartetLaunch<Class>::threads,
                                               Impl::QuartetLaunch<Class>::blocks>>(
          0, parts.total() * Class::lanes),
      ClassQuartets<Class, Exec, Sink>{t.pairs, t.boys, t.classes[i], t.screen, first, t.kept_list,
                                       parts, sink});
}

template <class Class, class AfterStore>
void GBuilder::for_each_stored_batch(std::size_t i, int bra_begin, int bra_end, Build& build,
                                     const AfterStore& after_store) {
  const std::vector<std::int64_t>& at = offsets(i, build);
  for (const auto& [p_begin, p_end] : batches(i, bra_begin, bra_end, build)) {
    if (stopping()) return;
    const std::int64_t first = at[p_begin];
    const std::int64_t count = at[p_end] - first;
    if (count == 0) continue;
    const auto needed = static_cast<std::size_t>(count * Class::integrals);
    if (buffer_.extent(0) < needed)
      buffer_ = Kokkos::View<double*, DeviceMemory>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hf::eri_buffer")), needed);
    batch_capacity_ = std::max(batch_capacity_, static_cast<double>(needed));
    launch<Class>("eri_store_", i, first, count, StoreSink<Class, Impl::Device>{buffer_, first});
    after_store(p_begin, p_end, first, count, needed);
  }
}

template <class Class>
void GBuilder::split(std::size_t i, int bra_begin, int bra_end, Build& build) {
  const Tables<DeviceMemory>& t = *device_;
  const int shells = static_cast<int>(basis_.shells.size());
  for_each_stored_batch<Class>(
      i, bra_begin, bra_end, build,
      [&](int p_begin, int p_end, std::int64_t, std::int64_t, std::size_t) {
        using Gather = GatherBlocks<Class, DeviceMemory>;
        Gather gather{t.pairs, t.shells, t.classes[i], t.screen, build.density,
                      buffer_, p_begin,  p_end,        build.g};
        const int lanes =
            std::min(Impl::kGatherLanes, Kokkos::TeamPolicy<Impl::Device>(shells * shells, 1)
                                             .team_size_max(gather, Kokkos::ParallelForTag()));
        // Each G block is one team's, whichever launch holds it: launched in timed chunks of
        // blocks, so that a stop is asked between them, G is the same bit for bit.
        for_each_timed_chunk(
            device_->gather_chunks[i], 0, std::int64_t{shells} * shells,
            [&](std::int64_t begin, std::int64_t size) {
              gather.first_block = static_cast<int>(begin);
              Kokkos::parallel_for(
                  Impl::kernel_label<Class>("gather_"),
                  Kokkos::TeamPolicy<Impl::Device>(static_cast<int>(size), lanes)
                      .set_scratch_size(0, Kokkos::PerTeam(Gather::scratch_bytes(lanes))),
                  gather);
              Impl::Device().fence();
            });
      });
}

template <class Class>
void GBuilder::compute_on_host(std::size_t i, int bra_begin, int bra_end, Build& build) {
  HostBuild& host = host_build(build);
  using Add = ScatterAdd<decltype(host.scatter)>;
  const auto [first, count] = quartet_range(i, bra_begin, bra_end, build);
  launch<Class>("eri_cpu_", i, first, count,
                ScatterSink<Class, OpenMPSpace, Add>{host.density, Add{host.scatter}});
}

template <class Class>
void GBuilder::add_batches_on_host(std::size_t i, int bra_begin, int bra_end, Build& build) {
  HostBuild& host = host_build(build);
  const Tables<Impl::Host>& h = *host_;
  using Add = ScatterAdd<decltype(host.scatter)>;
  for_each_stored_batch<Class>(
      i, bra_begin, bra_end, build,
      [&](int, int, std::int64_t first, std::int64_t count, std::size_t needed) {
        const auto integrals = Kokkos::create_mirror_view_and_copy(
            Impl::Host(), Kokkos::subview(buffer_, std::make_pair(std::size_t{0}, needed)));
        const ScatterBuffered<Class, Impl::Host, Add> add{
            h.classes[i], h.screen, h.pairs, host.density, integrals, first, Add{host.scatter}};
        // A batch holds up to batch_megabytes of integrals, seconds of the host's additions:
        // they go in timed chunks, a stop asked between them.
        for_each_timed_chunk(
            host_->buffered_chunks[i], first, count, [&](std::int64_t begin, std::int64_t size) {
              Kokkos::parallel_for(
                  Impl::kernel_label<Class>("scatter_buffered_"),
                  Kokkos::RangePolicy<OpenMPSpace, Kokkos::IndexType<std::int64_t>>(begin,
                                                                                    begin + size),
                  add);
              OpenMPSpace().fence();
            });
      });
}

template <class Class>
void GBuilder::warm_up_scatter(DeviceAdd add, std::size_t i, const WarmUp& warm) {
  using Plain = PlainAtomicAdd<DeviceMemory>;
  using Aggregated = WarpAggregatedAdd<DeviceMemory>;
  const Tables<DeviceMemory>& t = *device_;
  // The class's first candidate, computed whatever the screen would say: it loads the kernel and
  // touches what it reads, as the first real launch would.
  switch (add) {
    case DeviceAdd::plain_atomic:
      compute_listed<Class>("eri_atomic_", i, t, 0, ListedParts{1, 1, 0},
                            ScatterSink<Class, Impl::Device, Plain>{warm.density, Plain{warm.g}});
      break;
    case DeviceAdd::warp_aggregated:
      compute_listed<Class>(
          "eri_warp_aggregated_", i, t, 0, ListedParts{1, 1, 0},
          ScatterSink<Class, Impl::Device, Aggregated>{warm.density, Aggregated{warm.g}});
      break;
  }
}

}  // namespace kmini::hf

// Compiles GBuilder's members for the class of pair kinds (Bra|Ket) in this translation unit,
// which holds either the unrolled classes or the looped ones (kUnrolledClassesHere), as its name
// says: ClassShare's operations on the class. Each class is named in exactly one
// g_build_classes_*.cpp; a class left out fails to link.
#define KMINI_HF_G_BUILD_CLASS(Bra, Ket)                                                        \
  static_assert(kmini::hf::QuartetClass<Bra, Ket>::unrolled == kUnrolledClassesHere,            \
                "an unrolled and a looped class in one translation unit");                      \
  template void kmini::hf::GBuilder::scatter<kmini::hf::QuartetClass<Bra, Ket>>(                \
      DeviceAdd, std::size_t, int, int, Build&);                                                \
  template void kmini::hf::GBuilder::split<kmini::hf::QuartetClass<Bra, Ket>>(std::size_t, int, \
                                                                              int, Build&);     \
  template void kmini::hf::GBuilder::add_batches_on_host<kmini::hf::QuartetClass<Bra, Ket>>(    \
      std::size_t, int, int, Build&);                                                           \
  template void kmini::hf::GBuilder::compute_on_host<kmini::hf::QuartetClass<Bra, Ket>>(        \
      std::size_t, int, int, Build&);                                                           \
  template void kmini::hf::GBuilder::warm_up_scatter<kmini::hf::QuartetClass<Bra, Ket>>(        \
      DeviceAdd, std::size_t, const WarmUp&);
