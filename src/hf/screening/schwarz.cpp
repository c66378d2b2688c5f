#include "hf/screening/schwarz.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/timed_chunks.hpp"
#include "core/view_of.hpp"
#include "hf/integrals/eri.hpp"

namespace kmini::hf {

namespace {

using Device = Kokkos::DefaultExecutionSpace;
using Memory = Device::memory_space;

template <class Class>
struct DiagonalBound {
  ShellPairs<Memory> pairs;
  BoysTable<Memory> boys;
  Kokkos::View<const int*, Memory> of_kind;
  Kokkos::View<double*, Memory> bounds;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    const int pair = of_kind(i);
    double eri[Class::integrals];
    eri_quartet<Class>(pairs, boys, pair, pair, eri);
    double largest = 0.0;
    for (int a = 0; a < Class::na; ++a)
      for (int b = 0; b < Class::nb; ++b) {
        const double v = eri[((a * Class::nb + b) * Class::nc + a) * Class::nd + b];
        largest = v > largest ? v : largest;
      }
    bounds(pair) = sqrt(largest);
  }
};

}  // namespace

std::vector<double> schwarz_bounds(const ShellPairs<Kokkos::HostSpace>& host_pairs,
                                   const std::vector<int>& pair_kinds, bool (*stop_requested)()) {
  const auto pairs = copy_shell_pairs<Memory>(host_pairs);
  const auto boys = make_boys_table<Memory>();
  Kokkos::View<double*, Memory> bounds("hf::schwarz", pair_kinds.size());
  const auto stop = [&] { return stop_requested != nullptr && stop_requested(); };
  bool finished = true;
  for (int kind = 0; kind < kPairKinds && finished; ++kind) {
    std::vector<int> of_kind;
    for (std::size_t i = 0; i < pair_kinds.size(); ++i)
      if (pair_kinds[i] == kind) of_kind.push_back(static_cast<int>(i));
    if (of_kind.empty()) continue;
    const auto list = view_of<Kokkos::View<int*, Memory>>("hf::pairs_of_kind", of_kind);
    with_quartet_class(kind, kind, [&](auto cls) {
      using Class = decltype(cls);
      // Only the diagonal classes are reached; the others need no kernel.
      if constexpr (Class::bra_kind == Class::ket_kind) {
        // In timed launches, a stop asked between them: one launch of a large cluster's (dd|dd)
        // bounds took seconds on a host. Its first holds about as many integrals as 2^20 (ss|ss)
        // quartets on a GPU, 2^12 on a host.
        const std::int64_t first =
            (Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible ? 1 << 12
                                                                               : 1 << 20) *
            64 / Class::integrals;
        TimedChunks chunks(std::max<std::int64_t>(first, 1), 256);
        double longest = 0.0;
        finished = for_each_timed_chunk(
            chunks, 0, list.extent_int(0), stop,
            [&](std::int64_t begin, std::int64_t size) {
              Kokkos::parallel_for("hf::schwarz", Kokkos::RangePolicy<Device>(begin, begin + size),
                                   DiagonalBound<Class>{pairs, boys, list, bounds});
              Device().fence();
            },
            longest);
      }
    });
  }
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bounds);
  return std::vector<double>(host.data(), host.data() + host.size());
}

std::vector<double> product_bounds(const ShellPairs<Kokkos::HostSpace>& pairs,
                                   const std::vector<int>& pair_kinds, bool (*stop_requested)()) {
  using Host = Kokkos::HostSpace;
  // Each product as a pair of its own, with its pair's shells: the Schwarz bound of that pair is
  // the product's.
  const std::size_t products = pairs.products.extent(0);
  ShellPairs<Host> single;
  single.shells = Kokkos::View<int* [2], Kokkos::LayoutRight, Host>("hf::product_shells", products);
  single.first_functions =
      Kokkos::View<int* [2], Kokkos::LayoutRight, Host>("hf::product_functions", products);
  single.ab = Kokkos::View<double* [3], Kokkos::LayoutRight, Host>("hf::product_ab", products);
  single.primitives_begin = Kokkos::View<int*, Host>("hf::product_begin", products + 1);
  single.products = pairs.products;
  std::vector<int> kinds(products);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    for (int k = pairs.primitives_begin(i); k < pairs.primitives_begin(i + 1); ++k) {
      for (int s = 0; s < 2; ++s) {
        single.shells(k, s) = pairs.shells(i, s);
        single.first_functions(k, s) = pairs.first_functions(i, s);
      }
      for (int x = 0; x < 3; ++x)
        single.ab(k, x) = pairs.ab(i, x);
      single.primitives_begin(k) = k;
      kinds[k] = pair_kinds[i];
    }
  }
  single.primitives_begin(products) = static_cast<int>(products);
  return schwarz_bounds(single, kinds, stop_requested);
}

BoundedPairs bounded_pairs(const MolecularBasis& basis, double threshold,
                           bool (*stop_requested)()) {
  BoundedPairs out;
  out.shells = canonical_pairs(basis);
  out.host = make_shell_pairs(basis, out.shells, threshold * kProductCutoffPerThreshold);
  out.kinds.reserve(out.shells.size());
  for (const auto& [a, b] : out.shells)
    out.kinds.push_back(pair_kind(basis.shells[a].l, basis.shells[b].l));
  order_products_by_bound(out.host, product_bounds(out.host, out.kinds, stop_requested));
  return out;
}

}  // namespace kmini::hf
