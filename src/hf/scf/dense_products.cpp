#include "hf/scf/dense_products.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cublas_v2.h>
#endif

extern "C" {
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);
}

namespace kmini::hf {

namespace {

// The dimensions of C = op(A) op(B) (m x n, inner k) and the matrices' leading dimensions.
struct Shape {
  int m = 0, n = 0, k = 0, lda = 1, ldb = 1, ldc = 1;
};

int rows(Op op, const ConstDenseMatrix& x) {
  return static_cast<int>(op == Op::plain ? x.extent(0) : x.extent(1));
}

int columns(Op op, const ConstDenseMatrix& x) {
  return static_cast<int>(op == Op::plain ? x.extent(1) : x.extent(0));
}

int leading_dimension(const ConstDenseMatrix& x) {
  return std::max(1, static_cast<int>(x.stride(1)));
}

Shape shape_of(Op op_a, Op op_b, const ConstDenseMatrix& a, const ConstDenseMatrix& b,
               const DenseMatrix& c) {
  Shape s;
  s.m = rows(op_a, a);
  s.k = columns(op_a, a);
  s.n = columns(op_b, b);
  if (rows(op_b, b) != s.k || static_cast<int>(c.extent(0)) != s.m ||
      static_cast<int>(c.extent(1)) != s.n)
    throw RuntimeFailure("dense product of mismatched shapes: op(A) " + std::to_string(s.m) + "x" +
                         std::to_string(s.k) + ", op(B) " + std::to_string(rows(op_b, b)) + "x" +
                         std::to_string(s.n) + ", C " + std::to_string(c.extent(0)) + "x" +
                         std::to_string(c.extent(1)));
  s.lda = leading_dimension(a);
  s.ldb = leading_dimension(b);
  s.ldc = leading_dimension(c);
  return s;
}

}  // namespace

#if defined(KOKKOS_ENABLE_CUDA)

namespace {

void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw RuntimeFailure(std::string("cuBLAS ") + what + " failed (status " +
                         std::to_string(static_cast<int>(status)) + ")");
}

cublasOperation_t operation(Op op) {
  return op == Op::plain ? CUBLAS_OP_N : CUBLAS_OP_T;
}

}  // namespace

struct DenseProducts::Impl {
  cublasHandle_t handle = nullptr;

  void multiply(Op op_a, Op op_b, const Shape& s, double alpha, const double* a, const double* b,
                double beta, double* c) {
    // On Kokkos' own stream, the product is ordered with the kernels before and after it.
    check(cublasSetStream(handle, Kokkos::Cuda().cuda_stream()), "stream selection");
    check(cublasDgemm(handle, operation(op_a), operation(op_b), s.m, s.n, s.k, &alpha, a, s.lda, b,
                      s.ldb, &beta, c, s.ldc),
          "dgemm");
  }
};

DenseProducts::DenseProducts() : impl_(std::make_unique<Impl>()) {
  check(cublasCreate(&impl_->handle), "handle creation");
}

DenseProducts::~DenseProducts() {
  cublasDestroy(impl_->handle);
}

const char* DenseProducts::method() {
  return "cuBLAS dgemm (device)";
}

#else

static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                         Kokkos::DefaultExecutionSpace::memory_space>::accessible,
              "the host BLAS needs matrices the host can read");

struct DenseProducts::Impl {
  void multiply(Op op_a, Op op_b, const Shape& s, double alpha, const double* a, const double* b,
                double beta, double* c) {
    const char ta = op_a == Op::plain ? 'N' : 'T', tb = op_b == Op::plain ? 'N' : 'T';
    Kokkos::fence();  // the host BLAS reads what Kokkos' queued kernels write
    dgemm_(&ta, &tb, &s.m, &s.n, &s.k, &alpha, a, &s.lda, b, &s.ldb, &beta, c, &s.ldc);
  }
};

DenseProducts::DenseProducts() : impl_(std::make_unique<Impl>()) {}

DenseProducts::~DenseProducts() = default;

const char* DenseProducts::method() {
  return "BLAS dgemm (host)";
}

#endif

void DenseProducts::gemm(Op op_a, Op op_b, double alpha, const ConstDenseMatrix& a,
                         const ConstDenseMatrix& b, double beta, const DenseMatrix& c) {
  const Shape s = shape_of(op_a, op_b, a, b, c);
  if (s.m == 0 || s.n == 0) return;
  impl_->multiply(op_a, op_b, s, alpha, a.data(), b.data(), beta, c.data());
}

}  // namespace kmini::hf
