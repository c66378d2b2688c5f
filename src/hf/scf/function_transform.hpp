// The SCF's functions as combinations of the Cartesian functions the integrals are computed over:
// the Cartesian functions themselves, or real solid harmonics (five d functions per d shell in
// place of six Cartesian ones). The integral code stays Cartesian; each matrix crosses over once
// per use, outside the G build: S, T and V once per run, and per G build the density into the
// Cartesian functions and G back (two products each, T of n_cartesian x n_working).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "hf/basis/molecular_basis.hpp"
#include "hf/integrals/one_electron.hpp"
#include "hf/scf/dense_products.hpp"

namespace kmini::hf {

enum class Functions { cartesian, spherical };
const char* functions_name(Functions functions);

// The functions of a shell of angular momentum l in that convention.
int functions_of_shell(int l, Functions functions);

class FunctionTransform {
 public:
  FunctionTransform(const MolecularBasis& basis, Functions functions);
  ~FunctionTransform();

  // Whether the SCF's functions are the Cartesian ones (no d shell, or Cartesian chosen).
  bool identity() const { return cartesian_ == working_; }
  int cartesian() const { return cartesian_; }
  int working() const { return working_; }

  // T^T M T: a matrix over the Cartesian functions (S, T, V) over the SCF's.
  HostMatrix to_working(const HostMatrix& cartesian) const;
  // L D L^T, L = (T^T T)^{-1} T^T: a density over the Cartesian functions (the atomic guess's)
  // as the nearest one over the SCF's.
  HostMatrix density_to_working(const HostMatrix& cartesian) const;

  // On the device, where the G build runs: T D T^T into `cartesian`, and T^T G T into `working`.
  void density_to_cartesian(DenseProducts& products, const DenseMatrix& working,
                            const DenseMatrix& cartesian) const;
  void g_to_working(DenseProducts& products, const DenseMatrix& cartesian,
                    const DenseMatrix& working) const;

 private:
  // Per shell: its first Cartesian and first working function, and its block of T.
  struct ShellBlock {
    int first_cartesian = 0, first_working = 0, cartesian = 0, working = 0;
    std::vector<double> t;  // cartesian x working, row-major
    std::vector<double> l;  // working x cartesian, row-major: (T^T T)^{-1} T^T
  };
  HostMatrix apply(const HostMatrix& m, bool density) const;

  int cartesian_ = 0, working_ = 0;
  std::vector<ShellBlock> shells_;
  DenseMatrix t_, work_;  // T on the device, and an n_cartesian x n_working buffer
};

}  // namespace kmini::hf
