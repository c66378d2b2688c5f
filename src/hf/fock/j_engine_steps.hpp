// The J engine's three steps as kernels (fock/j_engine.hpp says what each does), and the
// layout of the Hermite rows they share: step 1 (FillRows), step 2 (HermiteInteractions and,
// where a bra row's kets are in segments, SegmentSums) and step 3 (BraBlocks). Included by
// j_engine.cpp and far_field.cpp (which reads the rows) alone.
#pragma once

#include <cstdint>
#include <type_traits>

#include <Kokkos_Core.hpp>

#include "core/fixed_sums.hpp"
#include "hf/basis/cartesian.hpp"
#include "hf/fock/far_field.hpp"
#include "hf/fock/j_engine.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/hermite.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "hf/integrals/unrolled.hpp"

namespace kmini::hf::j_steps {

using Exec = Kokkos::DefaultExecutionSpace;
using Memory = JEngine::Memory;
constexpr int kDegrees = JEngineRecord::kDegrees;

// A Hermite row (hermite_rows.hpp): its bound (the sum of its products'), its screening weight
// this build (the sum of its products' bounds times their pairs' largest |D|), zeta, P, its far
// field box's code (far_field.hpp; -1 where it stays in the near field), then the Hermite
// density, padded to 16 bytes.
enum RowField : int { kBound = 0, kWeight, kZeta, kCenter, kBox = kCenter + 3, kDensity };
KOKKOS_INLINE_FUNCTION constexpr int row_length(int degree) {
  return (kDensity + components_up_to(degree) + 1) / 2 * 2;
}

// (-1)^degree, the sign a ket's Hermite Gaussian of that degree takes in R.
KOKKOS_INLINE_FUNCTION constexpr double ket_sign(int degree) {
  return degree % 2 == 0 ? 1.0 : -1.0;
}

// The three axes' E coefficients of a product of pair kind (LA, LB).
template <int LA, int LB>
struct HermiteProduct {
  HermiteAxis<LA, LB> axis[3];

  KOKKOS_INLINE_FUNCTION HermiteProduct(const PrimitiveProduct& product, const double ab[3]) {
    for (int x = 0; x < 3; ++x)
      hermite_1d<LA, LB>(product.from_a[x], product.from_a[x] + ab[x], product.half_inverse_zeta,
                         axis[x]);
  }

  // f(tuv, E^{ab}_tuv) over the Hermite indices (t, u, v) of local components a of LA, b of LB.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_term(int a, int b, const F& f) const {
    int pa[3], pb[3];
    for (int x = 0; x < 3; ++x) {
      pa[x] = power_within_degree(LA, a, x);
      pb[x] = power_within_degree(LB, b, x);
    }
    for (int t = 0; t <= pa[0] + pb[0]; ++t)
      for (int u = 0; u <= pa[1] + pb[1]; ++u)
        for (int v = 0; v <= pa[2] + pb[2]; ++v)
          f(component_index(t, u, v),
            axis[0].e[pa[0]][pb[0]][t] * axis[1].e[pa[1]][pb[1]][u] * axis[2].e[pa[2]][pb[2]][v]);
  }
};

// f(std::integral_constant<int, la>, std::integral_constant<int, lb>) for a pair kind known at
// run time.
template <class F>
KOKKOS_INLINE_FUNCTION void with_kind(int kind, const F& f) {
  using Impl::static_for;
  static_for<0, kPairKinds>([&](auto k) {
    constexpr int la = bra_l_of_kind(decltype(k)::value), lb = ket_l_of_kind(decltype(k)::value);
    if (kind == decltype(k)::value)
      f(std::integral_constant<int, la>{}, std::integral_constant<int, lb>{});
  });
}

// Adds one product's Hermite density sign * weight * sum_cd D_cd E^{cd}_tuv into its row's
// (of degree RowDegree >= LA + LB), with D_dc added for two different shells (their canonical
// pair stands for both orders).
template <int LA, int LB, int RowDegree>
KOKKOS_INLINE_FUNCTION void add_product_density(const ShellPairs<Memory>& pairs,
                                                const Matrix<Memory>& density, int pair, int k,
                                                double* sum) {
  const int fa = pairs.first_functions(pair, 0), fb = pairs.first_functions(pair, 1);
  const bool both_orders = pairs.shells(pair, 0) != pairs.shells(pair, 1);
  const double ab[3] = {pairs.ab(pair, 0), pairs.ab(pair, 1), pairs.ab(pair, 2)};
  const PrimitiveProduct& product = pairs.products(k);
  const HermiteProduct<LA, LB> e(product, ab);
  for (int a = 0; a < functions_of_l(LA); ++a)
    for (int b = 0; b < functions_of_l(LB); ++b) {
      const double d = density(fa + a, fb + b) + (both_orders ? density(fb + b, fa + a) : 0.0);
      e.for_each_term(a, b, [&](int s, double coefficient) {
        sum[s] += ket_sign(component_degree(s)) * product.coulomb_weight * d * coefficient;
      });
    }
}

// Step 1 for the rows of one degree, a thread per row: its header and the sum of its products'
// Hermite densities. Every product adds its pair's density, however small: a ket of small
// density still reaches the bras of large density (the screen in HermiteInteractions), as a
// quartet does in the G build's screen, which weighs D_ab beside D_cd.
template <int RowDegree>
struct FillRows {
  static constexpr int n = components_up_to(RowDegree);
  ShellPairs<Memory> pairs;
  Matrix<Memory> density;
  Kokkos::View<const double*, Memory> pair_density;
  Kokkos::View<const int*, Memory> kind, product_pair, member_begin, members;
  Kokkos::View<const int*, Memory> box;  // per row: its far field box's code, or -1
  Kokkos::View<double*, Memory> rows;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    double* out = &rows(static_cast<std::int64_t>(r) * row_length(RowDegree));
    double sum[n];
    for (int s = 0; s < n; ++s)
      sum[s] = 0.0;
    double row_bound = 0.0, weight = 0.0;
    for (int m = member_begin(r); m < member_begin(r + 1); ++m) {
      const int k = members(m), pair = product_pair(k);
      row_bound += pairs.products(k).bound;
      weight += pairs.products(k).bound * pair_density(pair);
      with_kind(kind(pair), [&](auto la, auto lb) {
        constexpr int l_a = decltype(la)::value, l_b = decltype(lb)::value;
        if constexpr (l_a + l_b <= RowDegree)
          add_product_density<l_a, l_b, RowDegree>(pairs, density, pair, k, sum);
      });
    }
    const PrimitiveProduct& first = pairs.products(members(member_begin(r)));
    out[kBound] = row_bound;
    out[kWeight] = weight;
    out[kZeta] = first.zeta;
    for (int x = 0; x < 3; ++x)
      out[kCenter + x] = first.center[x];
    out[kBox] = box(r);
    for (int s = 0; s < n; ++s)
      out[kDensity + s] = sum[s];
  }
};

// Lanes per bra row by default on a GPU, by the bra rows' Hermite degree: an s-s product's row
// has few kets that its screen keeps, and a warp's lanes idled over them; the host's one lane
// a row has its threads' bra rows enough (docs/notes/hf-j-engine.md has the measurements).
constexpr int kKetLanesOfDegreeZero = 4, kKetLanesAbove = 8;
// Threads per team: a GPU's block of four warps, each warp one bra row or, with fewer lanes per
// bra row, several.
constexpr int kTeamThreads =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible ? 1 : 128;

// Step 2 for this rank's rows of one degree, as bras, against every row of another, as kets:
// each bra row's lanes add into its potential w_t sum over kets q of
// R_{t+s}(rho_pq, P - Q) rho_q^s / sqrt(zeta_p + zeta_q), lane l of segment g over rows
// g lanes + l, plus segments x lanes, ... of the launch's tile of ket rows (the launches walk the
// tiles in order, JEngine::launch_interactions). Where the segments are more than one, each
// writes its sums apart and SegmentSums adds them in order after each tile, so that every build
// sums alike.
// The rows are by bound descending: a lane stops at the first whose bound times the largest
// density is under the bra's cutoff, and skips those that reach it neither by their weight nor
// by the bra's (add_kets), and those the far field takes (far_field.hpp).
//
// Once (JRowPairs::once): each pair of rows of two degrees is visited from one side only, the bra
// of the higher degree (BraDegree > KetDegree), which costs less than the other way; the same R
// gives the ket row's potential too, w_s += (-1)^|s| sum_t R_{t+s} (-1)^|t| rho_p^t / sqrt(...),
// added with atomics, so that the sums' order, and their last bits, vary from build to build.
// The screen is symmetric in the two rows, so the pairs kept are the same either way. Rows of one
// degree are visited both ways still: their triangle with atomics on both sides was slower.
template <int BraDegree, int KetDegree, bool Once = false>
struct HermiteInteractions {
  static constexpr int degree = BraDegree + KetDegree;
  static constexpr int n_bra = components_up_to(BraDegree), n_ket = components_up_to(KetDegree);
  static_assert(!Once || BraDegree > KetDegree, "once: the bra has the higher degree");
  static constexpr bool once = Once;
  static constexpr int bra_length = row_length(BraDegree), ket_length = row_length(KetDegree);
  using Team = typename Kokkos::TeamPolicy<Exec>::member_type;
  // The potential's n_bra terms, then the count of interactions.
  using Sums = FixedSums<n_bra + 1>;

  BoysTable<Memory> boys;
  Kokkos::View<const int*, Memory> bras;  // rows of BraDegree
  Kokkos::View<const double*, Memory> bra_rows, kets;
  Kokkos::View<double*, Memory> potentials;      // of BraDegree's rows
  Kokkos::View<double*, Memory> ket_potentials;  // of KetDegree's rows, where Once
  // Per (bra of the chunk, segment), its sums, where the segments are more than one.
  Kokkos::View<double*, Memory> segment_sums;
  double cutoff;  // on bound_p weight_q and weight_p bound_q
  double largest_density;
  int far_separation;      // 0: no far field; else the pairs of rows it takes are left out here
  int first_ket, end_ket;  // this launch's tile of the ket rows
  int lanes, segments;
  int first_bra, end_bra;  // this launch's chunk

  // Where R, the ket's density and the potential's sums fit the registers together, the
  // contractions below are unrolled whole, every index a constant, so that R stays in registers
  // (nvcc left the loops rolled for (3, 2), and R in local memory); past that, the unrolled
  // kernels spilled, and the loops are left to the compiler, R in local memory.
  static constexpr bool unrolled_contractions = components_up_to(degree) + n_bra + n_ket <= 90;

  // The index of the component whose powers are those of components a and b added.
  KOKKOS_INLINE_FUNCTION static constexpr int sum_index(int a, int b) {
    return component_index(component_power(a, 0) + component_power(b, 0),
                           component_power(a, 1) + component_power(b, 1),
                           component_power(a, 2) + component_power(b, 2));
  }

  // f(o, sum over the components i of degree up to InDegree of R[o + i] x[i]) for each component
  // o of degree up to OutDegree: the contractions both ways, unrolled whole where
  // unrolled_contractions, every index a constant, else nested loops over the powers.
  template <int OutDegree, int InDegree, class F>
  KOKKOS_FORCEINLINE_FUNCTION static void contract_r(const double* r, const double* x, const F& f) {
    if constexpr (unrolled_contractions) {
      Impl::static_for<0, components_up_to(OutDegree)>([&](auto o) {
        double sum = 0.0;
        Impl::static_for<0, components_up_to(InDegree)>([&](auto i) {
          sum += r[sum_index(decltype(o)::value, decltype(i)::value)] * x[decltype(i)::value];
        });
        f(decltype(o)::value, sum);
      });
    } else {
      for (int t = 0; t <= OutDegree; ++t)
        for (int u = 0; u <= OutDegree - t; ++u)
          for (int v = 0; v <= OutDegree - t - u; ++v) {
            double sum = 0.0;
            for (int tau = 0; tau <= InDegree; ++tau)
              for (int nu = 0; nu <= InDegree - tau; ++nu)
                for (int phi = 0; phi <= InDegree - tau - nu; ++phi)
                  sum += r[component_index(t + tau, u + nu, v + phi)] *
                         x[component_index(tau, nu, phi)];
            f(component_index(t, u, v), sum);
          }
    }
  }

  // w[t] += scale * sum over the ket's Hermite indices s of R[t + s] rho[s], over the bra's t.
  KOKKOS_INLINE_FUNCTION static void contract(const double* r, const double* rho, double scale,
                                              double* w) {
    contract_r<BraDegree, KetDegree>(r, rho, [&](int t, double sum) { w[t] += scale * sum; });
  }

  // One lane's share of a bra row's kets. A pair of rows is kept where bound_p weight_q or
  // weight_p bound_q reaches the cutoff: the G build keeps a quartet for the larger of D_ab and
  // D_cd, and J_ab's error, which the energy weighs by D_ab, must stay as small. Past the first
  // row whose bound times the largest density is under the cutoff over bound_p, neither can
  // (each weight is at most its bound times the largest density).
  // Once: the ket row q's potential, (-1)^|s| scale sum_t R[t + s] sigma[t], by atomic adds
  // (sigma: the bra row's Hermite density with its ket sign taken off, (-1)^|t| rho_p^t).
  KOKKOS_INLINE_FUNCTION void add_to_ket(const double* r, const double* sigma, double scale,
                                         int q) const {
    double* w = &ket_potentials(static_cast<std::int64_t>(q) * n_ket);
    contract_r<KetDegree, BraDegree>(r, sigma, [&](int s, double sum) {
      Kokkos::atomic_add(&w[s], ket_sign(component_degree(s)) * scale * sum);
    });
  }

  // One lane's share of a bra row's kets in the tile, rows first_ket + first, + stride, ...
  KOKKOS_INLINE_FUNCTION void add_kets(const double* bra, int first, int stride, Sums& sums) const {
    const double smallest_weight = cutoff / bra[kBound];
    const double smallest_bound = smallest_weight / largest_density;
    const double bra_weight = bra[kWeight];
    const double zeta = bra[kZeta];
    const int bra_box = far_separation > 0 ? static_cast<int>(bra[kBox]) : -1;
    double sigma[Once ? n_bra : 1];
    if constexpr (Once)
      for (int t = 0; t < n_bra; ++t)
        sigma[t] = ket_sign(component_degree(t)) * bra[kDensity + t];
    for (int q = first_ket + first; q < end_ket; q += stride) {
      const double* row = &kets(static_cast<std::int64_t>(q) * ket_length);
      if (row[kBound] < smallest_bound) break;
      if (row[kWeight] < smallest_weight && row[kBound] * bra_weight < cutoff) continue;
      if (bra_box >= 0 && row[kBox] >= 0.0 &&
          boxes_far_apart(bra_box, static_cast<int>(row[kBox]), far_separation))
        continue;
      const double inverse_root = reciprocal_sqrt(zeta + row[kZeta]);
      const double pq[3] = {bra[kCenter] - row[kCenter], bra[kCenter + 1] - row[kCenter + 1],
                            bra[kCenter + 2] - row[kCenter + 2]};
      double r[components_up_to(degree)];
      hermite_coulomb<degree>(boys, zeta * row[kZeta] * inverse_root * inverse_root, pq, r);
      contract(r, row + kDensity, inverse_root, sums.value);
      if constexpr (Once) add_to_ket(r, sigma, inverse_root, q);
      sums.value[n_bra] += 1.0;
    }
  }

  // A warp per (bra row, segment) of the chunk, item = bra x segments + segment.
  KOKKOS_INLINE_FUNCTION void operator()(const Team& team, double& interactions) const {
    const int team_first = team.league_rank() * team.team_size();
    const int items = (end_bra - first_bra) * segments;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, team.team_size()), [&](const int b) {
      const int item = team_first + b;
      if (item >= items) return;
      const int segment = item % segments;
      const int r = bras(first_bra + item / segments);
      const double* bra = &bra_rows(static_cast<std::int64_t>(r) * bra_length);
      Sums sums;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, lanes),
          [&](const int lane, Sums& lane_sums) {
            add_kets(bra, segment * lanes + lane, segments * lanes, lane_sums);
          },
          sums);
      Kokkos::single(Kokkos::PerThread(team), [&] {
        double* out = segments == 1 ? &potentials(static_cast<std::int64_t>(r) * n_bra)
                                    : &segment_sums(static_cast<std::int64_t>(item) * n_bra);
        for (int t = 0; t < n_bra; ++t)
          out[t] = segments == 1 ? out[t] + sums.value[t] : sums.value[t];
        interactions += sums.value[n_bra];
      });
    });
  }
};

// After a chunk of HermiteInteractions whose bra rows have several segments: each bra row's
// segments' sums added into its potential in segment order, a thread per bra row.
struct SegmentSums {
  Kokkos::View<const int*, Memory> bras;
  Kokkos::View<const double*, Memory> segment_sums;
  Kokkos::View<double*, Memory> potentials;
  int n_bra, segments, first_bra;

  KOKKOS_INLINE_FUNCTION void operator()(const int b) const {
    double* out = &potentials(static_cast<std::int64_t>(bras(first_bra + b)) * n_bra);
    for (int g = 0; g < segments; ++g) {
      const double* sums = &segment_sums((static_cast<std::int64_t>(b) * segments + g) * n_bra);
      for (int t = 0; t < n_bra; ++t)
        out[t] += sums[t];
    }
  }
};

// Step 3, a thread per pair of kind (LA, LB): J_ab = sum over its products of
// weight * sum_t E^{ab}_t w_t, w the potential of the product's row, into the pair's block and
// its transpose; no other pair writes either. A row another rank computes has a zero potential
// here: the ranks' J add up.
template <int LA, int LB>
struct BraBlocks {
  static constexpr int na = functions_of_l(LA), nb = functions_of_l(LB);
  ShellPairs<Memory> pairs;
  Kokkos::View<const int*, Memory> of_kind, product_row, product_row_degree;
  const double* potentials[kDegrees];  // each degree's
  Matrix<Memory> j;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const int pair = of_kind(i);
    const double ab[3] = {pairs.ab(pair, 0), pairs.ab(pair, 1), pairs.ab(pair, 2)};
    double block[na * nb];
    for (int x = 0; x < na * nb; ++x)
      block[x] = 0.0;
    for (int k = pairs.primitives_begin(pair); k < pairs.primitives_begin(pair + 1); ++k) {
      const PrimitiveProduct& product = pairs.products(k);
      const HermiteProduct<LA, LB> e(product, ab);
      const int d = product_row_degree(k);
      const double* w =
          potentials[d] + static_cast<std::int64_t>(product_row(k)) * components_up_to(d);
      for (int a = 0; a < na; ++a)
        for (int b = 0; b < nb; ++b) {
          double value = 0.0;
          e.for_each_term(a, b, [&](int t, double coefficient) { value += coefficient * w[t]; });
          block[a * nb + b] += product.coulomb_weight * value;
        }
    }
    const int fa = pairs.first_functions(pair, 0), fb = pairs.first_functions(pair, 1);
    const bool transposed_too = pairs.shells(pair, 0) != pairs.shells(pair, 1);
    for (int a = 0; a < na; ++a)
      for (int b = 0; b < nb; ++b) {
        j(fa + a, fb + b) += block[a * nb + b];
        if (transposed_too) j(fb + b, fa + a) += block[a * nb + b];
      }
  }
};

}  // namespace kmini::hf::j_steps
