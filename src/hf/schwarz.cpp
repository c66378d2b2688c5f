#include "hf/schwarz.hpp"

#include <cmath>

#include "core/view_of.hpp"
#include "hf/eri.hpp"

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
                                   const std::vector<int>& pair_kinds) {
  const auto pairs = copy_shell_pairs<Memory>(host_pairs);
  const auto boys = make_boys_table<Memory>();
  Kokkos::View<double*, Memory> bounds("hf::schwarz", pair_kinds.size());
  for (int kind = 0; kind < kPairKinds; ++kind) {
    std::vector<int> of_kind;
    for (std::size_t i = 0; i < pair_kinds.size(); ++i)
      if (pair_kinds[i] == kind) of_kind.push_back(static_cast<int>(i));
    if (of_kind.empty()) continue;
    const auto list = view_of<Kokkos::View<int*, Memory>>("hf::pairs_of_kind", of_kind);
    with_quartet_class(kind, kind, [&](auto cls) {
      using Class = decltype(cls);
      // Only the diagonal classes are reached; the others need no kernel.
      if constexpr (Class::bra_kind == Class::ket_kind) {
        Kokkos::parallel_for("hf::schwarz", Kokkos::RangePolicy<Device>(0, list.extent_int(0)),
                             DiagonalBound<Class>{pairs, boys, list, bounds});
      }
    });
  }
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bounds);
  return std::vector<double>(host.data(), host.data() + host.size());
}

}  // namespace kmini::hf
