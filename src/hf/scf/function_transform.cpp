#include "hf/scf/function_transform.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "hf/basis/cartesian.hpp"

namespace kmini::hf {

namespace {

// A d shell's real solid harmonics over its Cartesian components (xx, xy, xz, yy, yz, zz, which
// share one contraction normalised on xx: molecular_basis.hpp), m = -2 .. 2 as xy, yz, z^2, xz,
// x^2 - y^2, each of unit norm: sqrt(3) xy, sqrt(3) yz, zz - (xx + yy) / 2, sqrt(3) xz and
// sqrt(3)/2 (xx - yy). Row-major, 6 x 5.
std::vector<double> d_harmonics() {
  const double r3 = std::sqrt(3.0);
  return {
      0.0, 0.0, -0.5, 0.0, 0.5 * r3,   // xx
      r3,  0.0, 0.0,  0.0, 0.0,        // xy
      0.0, 0.0, 0.0,  r3,  0.0,        // xz
      0.0, 0.0, -0.5, 0.0, -0.5 * r3,  // yy
      0.0, r3,  0.0,  0.0, 0.0,        // yz
      0.0, 0.0, 1.0,  0.0, 0.0,        // zz
  };
}

}  // namespace

const char* functions_name(Functions functions) {
  return functions == Functions::spherical ? "spherical" : "cartesian";
}

int functions_of_shell(int l, Functions functions) {
  return functions == Functions::spherical && l >= 2 ? 2 * l + 1 : functions_of_l(l);
}

FunctionTransform::FunctionTransform(const MolecularBasis& basis, Functions functions) {
  for (const PlacedShell& shell : basis.shells) {
    ShellBlock block;
    block.first_cartesian = cartesian_;
    block.first_working = working_;
    block.cartesian = functions_of_l(shell.l);
    block.working = functions_of_shell(shell.l, functions);
    if (block.working != block.cartesian) {
      if (shell.l != 2) throw std::logic_error("FunctionTransform: spherical functions up to d");
      block.t = d_harmonics();
      // T's columns are orthogonal, so (T^T T)^{-1} T^T is T^T with each row over its norm.
      block.l.assign(static_cast<std::size_t>(block.working * block.cartesian), 0.0);
      for (int j = 0; j < block.working; ++j) {
        double norm2 = 0.0;
        for (int i = 0; i < block.cartesian; ++i)
          norm2 += block.t[i * block.working + j] * block.t[i * block.working + j];
        for (int i = 0; i < block.cartesian; ++i)
          block.l[j * block.cartesian + i] = block.t[i * block.working + j] / norm2;
      }
    }
    cartesian_ += block.cartesian;
    working_ += block.working;
    shells_.push_back(std::move(block));
  }
  if (identity()) return;
  t_ = DenseMatrix("hf::cartesian_to_working", cartesian_, working_);
  work_ = DenseMatrix("hf::transform_work", cartesian_, working_);
  auto host = Kokkos::create_mirror_view(t_);
  Kokkos::deep_copy(host, 0.0);
  for (const ShellBlock& s : shells_)
    for (int i = 0; i < s.cartesian; ++i)
      for (int j = 0; j < s.working; ++j)
        host(s.first_cartesian + i, s.first_working + j) =
            s.t.empty() ? (i == j ? 1.0 : 0.0) : s.t[i * s.working + j];
  Kokkos::deep_copy(t_, host);
}

FunctionTransform::~FunctionTransform() = default;

HostMatrix FunctionTransform::apply(const HostMatrix& m, bool density) const {
  if (static_cast<int>(m.extent(0)) != cartesian_ || static_cast<int>(m.extent(1)) != cartesian_)
    throw std::logic_error("FunctionTransform: not a matrix over the Cartesian functions");
  HostMatrix out(std::string(density ? "hf::working_density" : "hf::working_matrix"), working_,
                 working_);
  // The factor of shell s: T's block (Cartesian i, working j) for matrices, L's transposed for
  // densities; the identity for a shell that stays Cartesian.
  const auto factor = [&](const ShellBlock& s, int i, int j) {
    if (s.t.empty()) return i == j ? 1.0 : 0.0;
    return density ? s.l[j * s.cartesian + i] : s.t[i * s.working + j];
  };
  // Over the host's threads, a shell row each: serial, this took 3.1 s of the setup at 256 waters
  // in cc-pVDZ (docs/notes/hf-setup.md).
  const int shells = static_cast<int>(shells_.size());
  Kokkos::parallel_for(
      "hf::function_transform",
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>(
          0, shells),
      [&](const int row) {
        const ShellBlock& a = shells_[row];
        for (const ShellBlock& b : shells_)
          for (int p = 0; p < a.working; ++p)
            for (int q = 0; q < b.working; ++q) {
              double sum = 0.0;
              for (int i = 0; i < a.cartesian; ++i) {
                const double fa = factor(a, i, p);
                if (fa == 0.0) continue;
                for (int j = 0; j < b.cartesian; ++j)
                  sum += fa * m(a.first_cartesian + i, b.first_cartesian + j) * factor(b, j, q);
              }
              out(a.first_working + p, b.first_working + q) = sum;
            }
      });
  Kokkos::fence();
  return out;
}

HostMatrix FunctionTransform::to_working(const HostMatrix& cartesian) const {
  return apply(cartesian, false);
}

HostMatrix FunctionTransform::density_to_working(const HostMatrix& cartesian) const {
  return apply(cartesian, true);
}

void FunctionTransform::density_to_cartesian(DenseProducts& products, const DenseMatrix& working,
                                             const DenseMatrix& cartesian) const {
  products.gemm(Op::plain, Op::plain, 1.0, t_, working, 0.0, work_);
  products.gemm(Op::plain, Op::transposed, 1.0, work_, t_, 0.0, cartesian);
}

void FunctionTransform::g_to_working(DenseProducts& products, const DenseMatrix& cartesian,
                                     const DenseMatrix& working) const {
  products.gemm(Op::plain, Op::plain, 1.0, cartesian, t_, 0.0, work_);
  products.gemm(Op::transposed, Op::plain, 1.0, t_, work_, 0.0, working);
}

}  // namespace kmini::hf
