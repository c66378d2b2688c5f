#include "hf/fock/symmetric_rank_sum.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <mpi.h>

#include "core/cuda_ipc.hpp"
#include "core/session.hpp"
#include "hf/fock/triangle_slices.hpp"

namespace kmini::hf {

// This rank's triangle, which the others map, and theirs mapped here.
struct SymmetricRankSum::SharedTriangles {
  MPI_Comm comm = MPI_COMM_NULL;
  std::unique_ptr<SharedDeviceBuffer> own;
  std::vector<std::unique_ptr<MappedDeviceBuffer>> mapped;  // by rank, empty at this one's
  Kokkos::View<std::uintptr_t*, DeviceMemory> addresses;    // every rank's triangle, by rank

  ~SharedTriangles() {
    mapped.clear();
    // A triangle is freed only once no rank maps it.
    if (comm != MPI_COMM_NULL) MPI_Barrier(comm);
  }
};

SymmetricRankSum::SymmetricRankSum(RankSumTransport transport) : transport_(transport) {}

SymmetricRankSum::~SymmetricRankSum() = default;

void SymmetricRankSum::share(const Comm& comm, std::size_t triangle) {
  const bool asked = transport_ == RankSumTransport::cuda_ipc;
  if (!cuda_ipc_built()) {
    if (asked) throw std::logic_error("hf: g_sum_transport cuda_ipc reached a build without CUDA");
    return;
  }
  if (!all_on_one_node(comm.handle())) {
    if (asked)
      throw std::runtime_error(
          "hf: g_sum_transport cuda_ipc needs every rank on one node; use auto or mpi");
    return;
  }
  auto shared = std::make_unique<SharedTriangles>();
  std::string failure;
  IpcHandle mine;
  try {
    shared->own = std::make_unique<SharedDeviceBuffer>(triangle * sizeof(double));
    mine = shared->own->handle();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  // Every rank's handle, a blank one where allocation failed: the failure is shared before
  // anything is mapped.
  const int handle_bytes = static_cast<int>(mine.bytes.size());
  std::vector<IpcHandle> handles(comm.size());
  MPI_Allgather(mine.bytes.data(), handle_bytes, MPI_BYTE, handles.data(), handle_bytes, MPI_BYTE,
                comm.handle());
  // From here on the destructor waits for every rank before freeing this one's triangle.
  shared->comm = comm.handle();
  if (comm.all(failure.empty())) {
    try {
      shared->mapped.resize(comm.size());
      for (int q = 0; q < comm.size(); ++q)
        if (q != comm.rank()) shared->mapped[q] = std::make_unique<MappedDeviceBuffer>(handles[q]);
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  if (!comm.all(failure.empty())) {
    if (asked)
      throw std::runtime_error(failure.empty()
                                   ? "hf: another rank could not offer its share of G over CUDA IPC"
                                   : failure);
    return;  // shared's destructor unmaps and frees, collectively
  }
  shared->addresses =
      Kokkos::View<std::uintptr_t*, DeviceMemory>("hf::g_triangle_addresses", comm.size());
  const auto addresses = Kokkos::create_mirror_view(shared->addresses);
  for (int q = 0; q < comm.size(); ++q)
    addresses(q) = reinterpret_cast<std::uintptr_t>(q == comm.rank() ? shared->own->data()
                                                                     : shared->mapped[q]->data());
  Kokkos::deep_copy(shared->addresses, addresses);
  shared_ = std::move(shared);
}

// `own` (this rank's shared triangle, packed) becomes every rank's sum, in packed_.
void SymmetricRankSum::sum_shared(const Comm& comm,
                                  const Kokkos::View<double*, DeviceMemory>& own) {
  using Exec = DeviceMemory::execution_space;
  const TriangleSlices slices{static_cast<std::int64_t>(own.extent(0)), comm.size()};
  const TriangleAddresses<DeviceMemory> addresses = shared_->addresses;
  Kokkos::fence();
  comm.barrier();  // every triangle packed
  sum_own_slice(Exec(), addresses, slices, comm.rank());
  Kokkos::fence();
  comm.barrier();  // every slice summed
  gather_slices(Exec(), addresses, slices, packed_);
  Kokkos::fence();
  comm.barrier();  // no rank reads this one's triangle any more: the next sum may pack into it
}

void SymmetricRankSum::operator()(const Comm& comm, const Matrix<DeviceMemory>& g) {
  if (comm.size() == 1) return;
  using Exec = DeviceMemory::execution_space;
  const int n = static_cast<int>(g.extent(0));
  const auto triangle = static_cast<std::size_t>(n) * static_cast<std::size_t>(n + 1) / 2;
  if (packed_.extent(0) != triangle) {
    packed_ = Kokkos::View<double*, DeviceMemory>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "hf::g_lower_triangle"), triangle);
    host_ = decltype(host_)();
    shared_.reset();
    decided_ = false;
  }
  if (!decided_) {
    if (transport_ != RankSumTransport::mpi) share(comm, triangle);
    decided_ = true;
    if (!shared_) host_ = Kokkos::create_mirror_view(packed_);
  }
  // Where the triangle goes first: the shared one, or packed_ itself.
  const Kokkos::View<double*, DeviceMemory> packed =
      shared_ ? Kokkos::View<double*, DeviceMemory>(static_cast<double*>(shared_->own->data()),
                                                    triangle)
              : packed_;
  // Row i's elements (i, 0 .. i) from i (i + 1) / 2 on.
  Kokkos::parallel_for(
      "hf::pack_g_lower", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const int i) {
        const std::int64_t row = static_cast<std::int64_t>(i) * (i + 1) / 2;
        for (int j = 0; j <= i; ++j)
          packed(row + j) = g(i, j);
      });
  if (shared_) {
    sum_shared(comm, packed);
  } else {
    Kokkos::deep_copy(host_, packed_);
    comm.sum_in_place(host_.data(), host_.size());
    Kokkos::deep_copy(packed_, host_);
  }
  const auto sums = packed_;
  Kokkos::parallel_for(
      "hf::unpack_g_lower", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const int i) {
        const std::int64_t row = static_cast<std::int64_t>(i) * (i + 1) / 2;
        for (int j = 0; j <= i; ++j) {
          g(i, j) = sums(row + j);
          g(j, i) = sums(row + j);
        }
      });
  Kokkos::fence();
}

}  // namespace kmini::hf
