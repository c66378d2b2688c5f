#include "hf/scf/symmetric_eigen.hpp"

#include <string>

#include "core/error.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cusolverDn.h>
#endif

extern "C" {
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
             double* work, const int* lwork, int* iwork, const int* liwork, int* info);
}

namespace kmini::hf {

namespace {

// LAPACK's dsyevd on the n x n column-major `a`: jobz "V" for the eigenvectors too, "N" without.
// Divide and conquer, as cuSOLVER's syevd on the device: dsyev's QR sweeps for the vectors took
// 12 s at 1,536 functions on two cores, one call a signal could not interrupt.
std::vector<double> host_dsyevd(const char* jobz, int n, double* a) {
  std::vector<double> w(static_cast<std::size_t>(n));
  if (n == 0) return w;
  int info = 0, lwork = -1, liwork = -1, iwork_query = 0;
  double work_query = 0.0;
  dsyevd_(jobz, "U", &n, a, &n, w.data(), &work_query, &lwork, &iwork_query, &liwork, &info);
  if (info != 0)
    throw RuntimeFailure("LAPACK dsyevd's workspace query failed (info " + std::to_string(info) +
                         ")");
  lwork = static_cast<int>(work_query);
  liwork = iwork_query;
  std::vector<double> work(static_cast<std::size_t>(lwork));
  std::vector<int> iwork(static_cast<std::size_t>(liwork));
  dsyevd_(jobz, "U", &n, a, &n, w.data(), work.data(), &lwork, iwork.data(), &liwork, &info);
  if (info != 0) throw RuntimeFailure("LAPACK dsyevd failed (info " + std::to_string(info) + ")");
  return w;
}

}  // namespace

std::vector<double> symmetric_eigen(HostSquare& a) {
  return host_dsyevd("V", static_cast<int>(a.extent(0)), a.data());
}

std::vector<double> symmetric_eigenvalues(std::vector<double>& a, int n) {
  return host_dsyevd("N", n, a.data());
}

#if defined(KOKKOS_ENABLE_CUDA)

namespace {

void check(cusolverStatus_t status, const char* what) {
  if (status != CUSOLVER_STATUS_SUCCESS)
    throw RuntimeFailure(std::string("cuSOLVER ") + what + " failed (status " +
                         std::to_string(static_cast<int>(status)) + ")");
}

}  // namespace

struct SymmetricEigenSolver::Impl {
  int n = 0;
  cusolverDnHandle_t handle = nullptr;
  Kokkos::View<double*, Kokkos::CudaSpace> values, work;
  Kokkos::View<int, Kokkos::CudaSpace> info;
};

SymmetricEigenSolver::SymmetricEigenSolver(int n) : impl_(std::make_unique<Impl>()) {
  impl_->n = n;
  check(cusolverDnCreate(&impl_->handle), "handle creation");
  impl_->values = Kokkos::View<double*, Kokkos::CudaSpace>("hf::eigenvalues", n);
  impl_->info = Kokkos::View<int, Kokkos::CudaSpace>("hf::eigen_info");
}

SymmetricEigenSolver::~SymmetricEigenSolver() {
  cusolverDnDestroy(impl_->handle);
}

const char* SymmetricEigenSolver::method() {
  return "cuSOLVER syevd (device)";
}

std::vector<double> SymmetricEigenSolver::solve(const DeviceSquare& a) {
  Impl& s = *impl_;
  const int n = s.n;
  std::vector<double> w(static_cast<std::size_t>(n));
  if (n == 0) return w;
  // cuSOLVER runs on its own (default) stream: everything Kokkos queued must be done first.
  Kokkos::fence();
  int lwork = 0;
  check(cusolverDnDsyevd_bufferSize(s.handle, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, n,
                                    a.data(), n, s.values.data(), &lwork),
        "syevd workspace query");
  if (static_cast<std::size_t>(lwork) > s.work.extent(0))
    s.work = Kokkos::View<double*, Kokkos::CudaSpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hf::eigen_work")), lwork);
  check(cusolverDnDsyevd(s.handle, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, n, a.data(), n,
                         s.values.data(), s.work.data(), lwork, s.info.data()),
        "syevd");
  int info = 0;
  Kokkos::deep_copy(info, s.info);  // synchronises with the solve
  if (info != 0) throw RuntimeFailure("cuSOLVER syevd failed (info " + std::to_string(info) + ")");
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(w.data(), w.size());
  Kokkos::deep_copy(host, s.values);
  return w;
}

#else

struct SymmetricEigenSolver::Impl {
  int n = 0;
};

SymmetricEigenSolver::SymmetricEigenSolver(int n) : impl_(std::make_unique<Impl>()) {
  impl_->n = n;
}

SymmetricEigenSolver::~SymmetricEigenSolver() = default;

const char* SymmetricEigenSolver::method() {
  return "LAPACK dsyevd (host)";
}

std::vector<double> SymmetricEigenSolver::solve(const DeviceSquare& a) {
  HostSquare host("hf::eigen_host", a.extent(0), a.extent(1));
  Kokkos::deep_copy(host, a);
  std::vector<double> w = symmetric_eigen(host);
  Kokkos::deep_copy(a, host);
  return w;
}

#endif

}  // namespace kmini::hf
