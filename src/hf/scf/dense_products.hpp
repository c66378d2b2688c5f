// Dense matrix products C = alpha op(A) op(B) + beta C where the matrices live (the default
// memory space): the SCF's similarity transforms, its density and its DIIS error. On CUDA builds
// they run on the device through cuBLAS's dgemm; elsewhere through the host BLAS's dgemm, the
// BLAS that LAPACK's dsyevd comes with.
#pragma once

#include <memory>

#include <Kokkos_Core.hpp>

namespace kmini::hf {

// Column-major matrices in device memory; a block of whole columns of one (a subview) is one too.
using DenseMatrix =
    Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::DefaultExecutionSpace::memory_space>;
using ConstDenseMatrix =
    Kokkos::View<const double**, Kokkos::LayoutLeft, Kokkos::DefaultExecutionSpace::memory_space>;

// op(M): M itself or its transpose.
enum class Op { plain, transposed };

// Holds the library's handle from one product to the next.
class DenseProducts {
 public:
  DenseProducts();
  ~DenseProducts();
  DenseProducts(const DenseProducts&) = delete;
  DenseProducts& operator=(const DenseProducts&) = delete;

  // C = alpha op(A) op(B) + beta C, queued after the default execution space's earlier work and
  // before its later work. Throws RuntimeFailure when the shapes do not match or the library
  // reports an error.
  void gemm(Op op_a, Op op_b, double alpha, const ConstDenseMatrix& a, const ConstDenseMatrix& b,
            double beta, const DenseMatrix& c);

  // "cuBLAS dgemm (device)" or "BLAS dgemm (host)", for the report.
  static const char* method();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kmini::hf
