#include "hf/fock/far_field.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "core/view_of.hpp"
#include "hf/basis/cartesian.hpp"
#include "hf/fock/j_engine_steps.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/hermite.hpp"

namespace kmini::hf {

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Memory = FarField::Memory;

constexpr int kAxisCodes = FarFieldSettings::kMostBoxesPerAxis + 1;  // a code's base an axis
constexpr int kMostDegrees = kMaxHermiteDegree + 1;

// How far the expansions reach past `order`: a row's Hermite degree, at most kMaxHermiteDegree,
// on each side (far_field.hpp).
constexpr int kExpansionMargin = kMaxHermiteDegree;

// x^k / k! for k = 0 .. most, into out.
KOKKOS_INLINE_FUNCTION void scaled_powers(double x, int most, double* out) {
  out[0] = 1.0;
  for (int k = 1; k <= most; ++k)
    out[k] = out[k - 1] * x / k;
}

// The most terms scaled_powers writes in the kernels below: order + margin + 1.
constexpr int kMostPowers = FarFieldSettings::kMostOrder + kExpansionMargin + 1;

// Per (box, component n of the multipole): A_n = sum over its rows of zeta^-1/2 sum_{s <= n}
// rho^s (-d)^(n-s) / (n-s)!.
struct Multipoles {
  Kokkos::View<const int*, Memory> member_begin;
  Kokkos::View<const int* [2], Kokkos::LayoutRight, Memory> members;
  Kokkos::View<const double* [3], Kokkos::LayoutRight, Memory> box_center;
  Kokkos::View<const int* [3], Kokkos::LayoutRight, Memory> powers;
  const double* rows[kMostDegrees];
  int components;
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> out;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const int box = i / components, c = i % components;
    const int n[3] = {powers(c, 0), powers(c, 1), powers(c, 2)};
    double sum = 0.0;
    for (int m = member_begin(box); m < member_begin(box + 1); ++m) {
      const int degree = members(m, 0);
      const double* row =
          rows[degree] + static_cast<std::int64_t>(members(m, 1)) * j_steps::row_length(degree);
      double shifted[3][kMostPowers];
      for (int axis = 0; axis < 3; ++axis)
        scaled_powers(box_center(box, axis) - row[j_steps::kCenter + axis], n[axis], shifted[axis]);
      double terms = 0.0;
      for (int s = 0; s < components_up_to(degree); ++s) {
        const int sx = powers(s, 0), sy = powers(s, 1), sz = powers(s, 2);
        if (sx > n[0] || sy > n[1] || sz > n[2]) continue;
        terms += row[j_steps::kDensity + s] * shifted[0][n[0] - sx] * shifted[1][n[1] - sy] *
                 shifted[2][n[2] - sz];
      }
      sum += terms / sqrt(row[j_steps::kZeta]);
    }
    out(box, c) = sum;
  }
};

// The table of an index difference, from two boxes' codes.
KOKKOS_INLINE_FUNCTION int difference_index(int a, int b, const int grid[3]) {
  int index = 0;
  for (int axis = 2; axis >= 0; --axis) {
    const int shift = axis == 0 ? 1 : axis == 1 ? kAxisCodes : kAxisCodes * kAxisCodes;
    const int d = (a / shift) % kAxisCodes - (b / shift) % kAxisCodes;
    index = index * (2 * grid[axis] - 1) + d + grid[axis] - 1;
  }
  return index;
}

// Per (box A, component j of its local expansion): L_j = sum over the boxes B far from it of
// sum_n A_n(B) R_{j+n}(1, centre of A - centre of B), |n| up to the multipoles' degree and
// |j| + |n| up to the tables'.
struct Locals {
  Kokkos::View<const int*, Memory> box_code;
  Kokkos::View<const int* [3], Kokkos::LayoutRight, Memory> powers;
  Kokkos::View<const double**, Kokkos::LayoutRight, Memory> multipoles, tables;
  int grid[3];
  int separation, expansion_degree, table_degree, boxes, components;
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> out;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const int box = i / components, c = i % components;
    const int j[3] = {powers(c, 0), powers(c, 1), powers(c, 2)};
    const int reach = table_degree - (j[0] + j[1] + j[2]);
    const int most = reach < expansion_degree ? reach : expansion_degree;
    const int code = box_code(box);
    double sum = 0.0;
    for (int b = 0; b < boxes; ++b) {
      if (!boxes_far_apart(code, box_code(b), separation)) continue;
      const double* table = &tables(difference_index(code, box_code(b), grid), 0);
      for (int n = 0; n < components_up_to(most); ++n)
        sum +=
            multipoles(b, n) *
            table[component_index(j[0] + powers(n, 0), j[1] + powers(n, 1), j[2] + powers(n, 2))];
    }
    out(box, c) = sum;
  }
};

// Per row of this rank in a box: w_t += zeta^-1/2 sum_k e^k / k! L_{t+k}, |t + k| up to the
// local expansion's degree.
struct AddLocals {
  Kokkos::View<const int* [3], Kokkos::LayoutRight, Memory> members;  // (box, degree, row)
  Kokkos::View<const double* [3], Kokkos::LayoutRight, Memory> box_center;
  Kokkos::View<const int* [3], Kokkos::LayoutRight, Memory> powers;
  Kokkos::View<const double**, Kokkos::LayoutRight, Memory> locals;
  const double* rows[kMostDegrees];
  double* potentials[kMostDegrees];
  int expansion_degree;

  KOKKOS_INLINE_FUNCTION void operator()(const int m) const {
    const int box = members(m, 0), degree = members(m, 1), r = members(m, 2);
    const double* row = rows[degree] + static_cast<std::int64_t>(r) * j_steps::row_length(degree);
    double* w = potentials[degree] + static_cast<std::int64_t>(r) * components_up_to(degree);
    double offset[3][kMostPowers];
    for (int axis = 0; axis < 3; ++axis)
      scaled_powers(row[j_steps::kCenter + axis] - box_center(box, axis), expansion_degree,
                    offset[axis]);
    const double scale = 1.0 / sqrt(row[j_steps::kZeta]);
    for (int t = 0; t < components_up_to(degree); ++t) {
      const int tx = powers(t, 0), ty = powers(t, 1), tz = powers(t, 2);
      double sum = 0.0;
      for (int k = 0; k < components_up_to(expansion_degree - (tx + ty + tz)); ++k) {
        const int kx = powers(k, 0), ky = powers(k, 1), kz = powers(k, 2);
        sum += offset[0][kx] * offset[1][ky] * offset[2][kz] *
               locals(box, component_index(tx + kx, ty + ky, tz + kz));
      }
      w[t] += scale * sum;
    }
  }
};

// A table of `Width` ints a row from their flat list.
template <int Width>
Kokkos::View<int* [Width], Kokkos::LayoutRight, Memory> flat_table(const char* label,
                                                                   const std::vector<int>& flat) {
  Kokkos::View<int* [Width], Kokkos::LayoutRight, Memory> view(std::string(label),
                                                               flat.size() / Width);
  auto host = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < host.extent(0); ++i)
    for (int k = 0; k < Width; ++k)
      host(i, k) = flat[i * Width + k];
  Kokkos::deep_copy(view, host);
  return view;
}

}  // namespace

void FarField::asymptotic_coulomb(int degree, const double x[3], double* r) {
  const double r2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
  std::vector<double> auxiliary(degree + 1);
  // (-2)^n F_n(|x|^2), F_0 = sqrt(pi) / (2 |x|) and F_{n+1} = (2n + 1) F_n / (2 |x|^2).
  double f = 0.886226925452758014 / std::sqrt(r2), scale = 1.0;
  for (int n = 0; n <= degree; ++n) {
    auxiliary[n] = scale * f;
    f *= (2 * n + 1) / (2.0 * r2);
    scale *= -2.0;
  }
  hermite_from_auxiliary(degree, auxiliary.data(), x, r);
}

FarField::FarField(const FarFieldSettings& settings, const std::vector<std::vector<RowPlace>>& rows,
                   const std::vector<std::vector<int>>& owned)
    : settings_(settings), degrees_(static_cast<int>(rows.size())) {
  row_codes_.resize(degrees_);
  row_pairs_.assign(static_cast<std::size_t>(degrees_) * degrees_, 0.0);
  for (int d = 0; d < degrees_; ++d)
    row_codes_[d].assign(rows[d].size(), -1);
  if (settings.order <= 0) return;
  if (settings.order > FarFieldSettings::kMostOrder || degrees_ > kMostDegrees ||
      settings.separation < 1 || !(settings.box_bohr > 0.0))
    throw std::invalid_argument("FarField: order, separation or box out of range");
  const double gap = settings.separation * settings.box_bohr;
  smallest_zeta_ = 2.0 * Impl::boys_asymptotic_from(kBoysMaxOrder) / (gap * gap);

  // The grid: from the smallest centre of the rows that take part, box_bohr a box.
  double low[3] = {1e300, 1e300, 1e300}, high[3] = {-1e300, -1e300, -1e300};
  bool any = false;
  for (const auto& of_degree : rows)
    for (const RowPlace& row : of_degree) {
      if (row.zeta < smallest_zeta_) continue;
      any = true;
      for (int axis = 0; axis < 3; ++axis) {
        low[axis] = std::min(low[axis], row.center[axis]);
        high[axis] = std::max(high[axis], row.center[axis]);
      }
    }
  if (!any) return;
  for (int axis = 0; axis < 3; ++axis) {
    grid_[axis] = static_cast<int>(std::floor((high[axis] - low[axis]) / settings.box_bohr)) + 1;
    if (grid_[axis] > FarFieldSettings::kMostBoxesPerAxis)
      throw std::invalid_argument("FarField: more than " +
                                  std::to_string(FarFieldSettings::kMostBoxesPerAxis) +
                                  " boxes along an axis; take larger boxes");
  }
  const auto index_along = [&](const RowPlace& row, int axis) {
    return std::min(grid_[axis] - 1, static_cast<int>(std::floor((row.center[axis] - low[axis]) /
                                                                 settings.box_bohr)));
  };

  // The boxes that hold rows, by code; each row's box.
  std::map<int, int> box_of_code;
  for (int d = 0; d < degrees_; ++d)
    for (std::size_t r = 0; r < rows[d].size(); ++r) {
      const RowPlace& row = rows[d][r];
      if (row.zeta < smallest_zeta_) continue;
      const int code = index_along(row, 0) +
                       kAxisCodes * (index_along(row, 1) + kAxisCodes * index_along(row, 2));
      row_codes_[d][r] = code;
      box_of_code.emplace(code, 0);
    }
  std::vector<int> codes;
  for (auto& [code, box] : box_of_code) {
    box = static_cast<int>(codes.size());
    codes.push_back(code);
  }
  boxes_ = static_cast<int>(codes.size());

  // Each box's rows, and this rank's; per box and degree, how many of each.
  std::vector<std::vector<std::array<int, 2>>> in_box(boxes_);
  std::vector<int> owned_members;
  std::vector<double> count(static_cast<std::size_t>(boxes_) * degrees_, 0.0),
      owned_count(count.size(), 0.0);
  for (int d = 0; d < degrees_; ++d) {
    for (std::size_t r = 0; r < rows[d].size(); ++r)
      if (row_codes_[d][r] >= 0) {
        const int box = box_of_code[row_codes_[d][r]];
        in_box[box].push_back({d, static_cast<int>(r)});
        count[box * degrees_ + d] += 1.0;
      }
    for (const int r : owned[d])
      if (row_codes_[d][r] >= 0) {
        const int box = box_of_code[row_codes_[d][r]];
        owned_members.insert(owned_members.end(), {box, d, r});
        owned_count[box * degrees_ + d] += 1.0;
      }
  }
  std::vector<int> member_begin{0}, members;
  for (const auto& list : in_box) {
    for (const auto& [d, r] : list)
      members.insert(members.end(), {d, r});
    member_begin.push_back(static_cast<int>(members.size() / 2));
  }
  for (int a = 0; a < boxes_; ++a)
    for (int b = 0; b < boxes_; ++b)
      if (boxes_far_apart(codes[a], codes[b], settings.separation))
        for (int bra = 0; bra < degrees_; ++bra)
          for (int ket = 0; ket < degrees_; ++ket)
            row_pairs_[bra * degrees_ + ket] +=
                owned_count[a * degrees_ + bra] * count[b * degrees_ + ket];

  // Per index difference past the separation, R between the two centres.
  const int table_components = components_up_to(table_degree());
  const int differences = (2 * grid_[0] - 1) * (2 * grid_[1] - 1) * (2 * grid_[2] - 1);
  tables_ = Kokkos::View<double**, Kokkos::LayoutRight, Memory>("hf::far_field_tables", differences,
                                                                table_components);
  auto tables = Kokkos::create_mirror_view(tables_);
  for (int dz = 1 - grid_[2]; dz < grid_[2]; ++dz)
    for (int dy = 1 - grid_[1]; dy < grid_[1]; ++dy)
      for (int dx = 1 - grid_[0]; dx < grid_[0]; ++dx) {
        const int largest = std::max({std::abs(dx), std::abs(dy), std::abs(dz)});
        if (largest <= settings.separation) continue;
        const int index =
            ((dz + grid_[2] - 1) * (2 * grid_[1] - 1) + dy + grid_[1] - 1) * (2 * grid_[0] - 1) +
            dx + grid_[0] - 1;
        const double x[3] = {dx * settings.box_bohr, dy * settings.box_bohr,
                             dz * settings.box_bohr};
        asymptotic_coulomb(table_degree(), x, &tables(index, 0));
      }
  Kokkos::deep_copy(tables_, tables);

  std::vector<int> powers(3 * table_components);
  for (int l = 0; l <= table_degree(); ++l)
    for (int x = l; x >= 0; --x)
      for (int y = l - x; y >= 0; --y) {
        const int c = component_index(x, y, l - x - y);
        powers[3 * c] = x;
        powers[3 * c + 1] = y;
        powers[3 * c + 2] = l - x - y;
      }
  powers_ =
      Kokkos::View<int* [3], Kokkos::LayoutRight, Memory>("hf::far_field_powers", table_components);
  auto powers_host = Kokkos::create_mirror_view(powers_);
  for (int c = 0; c < table_components; ++c)
    for (int axis = 0; axis < 3; ++axis)
      powers_host(c, axis) = powers[3 * c + axis];
  Kokkos::deep_copy(powers_, powers_host);

  box_code_ = view_of<Kokkos::View<int*, Memory>>("hf::far_field_box_codes", codes);
  box_center_ =
      Kokkos::View<double* [3], Kokkos::LayoutRight, Memory>("hf::far_field_box_centers", boxes_);
  auto centers = Kokkos::create_mirror_view(box_center_);
  for (int b = 0; b < boxes_; ++b)
    for (int axis = 0; axis < 3; ++axis) {
      const int shift = axis == 0 ? 1 : axis == 1 ? kAxisCodes : kAxisCodes * kAxisCodes;
      centers(b, axis) = low[axis] + ((codes[b] / shift) % kAxisCodes + 0.5) * settings.box_bohr;
    }
  Kokkos::deep_copy(box_center_, centers);
  member_begin_ = view_of<Kokkos::View<int*, Memory>>("hf::far_field_member_begin", member_begin);
  members_ = flat_table<2>("hf::far_field_members", members);
  owned_members_ = flat_table<3>("hf::far_field_owned_members", owned_members);
  const int expansion = components_up_to(settings.order + kExpansionMargin);
  multipoles_ = Kokkos::View<double**, Kokkos::LayoutRight, Memory>("hf::far_field_multipoles",
                                                                    boxes_, expansion);
  locals_ = Kokkos::View<double**, Kokkos::LayoutRight, Memory>("hf::far_field_locals", boxes_,
                                                                expansion);
}

double FarField::add(const Rows& rows, const Rows& potentials) {
  const auto start = std::chrono::steady_clock::now();
  if (!active()) return 0.0;
  const int expansion_degree = settings_.order + kExpansionMargin;
  const int components = components_up_to(expansion_degree);
  Multipoles multipoles{member_begin_, members_, box_center_, powers_, {}, components, multipoles_};
  AddLocals add_locals{owned_members_, box_center_, powers_, locals_, {}, {}, expansion_degree};
  for (int d = 0; d < degrees_; ++d) {
    multipoles.rows[d] = rows[d].data();
    add_locals.rows[d] = rows[d].data();
    add_locals.potentials[d] = potentials[d].data();
  }
  Kokkos::parallel_for("hf::far_field_multipoles",
                       Kokkos::RangePolicy<Exec>(0, boxes_ * components), multipoles);
  Locals locals{box_code_,
                powers_,
                multipoles_,
                tables_,
                {grid_[0], grid_[1], grid_[2]},
                settings_.separation,
                expansion_degree,
                table_degree(),
                boxes_,
                components,
                locals_};
  Kokkos::parallel_for("hf::far_field_locals", Kokkos::RangePolicy<Exec>(0, boxes_ * components),
                       locals);
  Kokkos::parallel_for("hf::far_field_add_locals",
                       Kokkos::RangePolicy<Exec>(0, owned_members_.extent_int(0)), add_locals);
  Exec().fence();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace kmini::hf
