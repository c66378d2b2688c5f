#include "hf/symmetric_rank_sum.hpp"

#include <cstdint>

namespace kmini::hf {

void SymmetricRankSum::operator()(const Comm& comm, const Matrix<DeviceMemory>& g) {
  if (comm.size() == 1) return;
  using Exec = DeviceMemory::execution_space;
  const int n = static_cast<int>(g.extent(0));
  const auto triangle = static_cast<std::size_t>(n) * static_cast<std::size_t>(n + 1) / 2;
  if (packed_.extent(0) != triangle) {
    packed_ = Kokkos::View<double*, DeviceMemory>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "hf::g_lower_triangle"), triangle);
    host_ = Kokkos::create_mirror_view(packed_);
  }
  const auto packed = packed_;
  // Row i's elements (i, 0 .. i) from i (i + 1) / 2 on.
  Kokkos::parallel_for(
      "hf::pack_g_lower", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const int i) {
        const std::int64_t row = static_cast<std::int64_t>(i) * (i + 1) / 2;
        for (int j = 0; j <= i; ++j)
          packed(row + j) = g(i, j);
      });
  Kokkos::deep_copy(host_, packed_);
  comm.sum_in_place(host_.data(), host_.size());
  Kokkos::deep_copy(packed_, host_);
  Kokkos::parallel_for(
      "hf::unpack_g_lower", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const int i) {
        const std::int64_t row = static_cast<std::int64_t>(i) * (i + 1) / 2;
        for (int j = 0; j <= i; ++j) {
          g(i, j) = packed(row + j);
          g(j, i) = packed(row + j);
        }
      });
  Kokkos::fence();
}

}  // namespace kmini::hf
