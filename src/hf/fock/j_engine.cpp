#include "hf/fock/j_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <string>

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
constexpr int kKetDegrees = 2 * kMaxShellL + 1;

// Products whose bound times the largest is under this times the threshold are left out of the
// pairs, as the G build's are (g_build.cpp).
constexpr double kProductCutoffPerThreshold = 1e-5;

// The most bra pairs a host's first launch holds (JEngine's constructor).
constexpr std::int64_t kHostFirstChunkBras = 128;

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

  // sum over (t, u, v) of E^{ab}_tuv h[tuv] for local components a of LA and b of LB.
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

}  // namespace

struct JEngine::Tables {
  ShellPairs<Memory> pairs;
  BoysTable<Memory> boys;
  Kokkos::View<int*, Memory> kind;      // per pair
  Kokkos::View<double*, Memory> bound;  // per pair: Schwarz Q
  // Per product: its Hermite density's first entry (64-bit: at 512 waters the densities pass 2^31).
  Kokkos::View<std::int64_t*, Memory> hermite_begin;
  Kokkos::View<double*, Memory> hermite;       // the ket products' Hermite densities, per build
  Kokkos::View<double*, Memory> pair_density;  // per pair: max |D| over its block, per build
  // This rank's bra pairs of each kind, and each degree's ket pairs, by Q descending.
  std::array<Kokkos::View<int*, Memory>, kPairKinds> bra_pairs;
  std::array<Kokkos::View<int*, Memory>, kKetDegrees> ket_pairs;
  std::array<double, kKetDegrees> largest_ket_bound{};
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

  std::vector<std::int64_t> hermite_begin(host.products.extent(0) + 1, 0);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const int degree = bra_l_of_kind(kinds[i]) + ket_l_of_kind(kinds[i]);
    for (int k = host.primitives_begin(i); k < host.primitives_begin(i + 1); ++k)
      hermite_begin[k + 1] = hermite_begin[k] + components_up_to(degree);
  }
  std::vector<int> by_bound(list.size());
  std::iota(by_bound.begin(), by_bound.end(), 0);
  std::stable_sort(by_bound.begin(), by_bound.end(),
                   [&](int x, int y) { return bounds[x] > bounds[y]; });
  std::array<std::vector<int>, kPairKinds> bra;
  std::array<long, kPairKinds> kind_seen{};
  std::array<std::vector<int>, kKetDegrees> ket;
  for (const int i : by_bound) {
    // The rank's bras: every ranks-th pair of each kind, so that the costly pairs with the
    // largest bounds, which come first, are dealt out evenly.
    if (static_cast<int>(kind_seen[kinds[i]]++ % ranks) == rank) bra[kinds[i]].push_back(i);
    const int degree = bra_l_of_kind(kinds[i]) + ket_l_of_kind(kinds[i]);
    if (ket[degree].empty()) t.largest_ket_bound[degree] = bounds[i];
    ket[degree].push_back(i);
  }

  t.pairs = copy_shell_pairs<Memory>(host);
  t.boys = make_boys_table<Memory>();
  t.kind = view_of<Kokkos::View<int*, Memory>>("hf::j_pair_kind", kinds);
  t.bound = view_of<Kokkos::View<double*, Memory>>("hf::j_pair_bound", bounds);
  t.hermite_begin =
      view_of<Kokkos::View<std::int64_t*, Memory>>("hf::j_hermite_begin", hermite_begin);
  t.hermite = Kokkos::View<double*, Memory>("hf::j_hermite_density", hermite_begin.back());
  t.pair_density = Kokkos::View<double*, Memory>("hf::j_pair_density", list.size());
  for (int k = 0; k < kPairKinds; ++k)
    t.bra_pairs[k] = view_of<Kokkos::View<int*, Memory>>("hf::j_bra_pairs", bra[k]);
  for (int d = 0; d < kKetDegrees; ++d)
    t.ket_pairs[d] = view_of<Kokkos::View<int*, Memory>>("hf::j_ket_pairs", ket[d]);
  // A host's few threads take far longer over a GPU's first chunk (seconds on two cores, each
  // bra walking every ket pair): there the first launch holds kHostFirstChunkBras.
  const std::int64_t first_chunk = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible
                                       ? std::min(settings.chunk_bras, kHostFirstChunkBras)
                                       : settings.chunk_bras;
  chunks_.assign(kPairKinds * kKetDegrees,
                 TimedChunks(first_chunk, settings.smallest_chunk_bras, settings.launch_seconds));
}

JEngine::~JEngine() = default;

void JEngine::set_threshold_scale(double scale) {
  tables_->threshold = settings_.threshold * scale;
}

namespace {

// Each ket product's Hermite density: sign * weight * sum_cd D_cd E^{cd}_tuv, with D_dc added for
// two different shells (their canonical pair stands for both orders).
template <int LA, int LB>
KOKKOS_INLINE_FUNCTION void ket_hermite_density(const ShellPairs<Memory>& pairs,
                                                const Matrix<Memory>& density, int pair,
                                                const Kokkos::View<std::int64_t*, Memory>& begin,
                                                const Kokkos::View<double*, Memory>& hermite) {
  constexpr int n = components_up_to(LA + LB);
  const int fa = pairs.first_functions(pair, 0), fb = pairs.first_functions(pair, 1);
  const bool both_orders = pairs.shells(pair, 0) != pairs.shells(pair, 1);
  const double ab[3] = {pairs.ab(pair, 0), pairs.ab(pair, 1), pairs.ab(pair, 2)};
  for (int k = pairs.primitives_begin(pair); k < pairs.primitives_begin(pair + 1); ++k) {
    const PrimitiveProduct& product = pairs.products(k);
    const HermiteProduct<LA, LB> e(product, ab);
    double sum[n];
    for (int s = 0; s < n; ++s)
      sum[s] = 0.0;
    for (int a = 0; a < functions_of_l(LA); ++a)
      for (int b = 0; b < functions_of_l(LB); ++b) {
        const double d = density(fa + a, fb + b) + (both_orders ? density(fb + b, fa + a) : 0.0);
        e.for_each_term(a, b, [&](int s, double coefficient) { sum[s] += d * coefficient; });
      }
    double* out = &hermite(begin(k));
    for (int s = 0; s < n; ++s)
      out[s] = ket_sign(component_degree(s)) * product.coulomb_weight * sum[s];
  }
}

// Lanes per bra pair by default: a warp on a GPU, whose lanes share out the ket pairs; one on
// the host, whose threads have bra pairs enough (and whose team barriers cost more than the
// lanes save: JEngineSettings::ket_lanes).
constexpr int kKetLanes =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible ? 1 : 32;

// One class of the J engine: the bra pairs of kind BraKind against the ket pairs of Hermite
// degree KetDegree, a team per bra pair, which adds the pair's block of J (and its transpose)
// alone: no atomics. The team's lanes take every kets-per-lane-th ket pair and contract their
// own part of the block (J is linear in the kets), and the parts are summed in lane order: the
// same sums in the same order in every build.
template <int BraKind, int KetDegree>
struct JClass {
  static constexpr int la = bra_l_of_kind(BraKind), lb = ket_l_of_kind(BraKind);
  static constexpr int bra_degree = la + lb, degree = bra_degree + KetDegree;
  static constexpr int n_bra = components_up_to(bra_degree);
  static constexpr int na = functions_of_l(la), nb = functions_of_l(lb);
  using Team = typename Kokkos::TeamPolicy<Exec>::member_type;

  ShellPairs<Memory> pairs;
  BoysTable<Memory> boys;
  Kokkos::View<const double*, Memory> bound, pair_density, hermite;
  Kokkos::View<const std::int64_t*, Memory> hermite_begin;
  Kokkos::View<const int*, Memory> kets, bras;
  Matrix<Memory> j;
  double threshold, largest_density, largest_ket_bound;
  int first_bra;  // of this launch's chunk

  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int lanes) {
    return static_cast<std::size_t>(lanes) * na * nb * sizeof(double);
  }

  // w[t] += sum over the ket's Hermite indices s of R[t + s] rho[s], over the bra's t: nested
  // loops over the powers, so that every index folds to a constant once unrolled.
  KOKKOS_INLINE_FUNCTION static void contract(const double* r, const double* rho, double scale,
                                              double* w) {
    for (int t = 0; t <= bra_degree; ++t)
      for (int u = 0; u <= bra_degree - t; ++u)
        for (int v = 0; v <= bra_degree - t - u; ++v) {
          double sum = 0.0;
          for (int tau = 0; tau <= KetDegree; ++tau)
            for (int nu = 0; nu <= KetDegree - tau; ++nu)
              for (int phi = 0; phi <= KetDegree - tau - nu; ++phi)
                sum += r[component_index(t + tau, u + nu, v + phi)] *
                       rho[component_index(tau, nu, phi)];
          w[component_index(t, u, v)] += scale * sum;
        }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Team& team, double& interactions) const {
    const int pair = bras(first_bra + team.league_rank());
    const double q_ab = bound(pair);
    if (q_ab * largest_ket_bound * largest_density < threshold) return;
    const int lane = team.team_rank(), lanes = team.team_size();
    const double ab[3] = {pairs.ab(pair, 0), pairs.ab(pair, 1), pairs.ab(pair, 2)};
    double block[na * nb];
    for (int x = 0; x < na * nb; ++x)
      block[x] = 0.0;
    const int p_begin = pairs.primitives_begin(pair), p_end = pairs.primitives_begin(pair + 1);
    // The primitive screen, as the G build's (integrals/eri.hpp): for each bra product, a ket
    // pair's products stop where the bounds of those left sum to under kPrimitiveShare of the
    // threshold over the bra's products and the ket pair's density.
    const double cutoff = QuartetScreen<Memory>::kPrimitiveShare * threshold / (p_end - p_begin);
    const int ket_count = static_cast<int>(kets.extent(0));
    for (int p = p_begin; p < p_end; ++p) {
      const PrimitiveProduct& bra = pairs.products(p);
      double w[n_bra];
      for (int t = 0; t < n_bra; ++t)
        w[t] = 0.0;
      for (int k = lane; k < ket_count; k += lanes) {
        const int ket = kets(k);
        const double q_abcd = q_ab * bound(ket);
        if (q_abcd * largest_density < threshold) break;  // the kets are by Q descending
        if (q_abcd * pair_density(ket) < threshold) continue;
        const double smallest_tail = cutoff / (bra.bound * pair_density(ket));
        for (int q = pairs.primitives_begin(ket); q < pairs.primitives_begin(ket + 1); ++q) {
          const PrimitiveProduct& product = pairs.products(q);
          if (product.tail < smallest_tail) break;  // the products are by bound descending
          const double inverse_root = reciprocal_sqrt(bra.zeta + product.zeta);
          const double pq[3] = {bra.center[0] - product.center[0],
                                bra.center[1] - product.center[1],
                                bra.center[2] - product.center[2]};
          double r[components_up_to(degree)];
          hermite_coulomb<degree>(boys, bra.zeta * product.zeta * inverse_root * inverse_root, pq,
                                  r);
          contract(r, &hermite(hermite_begin(q)), inverse_root, w);
          interactions += 1.0;
        }
      }
      const HermiteProduct<la, lb> e(bra, ab);
      for (int a = 0; a < na; ++a)
        for (int b = 0; b < nb; ++b) {
          double value = 0.0;
          e.for_each_term(a, b, [&](int t, double coefficient) { value += coefficient * w[t]; });
          block[a * nb + b] += bra.coulomb_weight * value;
        }
    }
    double* parts = static_cast<double*>(team.team_scratch(0).get_shmem(scratch_bytes(lanes)));
    for (int x = 0; x < na * nb; ++x)
      parts[lane * na * nb + x] = block[x];
    team.team_barrier();
    const int fa = pairs.first_functions(pair, 0), fb = pairs.first_functions(pair, 1);
    const bool transposed_too = pairs.shells(pair, 0) != pairs.shells(pair, 1);
    for (int x = lane; x < na * nb; x += lanes) {
      double sum = 0.0;
      for (int l = 0; l < lanes; ++l)
        sum += parts[l * na * nb + x];
      const int a = x / nb, b = x % nb;
      j(fa + a, fb + b) += sum;
      if (transposed_too) j(fb + b, fa + a) += sum;
    }
  }
};

}  // namespace

template <int BraKind, int KetDegree>
void JEngine::add_class(const Matrix<Memory>& j, double largest_density) {
  const Tables& t = *tables_;
  const auto& bras = t.bra_pairs[BraKind];
  if (bras.extent(0) == 0 || t.ket_pairs[KetDegree].extent(0) == 0) return;
  using Class = JClass<BraKind, KetDegree>;
  Class functor{t.pairs,
                t.boys,
                t.bound,
                t.pair_density,
                t.hermite,
                t.hermite_begin,
                t.ket_pairs[KetDegree],
                bras,
                j,
                t.threshold,
                largest_density,
                t.largest_ket_bound[KetDegree],
                0};
  const std::string label =
      "hf::j_engine_" + std::to_string(BraKind) + "_" + std::to_string(KetDegree);
  TimedChunks& chunks = chunks_[BraKind * kKetDegrees + KetDegree];
  for_each_timed_chunk(
      chunks, 0, bras.extent_int(0),
      [&] { return settings_.stop_requested != nullptr && settings_.stop_requested(); },
      [&](std::int64_t begin, std::int64_t size) {
        double interactions = 0.0;
        functor.first_bra = static_cast<int>(begin);
        using Policy = Kokkos::TeamPolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>;
        const int teams = static_cast<int>(size);
        const int wanted = settings_.ket_lanes > 0 ? settings_.ket_lanes : kKetLanes;
        const int lanes =
            std::min(wanted, Policy(teams, 1)
                                 .set_scratch_size(0, Kokkos::PerTeam(Class::scratch_bytes(wanted)))
                                 .team_size_max(functor, Kokkos::ParallelReduceTag()));
        // The reduction's result on the host fences the launch: its time is the chunk's.
        Kokkos::parallel_reduce(
            label,
            Policy(teams, lanes).set_scratch_size(0, Kokkos::PerTeam(Class::scratch_bytes(lanes))),
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
    const auto bound = t.bound;
    const auto begin = t.hermite_begin;
    const auto hermite = t.hermite;
    double largest_bound = 0.0;
    for (const double b : t.largest_ket_bound)
      largest_bound = std::max(largest_bound, b);
    const double threshold = t.threshold;
    Kokkos::parallel_for(
        "hf::j_ket_hermite_density", Kokkos::RangePolicy<Exec>(0, static_cast<int>(pairs.size())),
        KOKKOS_LAMBDA(const int pair) {
          // A pair no bra keeps needs no density (the class kernels skip it by the same test).
          if (bound(pair) * largest_bound * pair_density(pair) < threshold) return;
          switch (kind(pair)) {
            case kSS:
              ket_hermite_density<0, 0>(pairs, density, pair, begin, hermite);
              break;
            case kPS:
              ket_hermite_density<1, 0>(pairs, density, pair, begin, hermite);
              break;
            case kPP:
              ket_hermite_density<1, 1>(pairs, density, pair, begin, hermite);
              break;
            case kDS:
              ket_hermite_density<2, 0>(pairs, density, pair, begin, hermite);
              break;
            case kDP:
              ket_hermite_density<2, 1>(pairs, density, pair, begin, hermite);
              break;
            default:
              ket_hermite_density<2, 2>(pairs, density, pair, begin, hermite);
              break;
          }
        });
    Impl::static_for<0, kPairKinds>([&](auto bra_kind) {
      Impl::static_for<0, kKetDegrees>([&](auto ket_degree) {
        add_class<decltype(bra_kind)::value, decltype(ket_degree)::value>(j, largest);
      });
    });
  }
  Kokkos::fence();
  last_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace kmini::hf
