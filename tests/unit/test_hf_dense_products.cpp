// The SCF's matrix products (hf/scf/dense_products.hpp) against a plain triple loop: every pairing
// of plain and transposed operands on rectangular matrices, a block of whole columns as an operand
// (as the density's C_occ is), and beta adding to what C holds.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include "hf/scf/dense_products.hpp"

namespace kmini::hf {
namespace {

using HostDense = DenseMatrix::host_mirror_type;

HostDense random_matrix(int rows, int columns, std::mt19937& generator) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  HostDense m("test::random", rows, columns);
  for (int j = 0; j < columns; ++j)
    for (int i = 0; i < rows; ++i)
      m(i, j) = value(generator);
  return m;
}

DenseMatrix on_device(const HostDense& host) {
  DenseMatrix m("test::device", host.extent(0), host.extent(1));
  Kokkos::deep_copy(m, host);
  return m;
}

double element(Op op, const HostDense& x, int i, int j) {
  return op == Op::plain ? x(i, j) : x(j, i);
}

// alpha op(A) op(B) + beta C, summed in the plainest order.
HostDense reference(Op op_a, Op op_b, double alpha, const HostDense& a, const HostDense& b,
                    double beta, const HostDense& c) {
  const int m = static_cast<int>(c.extent(0)), n = static_cast<int>(c.extent(1));
  const int k = static_cast<int>(op_a == Op::plain ? a.extent(1) : a.extent(0));
  HostDense out("test::reference", m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int l = 0; l < k; ++l)
        sum += element(op_a, a, i, l) * element(op_b, b, l, j);
      out(i, j) = alpha * sum + beta * c(i, j);
    }
  return out;
}

void expect_near(const HostDense& expected, const DenseMatrix& actual) {
  const HostDense got = Kokkos::create_mirror_view(actual);
  Kokkos::deep_copy(got, actual);
  for (std::size_t j = 0; j < expected.extent(1); ++j)
    for (std::size_t i = 0; i < expected.extent(0); ++i)
      ASSERT_NEAR(expected(i, j), got(i, j), 1e-12) << "C(" << i << ", " << j << ")";
}

TEST(HfDenseProducts, EveryPairingOfTransposesMatchesATripleLoop) {
  constexpr int m = 5, n = 3, k = 4;
  std::mt19937 generator(20);
  DenseProducts products;
  for (Op op_a : {Op::plain, Op::transposed})
    for (Op op_b : {Op::plain, Op::transposed}) {
      const HostDense a =
          op_a == Op::plain ? random_matrix(m, k, generator) : random_matrix(k, m, generator);
      const HostDense b =
          op_b == Op::plain ? random_matrix(k, n, generator) : random_matrix(n, k, generator);
      const HostDense c = random_matrix(m, n, generator);
      const DenseMatrix result = on_device(c);
      products.gemm(op_a, op_b, 0.75, on_device(a), on_device(b), -1.5, result);
      SCOPED_TRACE(std::string("op(A) ") + (op_a == Op::plain ? "A" : "A^T") + ", op(B) " +
                   (op_b == Op::plain ? "B" : "B^T"));
      expect_near(reference(op_a, op_b, 0.75, a, b, -1.5, c), result);
    }
}

TEST(HfDenseProducts, LeadingColumnsOfAMatrixAreAnOperand) {
  constexpr int n = 6, occupied = 2;
  std::mt19937 generator(7);
  const HostDense coefficients = random_matrix(n, n, generator);
  const DenseMatrix device = on_device(coefficients);
  const auto occ = Kokkos::subview(device, Kokkos::ALL(), std::make_pair(0, occupied));
  const auto host_occ = Kokkos::subview(coefficients, Kokkos::ALL(), std::make_pair(0, occupied));
  HostDense copy("test::occ", n, occupied);
  Kokkos::deep_copy(copy, host_occ);
  DenseMatrix density("test::density", n, n);
  DenseProducts products;
  products.gemm(Op::plain, Op::transposed, 2.0, occ, occ, 0.0, density);
  expect_near(
      reference(Op::plain, Op::transposed, 2.0, copy, copy, 0.0, HostDense("test::zero", n, n)),
      density);
}

TEST(HfDenseProducts, MismatchedShapesAreRefused) {
  DenseProducts products;
  DenseMatrix a("test::a", 3, 4), b("test::b", 3, 2), c("test::c", 3, 2);
  EXPECT_THROW(products.gemm(Op::plain, Op::plain, 1.0, a, b, 0.0, c), std::runtime_error);
}

}  // namespace
}  // namespace kmini::hf
