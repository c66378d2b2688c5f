// The generation step: one thread builds one path, step by step in the execution strategy's
// order, reading each normal once and writing each output once. The variants of seed 004 are
// three independent choices, so one functor serves them all:
//   - where the stack lives: thread-local memory (LocalStack) or team scratch (TeamStack);
//   - how many normals are in flight in registers ahead of their use (Prefetch, 0 for none);
//   - whether the two previously built points are kept in registers and the stack used only for
//     points read later than that (Fused: the fifth strategy, which branches on the step's flags;
//     the others run the same instructions for every step);
//   - how many adjacent paths one thread builds at once (the value type V: T for one, a Pack of
//     16 bytes for several, read and written with one vector access each: seed 004's second
//     strategy, which needs time_major and a path count the pack divides).
#pragma once

#include <cstdint>

#include <Kokkos_Core.hpp>

#include "bridge/execution_strategy.hpp"
#include "bridge/path_layout.hpp"

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define KMINI_BRIDGE_UNROLL _Pragma("unroll")
#else
#define KMINI_BRIDGE_UNROLL
#endif

namespace kmini::bridge {

// The largest dimension d the generators take; C z is a d x d product per point in registers.
constexpr int kMaxDimension = 8;
// Words of thread-local stack: slots x d must fit.
constexpr int kLocalStackWords = 128;

// Equation (5)'s per-step constants, in one aligned load.
template <class T>
struct alignas(4 * sizeof(T)) Coefficients {
  T left, right, sigma, unused;
};

// What the generation step reads and writes, in one memory space.
template <class T, class Memory>
struct BridgeArrays {
  Kokkos::View<const std::uint64_t*, Memory> steps;  // packed, in evaluation order
  Kokkos::View<const Coefficients<T>*, Memory> coefficients;
  Kokkos::View<const T* [2], Memory> increment_scales;  // at the point, after it
  Kokkos::View<const T**, Memory> factor;               // C, d x d
  Kokkos::View<const T*, Memory> x0;
  Kokkos::View<const T*, Memory> normals;  // in the user's construction order
  Kokkos::View<T*, Memory> output;         // in time order: paths or increments
  PathLayout layout;
  bool increments = false;
};

// Lanes values of adjacent paths, moved with one 16-byte access and computed lane by lane.
template <class T, int Lanes>
struct alignas(sizeof(T) * Lanes) Pack {
  T lane[Lanes];
  Pack() = default;
  KOKKOS_INLINE_FUNCTION explicit Pack(T value) {
    for (int i = 0; i < Lanes; ++i)
      lane[i] = value;
  }
  KOKKOS_INLINE_FUNCTION Pack operator+(const Pack& o) const {
    Pack r;
    for (int i = 0; i < Lanes; ++i)
      r.lane[i] = lane[i] + o.lane[i];
    return r;
  }
  KOKKOS_INLINE_FUNCTION Pack operator-(const Pack& o) const {
    Pack r;
    for (int i = 0; i < Lanes; ++i)
      r.lane[i] = lane[i] - o.lane[i];
    return r;
  }
  KOKKOS_INLINE_FUNCTION friend Pack operator*(T w, const Pack& p) {
    Pack r;
    for (int i = 0; i < Lanes; ++i)
      r.lane[i] = w * p.lane[i];
    return r;
  }
  KOKKOS_INLINE_FUNCTION Pack operator*(T w) const { return w * *this; }
};

// Paths a value type holds, and its loads and stores at an element index.
template <class V>
struct ValueTraits {
  static constexpr int lanes = 1;
};
template <class T, int Lanes>
struct ValueTraits<Pack<T, Lanes>> {
  static constexpr int lanes = Lanes;
};

template <class V, class T>
KOKKOS_INLINE_FUNCTION V load_value(const T* base, std::int64_t index) {
  return *reinterpret_cast<const V*>(base + index);
}
template <class V, class T>
KOKKOS_INLINE_FUNCTION void store_value(T* base, std::int64_t index, const V& value) {
  *reinterpret_cast<V*>(base + index) = value;
}

// The stack in the thread's own memory: registers where the compiler can resolve the indices,
// else local memory, which the hardware interleaves across threads and caches in L1.
// It holds kLocalStackWords words: kLocalStackWords / lanes values, `dim` per slot.
template <class V, int MaxDim>
struct LocalStack {
  static constexpr int kValues = kLocalStackWords / ValueTraits<V>::lanes;
  V values[kValues];
  int dim;
  KOKKOS_INLINE_FUNCTION V& operator()(int slot, int c) {
    return values[MaxDim == 1 ? slot : slot * dim + c];
  }
};

// The stack in team scratch: word (slot, c) of every thread of the team side by side, so a
// warp's accesses to one slot fall in distinct banks.
template <class V>
struct TeamStack {
  V* base;
  int team_size;
  int rank;
  int dim;
  KOKKOS_INLINE_FUNCTION V& operator()(int slot, int c) {
    return base[(slot * dim + c) * team_size + rank];
  }
};

template <class T, class Space, int MaxDim, int Prefetch, bool Fused, class V = T>
struct PathGenerator {
  static constexpr int kLanes = ValueTraits<V>::lanes;
  BridgeArrays<T, typename Space::memory_space> a;

  KOKKOS_INLINE_FUNCTION int dim() const { return MaxDim == 1 ? 1 : a.layout.dim; }

  KOKKOS_INLINE_FUNCTION void load_normal(std::int64_t path, int k, V* z) const {
    const int normal = Step::normal(a.steps(k));
    for (int c = 0; c < dim(); ++c)
      z[c] = load_value<V>(a.normals.data(), a.layout.index(path, normal, c));
  }

  template <class Stack>
  KOKKOS_INLINE_FUNCTION void generate(std::int64_t path, Stack& stack) const {
    const int n = a.layout.steps;
    const int d = dim();
    V x0[MaxDim];
    T factor[MaxDim * MaxDim];
    for (int c = 0; c < d; ++c) {
      x0[c] = V(a.x0(c));
      for (int j = 0; j < d; ++j)
        factor[c * MaxDim + j] = a.factor(c, j);
    }
    if (!Fused) {
      for (int c = 0; c < d; ++c)
        stack(0, c) = x0[c];
    }
    // The two points built last, for the fused generator.
    V previous[MaxDim], before_previous[MaxDim];
    for (int c = 0; c < d; ++c)
      previous[c] = before_previous[c] = x0[c];

    if constexpr (Prefetch == 0) {
      for (int k = 0; k < n; ++k) {
        V z[MaxDim];
        load_normal(path, k, z);
        step(path, k, z, x0, factor, previous, before_previous, stack);
      }
    } else {
      // A ring of Prefetch normals; unrolled, so that each slot is a register.
      V ring[Prefetch][MaxDim];
      KMINI_BRIDGE_UNROLL
      for (int u = 0; u < Prefetch; ++u) {
        if (u < n) load_normal(path, u, ring[u]);
      }
      for (int k0 = 0; k0 < n; k0 += Prefetch) {
        KMINI_BRIDGE_UNROLL
        for (int u = 0; u < Prefetch; ++u) {
          const int k = k0 + u;
          if (k < n) {
            V z[MaxDim];
            for (int c = 0; c < d; ++c)
              z[c] = ring[u][c];
            if (k + Prefetch < n) load_normal(path, k + Prefetch, ring[u]);
            step(path, k, z, x0, factor, previous, before_previous, stack);
          }
        }
      }
    }
  }

  // Builds the point of evaluation step k from its normal z: equation (5).
  template <class Stack>
  KOKKOS_INLINE_FUNCTION void step(std::int64_t path, int k, const V* z, const V* x0,
                                   const T* factor, V* previous, V* before_previous,
                                   Stack& stack) const {
    const std::uint64_t s = a.steps(k);
    const Coefficients<T> w = a.coefficients(k);
    const int d = dim();
    V left[MaxDim], right[MaxDim], x[MaxDim];
    if constexpr (Fused) {
      fetch(Step::left_source(s), Step::left_slot(s), x0, previous, before_previous, stack, left);
      fetch(Step::right_source(s), Step::right_slot(s), x0, previous, before_previous, stack,
            right);
    } else {
      for (int c = 0; c < d; ++c) {
        left[c] = stack(Step::left_slot(s), c);
        right[c] = stack(Step::right_slot(s), c);
      }
    }
    for (int c = 0; c < d; ++c) {
      V correlated = factor[c * MaxDim] * z[0];
      for (int j = 1; j < d; ++j)
        correlated = correlated + factor[c * MaxDim + j] * z[j];
      x[c] = w.left * left[c] + w.right * right[c] + w.sigma * correlated;
    }
    const int point = Step::point(s);
    const unsigned flags = Step::flags(s);
    if (!a.increments) {
      for (int c = 0; c < d; ++c)
        store_value(a.output.data(), a.layout.index(path, point - 1, c), x[c]);
    } else {
      if (flags & Step::kIncrementAtPoint) {
        const T scale = a.increment_scales(k, 0);
        for (int c = 0; c < d; ++c)
          store_value(a.output.data(), a.layout.index(path, point - 1, c),
                      (x[c] - left[c]) * scale);
      }
      if (flags & Step::kIncrementAfterPoint) {
        const T scale = a.increment_scales(k, 1);
        for (int c = 0; c < d; ++c)
          store_value(a.output.data(), a.layout.index(path, point, c), (right[c] - x[c]) * scale);
      }
    }
    if constexpr (Fused) {
      if (flags & Step::kStore) {
        for (int c = 0; c < d; ++c)
          stack(Step::store_slot(s), c) = x[c];
      }
      for (int c = 0; c < d; ++c) {
        before_previous[c] = previous[c];
        previous[c] = x[c];
      }
    } else {
      for (int c = 0; c < d; ++c)
        stack(Step::store_slot(s), c) = x[c];
    }
  }

  template <class Stack>
  KOKKOS_INLINE_FUNCTION void fetch(unsigned source, int slot, const V* x0, const V* previous,
                                    const V* before_previous, Stack& stack, V* into) const {
    const int d = dim();
    if (source == kFromPrevious) {
      for (int c = 0; c < d; ++c)
        into[c] = previous[c];
    } else if (source == kFromBeforePrevious) {
      for (int c = 0; c < d; ++c)
        into[c] = before_previous[c];
    } else if (source == kFromStack) {
      for (int c = 0; c < d; ++c)
        into[c] = stack(slot, c);
    } else {
      for (int c = 0; c < d; ++c)
        into[c] = x0[c];
    }
  }

  // kLanes adjacent paths per thread, the stack thread-local.
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t thread) const {
    LocalStack<V, MaxDim> stack;
    stack.dim = dim();
    generate(thread * kLanes, stack);
  }

  // One path per thread of a team, the stack in team scratch: `slots` slots of d words per thread.
  int slots = 0;
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  using Scratch = Kokkos::View<V*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static std::size_t scratch_bytes(int slots, int dim, int team_size) {
    return Scratch::shmem_size(std::size_t(slots) * dim * team_size);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int team_size = team.team_size();
    Scratch words(team.team_scratch(0), std::size_t(slots) * dim() * team_size);
    const std::int64_t thread = std::int64_t(team.league_rank()) * team_size + team.team_rank();
    if (thread * kLanes >= a.layout.paths) return;
    TeamStack<V> stack{words.data(), team_size, team.team_rank(), dim()};
    generate(thread * kLanes, stack);
  }
};

}  // namespace kmini::bridge
