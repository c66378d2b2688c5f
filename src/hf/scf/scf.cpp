#include "hf/scf/scf.hpp"

#include <chrono>
#include <cmath>
#include <deque>
#include <string>

#include "core/error.hpp"
#include "core/progress.hpp"
#include "hf/scf/dense_products.hpp"
#include "hf/scf/linear_dependence.hpp"
#include "hf/scf/symmetric_eigen.hpp"
#include "hf/screening/largest_magnitude.hpp"

extern "C" {
void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv, double* b,
            const int* ldb, int* info);
}

namespace kmini::hf {

namespace {

using Device = Kokkos::DefaultExecutionSpace;
using DeviceMatrix = Matrix<DeviceMemory>;
using Host = Kokkos::HostSpace;

DeviceMatrix device_matrix(const char* label, int n) {
  return DeviceMatrix(std::string(label), n, n);
}

// The sum of a_k b_k over all entries: the DIIS error vectors' inner product.
double inner_product(const DeviceMatrix& a, const DeviceMatrix& b) {
  double sum = 0.0;
  Kokkos::parallel_reduce(
      "hf::diis_inner_product", Kokkos::RangePolicy<Device>(0, static_cast<int>(a.size())),
      KOKKOS_LAMBDA(const int k, double& running) { running += a.data()[k] * b.data()[k]; }, sum);
  return sum;
}

// Solves F' = X^T F X and returns C = X C', the orbitals in columns.
void orbitals(DenseProducts& products, SymmetricEigenSolver& solver, const DeviceMatrix& fock,
              const DeviceMatrix& x, const DeviceMatrix& work, const DeviceMatrix& transformed,
              const DeviceMatrix& coefficients) {
  products.gemm(Op::plain, Op::plain, 1.0, fock, x, 0.0, work);
  products.gemm(Op::transposed, Op::plain, 1.0, x, work, 0.0, transformed);
  solver.solve(transformed);
  products.gemm(Op::plain, Op::plain, 1.0, x, transformed, 0.0, coefficients);
}

// D = 2 C_occ C_occ^T.
void density_of(DenseProducts& products, const DeviceMatrix& coefficients, int occupied,
                const DeviceMatrix& density) {
  const auto occ = Kokkos::subview(coefficients, Kokkos::ALL(), std::make_pair(0, occupied));
  products.gemm(Op::plain, Op::transposed, 2.0, occ, occ, 0.0, density);
}

// The DIIS extrapolation: the combination of stored Fock matrices whose combined error vector
// is smallest, with coefficients summing to one (Pulay 1982).
class Diis {
 public:
  explicit Diis(int capacity) : capacity_(capacity) {}

  void extrapolate(const DeviceMatrix& fock, const DeviceMatrix& error) {
    if (static_cast<int>(focks_.size()) == capacity_) {
      focks_.pop_front();
      errors_.pop_front();
    }
    DeviceMatrix f("hf::diis_fock", fock.extent(0), fock.extent(1));
    DeviceMatrix e("hf::diis_error", error.extent(0), error.extent(1));
    Kokkos::deep_copy(f, fock);
    Kokkos::deep_copy(e, error);
    focks_.push_back(f);
    errors_.push_back(e);
    const int m = static_cast<int>(focks_.size());
    if (m < 2) return;
    const int size = m + 1;
    std::vector<double> b(static_cast<std::size_t>(size * size), 0.0), rhs(size, 0.0);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j <= i; ++j) {
        b[i + j * size] = b[j + i * size] = inner_product(errors_[i], errors_[j]);
      }
      b[i + m * size] = b[m + i * size] = -1.0;
    }
    rhs[m] = -1.0;
    std::vector<int> pivots(size);
    int info = 0, one = 1;
    dgesv_(&size, &one, b.data(), &size, pivots.data(), rhs.data(), &size, &info);
    if (info != 0) {  // the stored errors became linearly dependent: start afresh
      focks_.erase(focks_.begin(), focks_.end() - 1);
      errors_.erase(errors_.begin(), errors_.end() - 1);
      return;
    }
    Kokkos::deep_copy(fock, 0.0);
    for (int i = 0; i < m; ++i) {
      const auto fi = focks_[i];
      const double c = rhs[i];
      Kokkos::parallel_for(
          "hf::diis_combine", Kokkos::RangePolicy<Device>(0, static_cast<int>(fock.size())),
          KOKKOS_LAMBDA(const int k) { fock.data()[k] += c * fi.data()[k]; });
    }
  }

 private:
  int capacity_;
  std::deque<DeviceMatrix> focks_, errors_;
};

}  // namespace

ScfResult run_scf(const OneElectronMatrices& one_electron, int occupied, double nuclear_repulsion,
                  const ScfSettings& settings, const HostMatrix& initial_density,
                  const GBuild& build_g, const AllRanks& all_ranks) {
  const int n = static_cast<int>(one_electron.overlap.extent(0));
  ScfResult result;

  // X = S^{-1/2} = U s^{-1/2} U^T.
  SymmetricEigenSolver solver(n);
  DenseProducts products;
  const DeviceMatrix overlap = device_matrix("hf::overlap", n);
  Kokkos::deep_copy(overlap, one_electron.overlap);
  const DeviceMatrix u = device_matrix("hf::overlap_vectors", n);
  Kokkos::deep_copy(u, overlap);
  const std::vector<double> s = solver.solve(u);
  result.smallest_overlap_eigenvalue = s.front();
  const std::string dependent = linear_dependence_problem(s.front());
  if (!dependent.empty()) throw InputError(dependent);
  const DeviceMatrix x = device_matrix("hf::x", n);
  {
    Kokkos::View<double*, DeviceMemory> scale("hf::overlap_scale", n);
    auto host_scale = Kokkos::create_mirror_view(scale);
    for (int k = 0; k < n; ++k)
      host_scale(k) = 1.0 / std::sqrt(s[k]);
    Kokkos::deep_copy(scale, host_scale);
    const DeviceMatrix scaled = device_matrix("hf::overlap_vectors_scaled", n);
    Kokkos::parallel_for(
        "hf::scale_columns",
        Kokkos::MDRangePolicy<Device, Kokkos::Rank<2, Kokkos::Iterate::Left>>({0, 0}, {n, n}),
        KOKKOS_LAMBDA(const int i, const int k) { scaled(i, k) = u(i, k) * scale(k); });
    products.gemm(Op::plain, Op::transposed, 1.0, scaled, u, 0.0, x);
  }
  Matrix<Host> h_host("hf::core_host", n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      h_host(i, j) = one_electron.kinetic(i, j) + one_electron.nuclear(i, j);
  const DeviceMatrix h = device_matrix("hf::core_hamiltonian", n);
  Kokkos::deep_copy(h, h_host);

  const DeviceMatrix fock = device_matrix("hf::fock", n), g = device_matrix("hf::g", n);
  const DeviceMatrix density = device_matrix("hf::density", n);
  const DeviceMatrix coefficients = device_matrix("hf::coefficients", n);
  const DeviceMatrix work = device_matrix("hf::work", n), work2 = device_matrix("hf::work2", n);
  const DeviceMatrix error = device_matrix("hf::diis_error", n);

  if (initial_density.extent(0) == 0) {  // the core Hamiltonian's orbitals
    orbitals(products, solver, h, x, work, work2, coefficients);
    density_of(products, coefficients, occupied, density);
  } else {
    Kokkos::deep_copy(density, initial_density);
  }

  Diis diis(settings.diis_vectors);
  double previous = 0.0;
  for (int iteration = 1; iteration <= settings.max_iterations; ++iteration) {
    progress::step("SCF cycle", iteration, settings.max_iterations);
    ScfIteration step;
    Kokkos::fence();
    const auto start = std::chrono::steady_clock::now();
    build_g(density, g);
    Kokkos::fence();
    step.g_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // F = H + G; E = 1/2 sum D (H + F) + E_nuc.
    double electronic = 0.0;
    Kokkos::parallel_reduce(
        "hf::fock_energy", Kokkos::RangePolicy<Device>(0, n * n),
        KOKKOS_LAMBDA(const int k, double& sum) {
          fock.data()[k] = h.data()[k] + g.data()[k];
          sum += 0.5 * density.data()[k] * (2.0 * h.data()[k] + g.data()[k]);
        },
        electronic);
    step.energy = electronic + nuclear_repulsion;

    // The orthogonalised commutator X^T (F D S - S D F) X; S D F = (F D S)^T.
    products.gemm(Op::plain, Op::plain, 1.0, fock, density, 0.0, work);
    products.gemm(Op::plain, Op::plain, 1.0, work, overlap, 0.0, work2);
    Kokkos::parallel_for(
        "hf::commutator", Kokkos::RangePolicy<Device>(0, n), KOKKOS_LAMBDA(const int i) {
          for (int j = 0; j < n; ++j)
            work(i, j) = work2(i, j) - work2(j, i);
        });
    products.gemm(Op::plain, Op::plain, 1.0, work, x, 0.0, work2);
    products.gemm(Op::transposed, Op::plain, 1.0, x, work2, 0.0, error);
    step.commutator = largest_magnitude("hf::commutator_norm", error);
    result.history.push_back(step);
    result.energy = step.energy;

    if (all_ranks(iteration > 1 &&
                  std::fabs(step.energy - previous) < settings.energy_convergence &&
                  step.commutator < settings.commutator_convergence)) {
      result.converged = true;
      break;
    }
    previous = step.energy;
    diis.extrapolate(fock, error);
    orbitals(products, solver, fock, x, work, work2, coefficients);
    density_of(products, coefficients, occupied, density);
  }
  result.density = density;
  return result;
}

}  // namespace kmini::hf
