#include "hf/fock/j_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <string>

#include "core/fixed_sums.hpp"
#include "core/view_of.hpp"
#include "hf/basis/cartesian.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/hermite.hpp"
#include "hf/integrals/unrolled.hpp"
#include "hf/screening/schwarz.hpp"

namespace kmini::hf {

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Memory = JEngine::Memory;
// A product's Hermite degree is its pair's l_a + l_b.
constexpr int kDegrees = 2 * kMaxShellL + 1;

// Products whose bound times the largest is under this times the threshold are left out of the
// pairs, as the G build's are (g_build.cpp).
constexpr double kProductCutoffPerThreshold = 1e-5;

// The most bra products a host's first launch holds (JEngine's constructor).
constexpr std::int64_t kHostFirstChunkBras = 1024;

// A ket row: the product's static bound, its screening weight this build (bound times its pair's
// largest |D|; 0 for a pair no bra keeps), zeta, P, then the Hermite density, padded to 16 bytes.
enum KetField : int { kBound = 0, kWeight, kZeta, kCenter, kDensity = kCenter + 3 };
KOKKOS_INLINE_FUNCTION constexpr int ket_row_length(int degree) {
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

}  // namespace

struct JEngine::Tables {
  ShellPairs<Memory> pairs;
  BoysTable<Memory> boys;
  Kokkos::View<int*, Memory> kind;             // per pair
  Kokkos::View<double*, Memory> bound;         // per pair: Schwarz Q
  Kokkos::View<double*, Memory> pair_density;  // per pair: max |D| over its block, per build
  // Per product: its row in its degree's ket table, and its Hermite potential's first entry
  // (64-bit: at 512 waters the potentials pass 2^31).
  Kokkos::View<int*, Memory> ket_row;
  Kokkos::View<std::int64_t*, Memory> potential_begin;
  Kokkos::View<double*, Memory> potential;  // the bra products' Hermite potentials, per build
  // Per degree: every product of that degree by bound descending, as ket rows filled per build;
  // and this rank's bra products of that degree, by bound descending.
  std::array<Kokkos::View<double*, Memory>, kDegrees> kets;
  std::array<int, kDegrees> ket_count{};
  std::array<Kokkos::View<int*, Memory>, kDegrees> bra_products;
  // This rank's bra pairs of each kind (step 3).
  std::array<Kokkos::View<int*, Memory>, kPairKinds> bra_pairs;
  double largest_bound = 0.0;  // of any pair
  double threshold = 0.0;
};

JEngine::JEngine(const MolecularBasis& basis, const JEngineSettings& settings, int rank, int ranks)
    : settings_(settings), tables_(std::make_unique<Tables>()) {
  Tables& t = *tables_;
  t.threshold = settings.threshold;
  const std::vector<std::array<int, 2>> list = canonical_pairs(basis);
  ShellPairs<Kokkos::HostSpace> host =
      make_shell_pairs(basis, list, settings.threshold * kProductCutoffPerThreshold);
  std::vector<int> kinds(list.size());
  for (std::size_t i = 0; i < list.size(); ++i)
    kinds[i] = pair_kind(basis.shells[list[i][0]].l, basis.shells[list[i][1]].l);
  const auto setup_stop = settings.setup_stop_requested;
  order_products_by_bound(host, product_bounds(host, kinds, setup_stop));
  const std::vector<double> bounds = schwarz_bounds(host, kinds, setup_stop);
  // Unfinished bounds: the caller's safe point throws the engine away.
  if (setup_stop != nullptr && setup_stop()) return;

  const auto degree_of = [&](std::size_t pair) {
    return bra_l_of_kind(kinds[pair]) + ket_l_of_kind(kinds[pair]);
  };
  const std::int64_t products = host.products.extent(0);
  std::vector<std::int64_t> potential_begin(products + 1, 0);
  std::vector<int> product_degree(products);
  std::array<std::vector<int>, kDegrees> ket, bra;
  std::array<std::vector<int>, kPairKinds> bra_pairs;
  std::array<long, kPairKinds> kind_seen{};
  for (std::size_t i = 0; i < list.size(); ++i) {
    t.largest_bound = std::max(t.largest_bound, bounds[i]);
    // The rank's bras: every ranks-th pair of each kind, its products of like cost dealt out
    // evenly.
    const bool mine = static_cast<int>(kind_seen[kinds[i]]++ % ranks) == rank;
    if (mine) bra_pairs[kinds[i]].push_back(static_cast<int>(i));
    for (int k = host.primitives_begin(i); k < host.primitives_begin(i + 1); ++k) {
      product_degree[k] = degree_of(i);
      potential_begin[k + 1] = potential_begin[k] + components_up_to(degree_of(i));
      ket[degree_of(i)].push_back(k);
      if (mine) bra[degree_of(i)].push_back(k);
    }
  }
  const auto by_bound = [&](int x, int y) {
    return host.products(x).bound > host.products(y).bound;
  };
  std::vector<int> ket_row(products, 0);
  for (int d = 0; d < kDegrees; ++d) {
    std::stable_sort(ket[d].begin(), ket[d].end(), by_bound);
    std::stable_sort(bra[d].begin(), bra[d].end(), by_bound);
    for (std::size_t r = 0; r < ket[d].size(); ++r)
      ket_row[ket[d][r]] = static_cast<int>(r);
    t.ket_count[d] = static_cast<int>(ket[d].size());
    t.kets[d] = Kokkos::View<double*, Memory>("hf::j_ket_rows",
                                              ket[d].size() * std::size_t(ket_row_length(d)));
    t.bra_products[d] = view_of<Kokkos::View<int*, Memory>>("hf::j_bra_products", bra[d]);
  }

  t.pairs = copy_shell_pairs<Memory>(host);
  t.boys = make_boys_table<Memory>();
  t.kind = view_of<Kokkos::View<int*, Memory>>("hf::j_pair_kind", kinds);
  t.bound = view_of<Kokkos::View<double*, Memory>>("hf::j_pair_bound", bounds);
  t.pair_density = Kokkos::View<double*, Memory>("hf::j_pair_density", list.size());
  t.ket_row = view_of<Kokkos::View<int*, Memory>>("hf::j_ket_row", ket_row);
  t.potential_begin =
      view_of<Kokkos::View<std::int64_t*, Memory>>("hf::j_potential_begin", potential_begin);
  t.potential = Kokkos::View<double*, Memory>("hf::j_potential", potential_begin.back());
  for (int k = 0; k < kPairKinds; ++k)
    t.bra_pairs[k] = view_of<Kokkos::View<int*, Memory>>("hf::j_bra_pairs", bra_pairs[k]);
  // A host's few threads take far longer over a GPU's first chunk (seconds on two cores, each
  // bra walking every ket): there the first launch holds kHostFirstChunkBras.
  const std::int64_t first_chunk = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible
                                       ? std::min(settings.chunk_bras, kHostFirstChunkBras)
                                       : settings.chunk_bras;
  chunks_.assign(kDegrees * kDegrees,
                 TimedChunks(first_chunk, settings.smallest_chunk_bras, settings.launch_seconds));
}

JEngine::~JEngine() = default;

void JEngine::set_threshold_scale(double scale) {
  tables_->threshold = settings_.threshold * scale;
}

namespace {

// Step 1 for one ket pair: each product's row, its Hermite density
// sign * weight * sum_cd D_cd E^{cd}_tuv, with D_dc added for two different shells (their
// canonical pair stands for both orders). A pair that no bra keeps gets zero weights.
template <int LA, int LB>
KOKKOS_INLINE_FUNCTION void fill_ket_rows(const ShellPairs<Memory>& pairs,
                                          const Matrix<Memory>& density, int pair, bool kept,
                                          double pair_density,
                                          const Kokkos::View<int*, Memory>& row, double* kets) {
  constexpr int degree = LA + LB, n = components_up_to(degree);
  const int fa = pairs.first_functions(pair, 0), fb = pairs.first_functions(pair, 1);
  const bool both_orders = pairs.shells(pair, 0) != pairs.shells(pair, 1);
  const double ab[3] = {pairs.ab(pair, 0), pairs.ab(pair, 1), pairs.ab(pair, 2)};
  for (int k = pairs.primitives_begin(pair); k < pairs.primitives_begin(pair + 1); ++k) {
    const PrimitiveProduct& product = pairs.products(k);
    double* out = kets + static_cast<std::int64_t>(row(k)) * ket_row_length(degree);
    out[kBound] = product.bound;
    out[kWeight] = kept ? product.bound * pair_density : 0.0;
    out[kZeta] = product.zeta;
    for (int x = 0; x < 3; ++x)
      out[kCenter + x] = product.center[x];
    double sum[n];
    for (int s = 0; s < n; ++s)
      sum[s] = 0.0;
    if (kept) {
      const HermiteProduct<LA, LB> e(product, ab);
      for (int a = 0; a < functions_of_l(LA); ++a)
        for (int b = 0; b < functions_of_l(LB); ++b) {
          const double d = density(fa + a, fb + b) + (both_orders ? density(fb + b, fa + a) : 0.0);
          e.for_each_term(a, b, [&](int s, double coefficient) { sum[s] += d * coefficient; });
        }
    }
    for (int s = 0; s < n; ++s)
      out[kDensity + s] = ket_sign(component_degree(s)) * product.coulomb_weight * sum[s];
  }
}

// Step 1, a thread per ket pair. A pair no bra keeps needs no density: its weights are zero.
struct KetRows {
  ShellPairs<Memory> pairs;
  Matrix<Memory> density;
  Kokkos::View<const double*, Memory> bound, pair_density;
  Kokkos::View<const int*, Memory> kind;
  Kokkos::View<int*, Memory> row;
  double* kets[kDegrees];  // each degree's table
  double largest_bound, threshold;

  KOKKOS_INLINE_FUNCTION void operator()(const int pair) const {
    const bool kept = bound(pair) * largest_bound * pair_density(pair) >= threshold;
    with_kind(kind(pair), [&](auto la, auto lb) {
      constexpr int l_a = decltype(la)::value, l_b = decltype(lb)::value;
      fill_ket_rows<l_a, l_b>(pairs, density, pair, kept, pair_density(pair), row, kets[l_a + l_b]);
    });
  }
};

// Lanes per bra product by default: a warp on a GPU, whose lanes share out the ket rows; one on
// the host, whose threads have bra products enough.
constexpr int kKetLanes =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible ? 1 : 32;
// Bra products per team: a GPU's block then holds four warps.
constexpr int kTeamBras = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible ? 1 : 4;

// Step 2 for the bra products of one degree against the ket rows of another: each bra product's
// lanes add into its potential w_t sum over kets q of R_{t+s}(rho_pq, P - Q) rho_q^s /
// sqrt(zeta_p + zeta_q), lane l over rows l, l + lanes, ... The rows are by bound descending: a
// lane stops at the first whose bound times the largest density is under the bra's cutoff, and
// skips those whose weight is.
template <int BraDegree, int KetDegree>
struct HermiteInteractions {
  static constexpr int degree = BraDegree + KetDegree;
  static constexpr int n_bra = components_up_to(BraDegree);
  static constexpr int row_length = ket_row_length(KetDegree);
  using Team = typename Kokkos::TeamPolicy<Exec>::member_type;
  // The potential's n_bra terms, then the count of interactions.
  using Sums = FixedSums<n_bra + 1>;

  Kokkos::View<const PrimitiveProduct*, Memory> products;
  BoysTable<Memory> boys;
  Kokkos::View<const int*, Memory> bras;
  Kokkos::View<const double*, Memory> kets;
  Kokkos::View<const std::int64_t*, Memory> potential_begin;
  Kokkos::View<double*, Memory> potential;
  double cutoff;  // on bound_p bound_q max|D_cd|
  double largest_density;
  int ket_count;
  int lanes;
  int first_bra, end_bra;  // this launch's chunk

  // w[t] += scale * sum over the ket's Hermite indices s of R[t + s] rho[s], over the bra's t:
  // nested loops over the powers, so that every index folds to a constant once unrolled.
  KOKKOS_INLINE_FUNCTION static void contract(const double* r, const double* rho, double scale,
                                              double* w) {
    for (int t = 0; t <= BraDegree; ++t)
      for (int u = 0; u <= BraDegree - t; ++u)
        for (int v = 0; v <= BraDegree - t - u; ++v) {
          double sum = 0.0;
          for (int tau = 0; tau <= KetDegree; ++tau)
            for (int nu = 0; nu <= KetDegree - tau; ++nu)
              for (int phi = 0; phi <= KetDegree - tau - nu; ++phi)
                sum += r[component_index(t + tau, u + nu, v + phi)] *
                       rho[component_index(tau, nu, phi)];
          w[component_index(t, u, v)] += scale * sum;
        }
  }

  // One lane's share of a bra product's kets.
  KOKKOS_INLINE_FUNCTION void add_kets(const PrimitiveProduct& bra, int lane, Sums& sums) const {
    const double smallest_weight = cutoff / bra.bound;
    const double smallest_bound = smallest_weight / largest_density;
    for (int q = lane; q < ket_count; q += lanes) {
      const double* row = &kets(static_cast<std::int64_t>(q) * row_length);
      if (row[kBound] < smallest_bound) break;
      if (row[kWeight] < smallest_weight) continue;
      const double inverse_root = reciprocal_sqrt(bra.zeta + row[kZeta]);
      const double pq[3] = {bra.center[0] - row[kCenter], bra.center[1] - row[kCenter + 1],
                            bra.center[2] - row[kCenter + 2]};
      double r[components_up_to(degree)];
      hermite_coulomb<degree>(boys, bra.zeta * row[kZeta] * inverse_root * inverse_root, pq, r);
      contract(r, row + kDensity, inverse_root, sums.value);
      sums.value[n_bra] += 1.0;
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Team& team, double& interactions) const {
    const int team_first = first_bra + team.league_rank() * team.team_size();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, team.team_size()), [&](const int b) {
      if (team_first + b >= end_bra) return;
      const int k = bras(team_first + b);
      const PrimitiveProduct& bra = products(k);
      Sums sums;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, lanes),
          [&](const int lane, Sums& lane_sums) { add_kets(bra, lane, lane_sums); }, sums);
      Kokkos::single(Kokkos::PerThread(team), [&] {
        double* out = &potential(potential_begin(k));
        for (int t = 0; t < n_bra; ++t)
          out[t] += sums.value[t];
        interactions += sums.value[n_bra];
      });
    });
  }
};

// Step 3, a thread per bra pair of kind (LA, LB): J_ab = sum over its products of
// weight * sum_t E^{ab}_t w_t, into the pair's block and its transpose; no other pair writes
// either.
template <int LA, int LB>
struct BraBlocks {
  static constexpr int na = functions_of_l(LA), nb = functions_of_l(LB);
  ShellPairs<Memory> pairs;
  Kokkos::View<const int*, Memory> bras;
  Kokkos::View<const std::int64_t*, Memory> potential_begin;
  Kokkos::View<const double*, Memory> potential;
  Matrix<Memory> j;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const int pair = bras(i);
    const double ab[3] = {pairs.ab(pair, 0), pairs.ab(pair, 1), pairs.ab(pair, 2)};
    double block[na * nb];
    for (int x = 0; x < na * nb; ++x)
      block[x] = 0.0;
    for (int k = pairs.primitives_begin(pair); k < pairs.primitives_begin(pair + 1); ++k) {
      const PrimitiveProduct& product = pairs.products(k);
      const HermiteProduct<LA, LB> e(product, ab);
      const double* w = &potential(potential_begin(k));
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

}  // namespace

template <int BraDegree, int KetDegree>
void JEngine::add_interactions(double largest_density) {
  const Tables& t = *tables_;
  const auto& bras = t.bra_products[BraDegree];
  if (bras.extent(0) == 0 || t.ket_count[KetDegree] == 0) return;
  using Class = HermiteInteractions<BraDegree, KetDegree>;
  const int lanes = settings_.ket_lanes > 0 ? settings_.ket_lanes : kKetLanes;
  Class functor{t.pairs.products,
                t.boys,
                bras,
                t.kets[KetDegree],
                t.potential_begin,
                t.potential,
                QuartetScreen<Memory>::kPrimitiveShare * t.threshold,
                largest_density,
                t.ket_count[KetDegree],
                lanes,
                0,
                0};
  const std::string label =
      "hf::j_engine_" + std::to_string(BraDegree) + "_" + std::to_string(KetDegree);
  TimedChunks& chunks = chunks_[BraDegree * kDegrees + KetDegree];
  for_each_timed_chunk(
      chunks, 0, bras.extent_int(0),
      [&] { return settings_.stop_requested != nullptr && settings_.stop_requested(); },
      [&](std::int64_t begin, std::int64_t size) {
        double interactions = 0.0;
        functor.first_bra = static_cast<int>(begin);
        functor.end_bra = static_cast<int>(begin + size);
        const int teams = static_cast<int>((size + kTeamBras - 1) / kTeamBras);
        // The reduction's result on the host fences the launch: its time is the chunk's. On the
        // host, the lanes of a vector run one after another, each over its own rows.
        const int vector = std::min(lanes, Kokkos::TeamPolicy<Exec>::vector_length_max());
        Kokkos::parallel_reduce(
            label,
            Kokkos::TeamPolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>(teams, kTeamBras, vector),
            functor, interactions);
        last_.primitive_interactions += interactions;
      },
      last_.longest_chunk_seconds);
}

void JEngine::add(const Matrix<Memory>& density, const Matrix<Memory>& j) {
  const auto start = std::chrono::steady_clock::now();
  const Tables& t = *tables_;
  last_ = JEngineRecord{};
  const ShellPairs<Memory> pairs = t.pairs;
  const auto pair_density = t.pair_density;
  const auto kind = t.kind;
  double largest = 0.0;
  Kokkos::parallel_reduce(
      "hf::j_pair_density", Kokkos::RangePolicy<Exec>(0, static_cast<int>(pairs.size())),
      KOKKOS_LAMBDA(const int pair, double& most) {
        const int fa = pairs.first_functions(pair, 0), fb = pairs.first_functions(pair, 1);
        const int k = kind(pair);
        double m = 0.0;
        for (int a = 0; a < functions_of_l(bra_l_of_kind(k)); ++a)
          for (int b = 0; b < functions_of_l(ket_l_of_kind(k)); ++b) {
            const double v = density(fa + a, fb + b);
            m = v > m ? v : -v > m ? -v : m;
          }
        pair_density(pair) = m;
        if (m > most) most = m;
      },
      Kokkos::Max<double>(largest));
  if (largest > 0.0) {
    KetRows rows{pairs,     density, t.bound,         pair_density, kind,
                 t.ket_row, {},      t.largest_bound, t.threshold};
    for (int d = 0; d < kDegrees; ++d)
      rows.kets[d] = t.kets[d].data();
    Kokkos::parallel_for("hf::j_ket_rows",
                         Kokkos::RangePolicy<Exec>(0, static_cast<int>(pairs.size())), rows);
    Kokkos::deep_copy(t.potential, 0.0);
    Impl::static_for<0, kDegrees>([&](auto bra_degree) {
      Impl::static_for<0, kDegrees>([&](auto ket_degree) {
        add_interactions<decltype(bra_degree)::value, decltype(ket_degree)::value>(largest);
      });
    });
    const bool stopped = settings_.stop_requested != nullptr && settings_.stop_requested();
    Impl::static_for<0, kPairKinds>([&](auto pair_kind_) {
      constexpr int k = decltype(pair_kind_)::value;
      const auto bras = t.bra_pairs[k];
      if (stopped || bras.extent(0) == 0) return;
      Kokkos::parallel_for("hf::j_bra_blocks", Kokkos::RangePolicy<Exec>(0, bras.extent_int(0)),
                           BraBlocks<bra_l_of_kind(k), ket_l_of_kind(k)>{
                               pairs, bras, t.potential_begin, t.potential, j});
    });
  }
  Kokkos::fence();
  last_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace kmini::hf
