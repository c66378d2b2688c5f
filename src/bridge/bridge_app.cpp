#include "bridge/bridge_app.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include <Kokkos_Core.hpp>

#include "bridge/bridge_check.hpp"
#include "bridge/bridge_data.hpp"
#include "bridge/bridge_setup.hpp"
#include "bridge/sobol.hpp"
#include "core/comm.hpp"
#include "core/host_backends.hpp"
#include "core/interrupt.hpp"
#include "core/precision.hpp"

namespace kmini::bridge {

namespace {

using Device = Kokkos::DefaultExecutionSpace;
using DeviceMemory = Device::memory_space;
using HostMemory = Kokkos::HostSpace;

// Normals in flight per thread in the prefetching variants: seed 004 found 8 best on a C2050.
constexpr int kPrefetch = 8;
// Vectors of normals in flight per thread in the prefetching vector variants: a thread that waits
// on one 16-byte load at a time keeps too few bytes in flight to fill a GPU whose bandwidth has
// outgrown its latency (docs/notes/bridge.md); four keep a dimension-8 ring of doubles in 128
// registers.
constexpr int kVectorPrefetch = 4;

// Adjacent paths in one 16-byte vector.
template <class T>
using Vector = Pack<T, 16 / sizeof(T)>;

template <class T>
class BridgeCase;

// Where a generator keeps the points it still needs.
enum class Stack { thread_local_memory, team_scratch };
// Which step tables it reads: every point through the stack, or the fused generator's, which
// reads the two points built last from registers.
enum class Tables { stacked, fused };
// What one thread builds: one path, or 16 bytes of adjacent paths with vector accesses.
enum class PerThread { path, vector_of_paths };

// How a variant generates its paths.
template <class T>
struct BridgeGenerator {
  void (BridgeCase<T>::*launch)(const std::string& kernel_name);
  Stack stack;
  Tables tables;
  PerThread per_thread;
};

// The byte model's weight: each normal read once and each output value written once.
constexpr double kNormalInValueOut = 2.0;

template <class T>
const VariantTable<BridgeGenerator<T>>& variant_table() {
  using C = BridgeCase<T>;
  constexpr Stack local = Stack::thread_local_memory;
  static const VariantTable<BridgeGenerator<T>> rows{
      {"naive",
       "strategy 1: every point through a thread-local stack (local memory), the packed indices "
       "read from global memory each step, each normal loaded when needed; no branches",
       kNormalInValueOut,
       on_device(),
       {&C::template on_device_range<0, Tables::stacked>, local, Tables::stacked, PerThread::path}},
      {"shared_stack",
       "the same with the stack in team scratch (shared memory), one column of slots per thread",
       kNormalInValueOut,
       on_device(),
       {&C::template on_device_teams<0, T>, Stack::team_scratch, Tables::stacked, PerThread::path}},
      {"prefetch",
       "strategy 3: naive with 8 normals in flight in registers ahead of their use",
       kNormalInValueOut,
       on_device(),
       {&C::template on_device_range<kPrefetch, Tables::stacked>, local, Tables::stacked,
        PerThread::path}},
      {"fused_no_prefetch",
       "strategy 5 without prefetch: the two previous points kept in registers and read from "
       "there when they are neighbours, the stack only for points read later; branches on the "
       "step's flags",
       kNormalInValueOut,
       on_device(),
       {&C::template on_device_range<0, Tables::fused>, local, Tables::fused, PerThread::path}},
      {"fused",
       "strategy 5: fused_no_prefetch with 8 normals in flight",
       kNormalInValueOut,
       on_device(),
       {&C::template on_device_range<kPrefetch, Tables::fused>, local, Tables::fused,
        PerThread::path}},
      {"shared_vector",
       "strategy 2 revisited: shared_stack with each thread building 16 bytes of adjacent paths "
       "(4 float or 2 double) through vector loads and stores; time_major only",
       kNormalInValueOut,
       on_device(),
       {&C::template on_device_teams<0, Vector<T>>, Stack::team_scratch, Tables::stacked,
        PerThread::vector_of_paths}},
      {"shared_vector_prefetch",
       "shared_vector with 4 vectors of normals in flight in registers ahead of their use",
       kNormalInValueOut,
       on_device(),
       {&C::template on_device_teams<kVectorPrefetch, Vector<T>>, Stack::team_scratch,
        Tables::stacked, PerThread::vector_of_paths}},
      {"fused_vector",
       "fused_no_prefetch with 16 bytes of adjacent paths per thread",
       kNormalInValueOut,
       on_device(),
       {&C::template on_device_range<0, Tables::fused, Vector<T>>, local, Tables::fused,
        PerThread::vector_of_paths}},
      {"fused_vector_prefetch",
       "fused_vector with 4 vectors of normals in flight in registers ahead of their use",
       kNormalInValueOut,
       on_device(),
       {&C::template on_device_range<kVectorPrefetch, Tables::fused, Vector<T>>, local,
        Tables::fused, PerThread::vector_of_paths}},
      {"cpu_serial",
       "fused_no_prefetch on the host, one thread (seed 004's CPU code)",
       kNormalInValueOut,
       on_host().needing(HostBackend::serial).as_baseline(),
       {&C::template on_host_range<HostBackend::serial>, local, Tables::fused, PerThread::path}},
      {"cpu_openmp",
       "fused_no_prefetch on the host's OpenMP threads, paths shared out",
       kNormalInValueOut,
       on_host().needing(HostBackend::openmp),
       {&C::template on_host_range<HostBackend::openmp>, local, Tables::fused, PerThread::path}},
  };
  return rows;
}

// Normals and output of this rank's paths, where a device variant is selected.
// The normals and the output of one side's variants, device or host, where any is selected:
// each side keeps its own from its first variant to the end of the point.
double side_bytes(const Params& params, const Comm& comm, Side side) {
  if (!params.selects_any([side](const VariantSpec& v) { return v.traits.side == side; }))
    return 0.0;
  const BridgeSetup setup = setup_of(params, comm);
  return 2.0 * static_cast<double>(setup.local_paths) * setup.model.grid.steps() * setup.model.dim *
         static_cast<double>(element_bytes(params));
}

double device_bytes(const Params& params, const Comm& comm) {
  return side_bytes(params, comm, Side::device);
}

double host_bytes(const Params& params, const Comm& comm) {
  return side_bytes(params, comm, Side::host);
}

// One repetition: the byte model's unit is each path's values, once.
Counts bridge_counts(double paths, double values_per_path, std::size_t element_bytes) {
  return Counts{paths * values_per_path * static_cast<double>(element_bytes), 0.0, paths};
}

WorkEstimate estimate_work(const Params& params, const Comm& comm, const VariantSpec&) {
  const BridgeSetup setup = setup_of(params, comm);
  return WorkEstimate{bridge_counts(static_cast<double>(setup.local_paths),
                                    static_cast<double>(setup.model.grid.steps() * setup.model.dim),
                                    element_bytes(params)),
                      ""};
}

template <class T, class Exec, int Prefetch, bool Fused, class V = T>
void launch_range(const char* label, const BridgeArrays<T, typename Exec::memory_space>& a) {
  const Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>> policy(
      0, a.layout.paths / ValueTraits<V>::lanes);
  if (a.layout.dim == 1) {
    Kokkos::parallel_for(label, policy, PathGenerator<T, Exec, 1, Prefetch, Fused, V>{a});
  } else {
    Kokkos::parallel_for(label, policy,
                         PathGenerator<T, Exec, kMaxDimension, Prefetch, Fused, V>{a});
  }
}

template <class T, class Generator>
Kokkos::TeamPolicy<Device> team_policy(const Generator& generator, int team_size) {
  const std::int64_t threads = generator.a.layout.paths / Generator::kLanes;
  const int league = static_cast<int>((threads + team_size - 1) / team_size);
  return Kokkos::TeamPolicy<Device>(league, team_size)
      .set_scratch_size(0, Kokkos::PerTeam(Generator::scratch_bytes(
                               generator.slots, generator.a.layout.dim, team_size)));
}

// The team size asked for, or the backend's largest where that is smaller (the OpenMP backend's
// teams are at most its thread count).
template <class T>
int effective_team_size(int requested) {
  const PathGenerator<T, Device, 1, 0, false> generator{};
  const int most = Kokkos::TeamPolicy<Device>(1, Kokkos::AUTO)
                       .team_size_max(generator, Kokkos::ParallelForTag());
  return std::min(requested, most);
}

template <class T, int Prefetch, class V = T>
void launch_team(const char* label, const BridgeArrays<T, DeviceMemory>& a, int slots,
                 int team_size) {
  if (a.layout.dim == 1) {
    const PathGenerator<T, Device, 1, Prefetch, false, V> generator{a, slots};
    Kokkos::parallel_for(label, team_policy<T>(generator, team_size), generator);
  } else {
    const PathGenerator<T, Device, kMaxDimension, Prefetch, false, V> generator{a, slots};
    Kokkos::parallel_for(label, team_policy<T>(generator, team_size), generator);
  }
}

template <class T>
class BridgeCase final : public Case {
 public:
  BridgeCase(const Params& params, const RunContext& context)
      : comm_(context.comm),
        setup_(setup_of(params, comm_)),
        team_size_(effective_team_size<T>(setup_.team_size)) {
    layout_.paths = setup_.local_paths;
    layout_.steps = setup_.model.grid.steps();
    layout_.dim = setup_.model.dim;
    layout_.time_major = setup_.time_major;
    if (setup_.sobol) {
      directions_ =
          read_sobol_directions(setup_.sobol_table, layout_.steps * layout_.dim).directions;
    }
  }

  std::string not_applicable(const VariantSpec& variant) const override {
    const BridgeGenerator<T>& generator = variant_table<T>().action(variant);
    const bool vector = generator.per_thread == PerThread::vector_of_paths;
    const int slots = generator.tables == Tables::fused ? setup_.strategy.fused_stack
                                                        : setup_.strategy.stack_slots();
    constexpr int lanes = ValueTraits<Vector<T>>::lanes;
    const int lanes_here = vector ? lanes : 1;
    if (generator.stack == Stack::thread_local_memory &&
        slots * layout_.dim * lanes_here > kLocalStackWords) {
      return "its thread-local stack holds " + std::to_string(kLocalStackWords) +
             " words and this order needs " + std::to_string(slots) + " slots of " +
             std::to_string(layout_.dim * lanes_here);
    }
    // Decided from every rank's share, so that all ranks run the same variants.
    if (vector && (!layout_.time_major || !every_share_divisible(lanes))) {
      return "a thread builds " + std::to_string(lanes) +
             " adjacent paths with vector accesses, which needs layout time_major and a "
             "multiple of " +
             std::to_string(lanes) + " paths on each rank";
    }
    if (generator.stack == Stack::team_scratch) {
      const std::size_t bytes = PathGenerator<T, Device, 1, 0, false>::scratch_bytes(
          setup_.strategy.stack_slots(), layout_.dim * lanes_here, team_size_);
      const std::size_t most = Kokkos::TeamPolicy<Device>::scratch_size_max(0);
      if (bytes > most) {
        return "its stack needs " + std::to_string(bytes) + " bytes of team scratch per team of " +
               std::to_string(team_size_) + ", more than the " + std::to_string(most) +
               " available; lower team_size";
      }
    }
    return "";
  }

  void prepare(const VariantSpec& variant) override {
    if (variant.traits.side == Side::device) {
      prepare_space<Device>(device_, device_normals_seconds_);
    } else {
      prepare_space<Kokkos::DefaultHostExecutionSpace>(host_, host_normals_seconds_);
    }
  }

  Counts run(const VariantSpec& variant) override {
    (this->*variant_table<T>().action(variant).launch)("bridge::" + variant.name);
    return bridge_counts(static_cast<double>(layout_.paths),
                         static_cast<double>(layout_.steps * layout_.dim), sizeof(T));
  }

  // The generators, as the variant table names them.
  template <int Prefetch, Tables Read, class V = T>
  void on_device_range(const std::string& kernel_name) {
    constexpr bool fused = Read == Tables::fused;
    launch_range<T, Device, Prefetch, fused, V>(kernel_name.c_str(), device_->arrays(fused));
  }
  template <int Prefetch, class V>
  void on_device_teams(const std::string& kernel_name) {
    launch_team<T, Prefetch, V>(kernel_name.c_str(), device_->arrays(false),
                                setup_.strategy.stack_slots(), team_size_);
  }
  template <HostBackend Backend>
  void on_host_range(const std::string& kernel_name) {
    launch_range<T, HostSpace<Backend>, 0, true>(kernel_name.c_str(), host_->arrays(true));
  }

  Validation validate(const VariantSpec& variant) override {
    if (variant.traits.side == Side::device) return check_(*device_, variant);
    return check_(*host_, variant);
  }

  std::vector<Metric> metrics(const VariantSpec& variant) const override {
    const ExecutionStrategy& s = setup_.strategy;
    const double seconds =
        variant.traits.side == Side::device ? device_normals_seconds_ : host_normals_seconds_;
    const double values = static_cast<double>(setup_.global_paths) * layout_.steps * layout_.dim;
    std::vector<Metric> out{
        {"stack_user_order", static_cast<double>(s.user_stack), "points"},
        {"stack_optimized", static_cast<double>(s.stack), "points"},
        {"stack_fused", static_cast<double>(s.fused_stack), "points"},
        {"fused_neighbours_from_registers", s.register_reads, "fraction"},
        {"construction_depth", static_cast<double>(s.depth), "steps"},
        {"normals_seconds", seconds, "s"},
        {"normals_GBps", seconds > 0.0 ? values * sizeof(T) / seconds / 1.0e9 : 0.0, "GB/s"},
        {"checked_paths", check_.checked_paths(), "paths"},
    };
    if (variant_table<T>().action(variant).stack == Stack::team_scratch) {
      out.push_back({"team_size", static_cast<double>(team_size_), "threads"});
    }
    return out;
  }

 private:
  // Whether every rank's share of the paths is a multiple of `lanes`: shares differ by one at
  // most, those of the first global_paths % ranks ranks being the larger.
  bool every_share_divisible(int lanes) const {
    const std::int64_t share = setup_.global_paths / comm_.size();
    const bool larger_ones = setup_.global_paths % comm_.size() != 0;
    return share % lanes == 0 && (!larger_ones || (share + 1) % lanes == 0);
  }

  template <class Exec, class Data>
  void prepare_space(std::optional<Data>& data, double& normals_seconds) {
    using Memory = typename Exec::memory_space;
    if (!data) {
      data = make_bridge_data<T, Memory>(setup_, layout_, directions_);
      Kokkos::fence();
      comm_.barrier();
      const auto start = std::chrono::steady_clock::now();
      fill_normals<T, Exec>(*data, data->source(setup_), setup_.first_path);
      Kokkos::fence();
      // A signal may have stopped the fill on some rank: every rank leaves here, and drops the
      // unfinished normals, before a variant runs on them.
      if (const int signal = interrupt::requested(comm_)) {
        data.reset();
        throw interrupt::Interrupted(signal);
      }
      normals_seconds = comm_.max(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    // A point a variant fails to write stays NaN and fails the check.
    Kokkos::deep_copy(data->output, std::numeric_limits<T>::quiet_NaN());
  }

  const Comm& comm_;
  BridgeSetup setup_;
  int team_size_;
  PathLayout layout_;
  std::vector<std::uint32_t> directions_;
  std::optional<BridgeData<T, DeviceMemory>> device_;
  std::optional<BridgeData<T, HostMemory>> host_;
  double device_normals_seconds_ = 0.0;
  double host_normals_seconds_ = 0.0;
  PathCheck<T> check_{comm_, setup_, layout_, directions_};
};

}  // namespace

AppSpec app_spec() {
  AppSpec app;
  app.name = "bridge";
  app.doc =
      "Brownian-bridge sample paths or scaled increments for any construction order, from an "
      "execution strategy with a small stack (seed 004), its GPU strategies side by side";
  app.params = bridge_params();
  app.variants = variant_table<float>().specs();
  app.byte_model =
      "each normal read once and each output value written once (seed 004's rule): 2 x paths x "
      "steps x dimension values of the working precision; the strategy's tables and the stack "
      "are not counted";
  app.fom = FigureOfMerit{"bandwidth", "GB/s", FigureOfMerit::Quantity::bytes, 1.0e9};
  app.ceiling = Ceiling::copy;
  app.item_rate = "paths_per_second";
  app.default_repetitions = 10;
  app.default_warmup = 1;
  app.check = check_bridge;
  app.device_bytes = device_bytes;
  app.host_bytes = host_bytes;
  app.estimate_work = estimate_work;
  app.setup = setup_in_precision<BridgeCase>;
  return app;
}

}  // namespace kmini::bridge
