#include "hf/symmetric_eigen.hpp"

#include <string>

#include "core/error.hpp"

extern "C" {
void dsyev_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
            double* work, const int* lwork, int* info);
}

namespace kmini::hf {

std::vector<double> symmetric_eigen(
    Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>& a) {
  const int n = static_cast<int>(a.extent(0));
  std::vector<double> w(static_cast<std::size_t>(n));
  if (n == 0) return w;
  int info = 0, lwork = -1;
  double query = 0.0;
  dsyev_("V", "U", &n, a.data(), &n, w.data(), &query, &lwork, &info);
  lwork = static_cast<int>(query);
  std::vector<double> work(static_cast<std::size_t>(lwork));
  dsyev_("V", "U", &n, a.data(), &n, w.data(), work.data(), &lwork, &info);
  if (info != 0) throw RuntimeFailure("LAPACK dsyev failed (info " + std::to_string(info) + ")");
  return w;
}

}  // namespace kmini::hf
