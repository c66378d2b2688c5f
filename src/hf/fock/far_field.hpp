// The J engine's far field (fock/j_engine.hpp): Hermite rows far apart interact through
// multipole expansions about the centres of cubic boxes, the rest exactly.
//
// Where rho |PQ|^2 is past the Boys function's asymptotic point for every order the engine uses
// (boys_asymptotic_from(kBoysMaxOrder)), R_{t+s}(rho, PQ) / sqrt(zeta_p + zeta_q) is
// R_{t+s}(1, PQ) / sqrt(zeta_p zeta_q) to rounding: each row is then a point multipole at its
// centre, and the only error left is the expansions' truncation. So:
//
//   - Space is cut into cubes of side box_bohr. Two boxes are far apart where their indices differ
//     by more than `separation` along some axis: their points are then at least separation x
//     box_bohr apart. A row takes part where its exponent makes every pair of such rows
//     asymptotic (zeta >= 2 T / (separation box_bohr)^2, since rho >= min(zeta_p, zeta_q) / 2);
//     the more diffuse rows, and every pair of rows in boxes near each other, stay in the near
//     field, which skips exactly the pairs the far field takes.
//   - Per build, each box's multipole A_n = sum over its rows q of zeta_q^-1/2 sum_{s + m = n}
//     rho_q^s (-d_q)^m / m! (d_q its centre less the box's), each box's local expansion
//     L_j = sum over far boxes B of sum_n A_n(B) R_{j+n}(1, centre of A - centre of B), and each of
//     this rank's rows p adds zeta_p^-1/2 sum_k e_p^k / k! L_{t+k} to its potential's term t
//     (e_p its centre less its box's).
//   - The expansions are kept to total degree order + 4 each and their product to order + 8,
//     which holds every term of degree up to `order` in the two offsets together whatever the two
//     rows' Hermite degrees (up to 4 each). R between two box centres depends on their index
//     difference alone: one table per difference, made once.
//
// docs/reference/hf/far-field-multipoles.py estimates what each order and separation leaves of
// the energy; docs/notes/hf-j-engine.md has the measurements.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

namespace kmini::hf {

struct FarFieldSettings {
  static constexpr int kMostOrder = 24;           // the kernels' arrays hold the terms up to it
  static constexpr int kMostBoxesPerAxis = 1023;  // a box's code holds 10 bits an axis
  int order = 0;                                  // 0: no far field
  double box_bohr = 8.0;
  int separation = 2;
};

// A Hermite row as the far field sees it: its centre and exponent.
struct RowPlace {
  double center[3] = {0.0, 0.0, 0.0};
  double zeta = 0.0;
};

// Whether two boxes, by their codes (FarField::code), interact through the far field.
KOKKOS_INLINE_FUNCTION bool boxes_far_apart(int a, int b, int separation) {
  constexpr int kAxis = 1024;
  for (int axis = 0; axis < 3; ++axis) {
    const int d = a % kAxis - b % kAxis;
    if (d > separation || -d > separation) return true;
    a /= kAxis;
    b /= kAxis;
  }
  return false;
}

class FarField {
 public:
  using Memory = Kokkos::DefaultExecutionSpace::memory_space;
  using Rows = std::vector<Kokkos::View<double*, Memory>>;  // per degree, as the engine's tables

  // rows[d][r]: row r of degree d; owned[d]: the rows whose potentials this rank computes.
  FarField(const FarFieldSettings& settings, const std::vector<std::vector<RowPlace>>& rows,
           const std::vector<std::vector<int>>& owned);

  bool active() const { return settings_.order > 0 && boxes_ > 0; }
  int separation() const { return settings_.separation; }
  int boxes() const { return boxes_; }
  // The smallest exponent of a row that takes part.
  double smallest_zeta() const { return smallest_zeta_; }
  // Per degree and row, its box's code (three indices of 10 bits), or -1 for a row that stays
  // in the near field.
  const std::vector<std::vector<int>>& row_codes() const { return row_codes_; }
  // The (bra row of this rank, ket row) pairs the far field takes, per (bra degree, ket degree).
  double row_pairs(int bra_degree, int ket_degree) const {
    return row_pairs_[bra_degree * degrees_ + ket_degree];
  }

  // Adds the far field to this rank's rows' potentials, from every row's Hermite density (the
  // engine's tables, `row_length` doubles a row of each degree). Returns its seconds.
  double add(const Rows& rows, const Rows& potentials);

  // The largest total degree of the R tables: order + 8.
  int table_degree() const { return settings_.order + 8; }

  // R_n(1, x) for every Hermite index n of total degree up to `degree`, numbered as
  // component_index: the derivatives of sqrt(pi) / (2 |x|), the asymptotic F_0.
  static void asymptotic_coulomb(int degree, const double x[3], double* r);

 private:
  FarFieldSettings settings_;
  int degrees_ = 0, boxes_ = 0;
  int grid_[3] = {0, 0, 0};
  double smallest_zeta_ = 0.0;
  std::vector<std::vector<int>> row_codes_;
  std::vector<double> row_pairs_;
  // Per box: its code and centre, and its rows from member_begin_[box] on; this rank's rows.
  Kokkos::View<int*, Memory> box_code_;
  Kokkos::View<double* [3], Kokkos::LayoutRight, Memory> box_center_;
  Kokkos::View<int*, Memory> member_begin_;
  Kokkos::View<int* [2], Kokkos::LayoutRight, Memory> members_;        // (degree, row)
  Kokkos::View<int* [3], Kokkos::LayoutRight, Memory> owned_members_;  // (box, degree, row)
  // Per index difference, R of its centres' difference, components_up_to(table_degree()) each.
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> tables_;
  // Per component up to table_degree(), its powers.
  Kokkos::View<int* [3], Kokkos::LayoutRight, Memory> powers_;
  // Per box, its multipole and its local expansion, components_up_to(order + 4) each.
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> multipoles_, locals_;
};

}  // namespace kmini::hf
