// The J engine's far field (hf/fock/far_field.hpp): its R tables against the closed forms of the
// derivatives of 1/r and against the engine's own R at an asymptotic exponent; its expansions
// against the direct sum of the rows' point-multipole interactions, each order leaving a smaller
// error than the one below it; and in the engine, J with the far field against J without it,
// the near field leaving out exactly the pairs of rows the far field takes, on one rank or two.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "hf/basis/basis_set.hpp"
#include "hf/basis/molecule.hpp"
#include "hf/fock/far_field.hpp"
#include "hf/fock/j_engine.hpp"
#include "hf/fock/j_engine_steps.hpp"
#include "hf/integrals/boys.hpp"
#include "hf/integrals/hermite.hpp"
#include "support/hf_eri_tensor.hpp"
#include "support/test_paths.hpp"

namespace kmini::hf {
namespace {

using kmini::testing::device_matrix;
using kmini::testing::DeviceMatrix;
using kmini::testing::largest_difference;
using kmini::testing::matrix_values;
using kmini::testing::random_density;
using Memory = FarField::Memory;
constexpr int kDegrees = JEngineRecord::kDegrees;
constexpr double kRootPiOverTwo = 0.886226925452758014;

TEST(HfFarField, TablesAreTheDerivativesOfOneOverR) {
  const double x[3] = {3.0, -4.5, 2.25};
  const double r = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  std::vector<double> t(components_up_to(8));
  FarField::asymptotic_coulomb(8, x, t.data());
  const double r3 = r * r * r, r5 = r3 * r * r;
  EXPECT_NEAR(t[component_index(0, 0, 0)], kRootPiOverTwo / r, 1e-15);
  EXPECT_NEAR(t[component_index(1, 0, 0)], -kRootPiOverTwo * x[0] / r3, 1e-15);
  EXPECT_NEAR(t[component_index(0, 0, 1)], -kRootPiOverTwo * x[2] / r3, 1e-15);
  EXPECT_NEAR(t[component_index(2, 0, 0)], kRootPiOverTwo * (3 * x[0] * x[0] / r5 - 1 / r3), 1e-15);
  EXPECT_NEAR(t[component_index(1, 1, 0)], kRootPiOverTwo * 3 * x[0] * x[1] / r5, 1e-15);
  // The engine's R at an exponent whose Boys values are asymptotic: R(rho) = R(1) / sqrt(rho).
  const double rho = 100.0;
  ASSERT_GT(rho * r * r, Impl::boys_asymptotic_from(kBoysMaxOrder));
  const BoysTable<Kokkos::HostSpace> boys = make_boys_table<Kokkos::HostSpace>();
  std::vector<double> engine(components_up_to(8));
  hermite_coulomb<8>(boys, rho, x, engine.data());
  for (int c = 0; c < components_up_to(8); ++c)
    EXPECT_NEAR(engine[c] * std::sqrt(rho), t[c], 1e-12 * std::abs(t[c]) + 1e-300) << c;
}

// Rows of every degree up to 4 scattered over 0.8 bohr in two boxes of side 2 far apart, compact
// enough to take part; each row's potential from the far field against the direct sum over the
// other box's rows of zeta_p^-1/2 zeta_q^-1/2 sum_s rho_q^s R_{t+s}(1, P - Q).
struct Scattered {
  std::vector<std::vector<RowPlace>> places = std::vector<std::vector<RowPlace>>(kDegrees);
  std::vector<std::vector<double>> rows = std::vector<std::vector<double>>(kDegrees);
  std::vector<std::vector<int>> owned = std::vector<std::vector<int>>(kDegrees);
};

Scattered scattered_rows(double distance) {
  std::mt19937_64 rng(53);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Scattered s;
  for (int box = 0; box < 2; ++box)
    for (int degree = 0; degree <= 4; ++degree) {
      RowPlace place;
      for (int axis = 0; axis < 3; ++axis)
        place.center[axis] = 0.2 + 0.8 * unit(rng) + (axis == 0 ? box * distance : 0.0);
      place.zeta = 40.0 + 10.0 * unit(rng);
      const int r = static_cast<int>(s.places[degree].size());
      s.places[degree].push_back(place);
      s.owned[degree].push_back(r);
      std::vector<double>& table = s.rows[degree];
      table.resize((r + 1) * j_steps::row_length(degree), 0.0);
      double* row = &table[r * j_steps::row_length(degree)];
      row[j_steps::kZeta] = place.zeta;
      for (int axis = 0; axis < 3; ++axis)
        row[j_steps::kCenter + axis] = place.center[axis];
      for (int c = 0; c < components_up_to(degree); ++c)
        row[j_steps::kDensity + c] = 2.0 * unit(rng) - 1.0;
    }
  return s;
}

// Per degree and row, the far field's potentials at `order`.
std::vector<std::vector<double>> far_potentials(const Scattered& s, int order) {
  FarFieldSettings settings;
  settings.order = order;
  settings.box_bohr = 2.0;
  settings.separation = 1;
  FarField field(settings, s.places, s.owned);
  EXPECT_TRUE(field.active());
  EXPECT_EQ(field.boxes(), 2);
  FarField::Rows rows(kDegrees), potentials(kDegrees);
  for (int d = 0; d < kDegrees; ++d) {
    rows[d] = Kokkos::View<double*, Memory>("test::rows", s.rows[d].size());
    const auto host = Kokkos::create_mirror_view(rows[d]);
    for (std::size_t i = 0; i < s.rows[d].size(); ++i)
      host(i) = s.rows[d][i];
    Kokkos::deep_copy(rows[d], host);
    potentials[d] =
        Kokkos::View<double*, Memory>("test::potentials", s.places[d].size() * components_up_to(d));
  }
  field.add(rows, potentials);
  std::vector<std::vector<double>> out(kDegrees);
  for (int d = 0; d < kDegrees; ++d) {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), potentials[d]);
    out[d].assign(host.data(), host.data() + host.extent(0));
  }
  return out;
}

std::vector<std::vector<double>> direct_potentials(const Scattered& s, double distance) {
  std::vector<std::vector<double>> out(kDegrees);
  std::vector<double> r(components_up_to(8));
  for (int bra = 0; bra < kDegrees; ++bra) {
    out[bra].assign(s.places[bra].size() * components_up_to(bra), 0.0);
    for (std::size_t p = 0; p < s.places[bra].size(); ++p)
      for (int ket = 0; ket < kDegrees; ++ket)
        for (std::size_t q = 0; q < s.places[ket].size(); ++q) {
          const RowPlace &a = s.places[bra][p], &b = s.places[ket][q];
          if ((a.center[0] > distance / 2) == (b.center[0] > distance / 2)) continue;  // one box
          const double pq[3] = {a.center[0] - b.center[0], a.center[1] - b.center[1],
                                a.center[2] - b.center[2]};
          FarField::asymptotic_coulomb(bra + ket, pq, r.data());
          const double* rho = &s.rows[ket][q * j_steps::row_length(ket) + j_steps::kDensity];
          for (int t = 0; t < components_up_to(bra); ++t)
            for (int u = 0; u < components_up_to(ket); ++u) {
              int sum[3];
              for (int axis = 0; axis < 3; ++axis)
                sum[axis] = component_power(t, axis) + component_power(u, axis);
              out[bra][p * components_up_to(bra) + t] +=
                  r[component_index(sum[0], sum[1], sum[2])] * rho[u] / std::sqrt(a.zeta * b.zeta);
            }
        }
  }
  return out;
}

double largest_error(const std::vector<std::vector<double>>& got,
                     const std::vector<std::vector<double>>& want, double& largest) {
  double error = 0.0;
  largest = 0.0;
  for (int d = 0; d < kDegrees; ++d) {
    error = std::max(error, largest_difference(got[d], want[d]));
    for (const double x : want[d])
      largest = std::max(largest, std::abs(x));
  }
  return error;
}

// The errors fall by 7 to 16 times an order here (1.1e-9 at order 1 to 1.3e-17 at 8, of
// potentials up to 1.3e-3); the envelope 2.5e-6 x 0.075^(order - 1) of the largest potential
// lies 1.7 to 3.4 times above them, and an expansion that loses its top order leaves what the
// order below leaves, 7 times or more above them.
TEST(HfFarField, EachOrderLeavesLessOfTheDirectSumThanTheOneBelow) {
  const double distance = 25.0;  // the offsets are at most 0.8 sqrt(3) bohr: a ratio near 0.1
  const Scattered s = scattered_rows(distance);
  const auto want = direct_potentials(s, distance);
  double largest = 0.0, previous = 0.0;
  for (int order = 1; order <= 8; ++order) {
    SCOPED_TRACE("order " + std::to_string(order));
    const double error = largest_error(far_potentials(s, order), want, largest);
    EXPECT_GT(largest, 1e-4);
    EXPECT_LT(error, 2.5e-6 * std::pow(0.075, order - 1) * largest);
    if (order > 1) {
      EXPECT_LT(error, 0.5 * previous);
    }
    previous = error;
  }
}

// Three waters 8 A apart along x, in 6-31G: J with the far field (boxes of 4 bohr, two boxes
// between) against J without it, both unscreened, from a random density.
MolecularBasis three_waters() {
  return place_basis(
      read_gaussian94(testing::source_dir() + "/inputs/basis/6-31g.gbs"),
      molecule_from_atoms(
          {"O 0 0 0", "H 0.757 0.586 0", "H -0.757 0.586 0", "O 8 0.2 0.1", "H 8.757 0.786 0.1",
           "H 7.243 0.786 0.1", "O 16 -0.1 0.2", "H 16.757 0.486 0.2", "H 15.243 0.486 0.2"},
          Units::angstrom));
}

struct BuiltJ {
  std::vector<double> j;
  double near = 0.0, far = 0.0;
  int boxes = 0;
};

// J from `ranks` engines, one per rank's share of the bra rows, summed as the ranks' are.
BuiltJ engine_j(const MolecularBasis& basis, const std::vector<double>& d, int order,
                int ranks = 1) {
  const int n = basis.functions;
  const DeviceMatrix density = device_matrix(d, n), j("test::j", n, n);
  JEngineSettings settings;
  settings.threshold = 0.0;  // every product and pair of rows kept
  settings.far_field.order = order;
  settings.far_field.box_bohr = 4.0;
  settings.far_field.separation = 2;
  BuiltJ built;
  for (int rank = 0; rank < ranks; ++rank) {
    JEngine engine(basis, settings, rank, ranks);
    engine.add(density, j);  // j starts at zero, and each rank adds its share
    built.near += engine.last().primitive_interactions;
    built.far += engine.last().far_field_row_pairs;
    built.boxes = engine.far_field_boxes();
  }
  built.j = matrix_values(j);
  return built;
}

TEST(HfFarField, TakesExactlyThePairsTheNearFieldLeavesOutAndKeepsJ) {
  const MolecularBasis basis = three_waters();
  const int n = basis.functions;
  std::mt19937_64 rng(59);
  const std::vector<double> d = random_density(n, 1.0, rng);
  const BuiltJ exact = engine_j(basis, d, 0);
  EXPECT_EQ(exact.far, 0.0);
  EXPECT_EQ(exact.boxes, 0);
  double energy_exact = 0.0;
  for (int k = 0; k < n * n; ++k)
    energy_exact += 0.5 * d[k] * exact.j[k];
  double previous = 0.0;
  for (const int order : {4, 8, 12}) {
    SCOPED_TRACE("order " + std::to_string(order));
    const BuiltJ far = engine_j(basis, d, order);
    EXPECT_GT(far.boxes, 2);
    EXPECT_GT(far.far, 0.1 * exact.near);
    // Unscreened, both ways: every ordered pair of rows is the near field's or the far field's.
    EXPECT_EQ(far.near + far.far, exact.near);
    double energy = 0.0;
    for (int k = 0; k < n * n; ++k)
      energy += 0.5 * d[k] * far.j[k];
    const double error = std::abs(energy - energy_exact);
    // Two ranks, each its share of the bra rows, near and far: the same J and the same pairs.
    const BuiltJ shared = engine_j(basis, d, order, 2);
    EXPECT_EQ(shared.near, far.near);
    EXPECT_EQ(shared.far, far.far);
    double largest = 0.0;
    for (const double x : far.j)
      largest = std::max(largest, std::abs(x));
    EXPECT_LT(largest_difference(shared.j, far.j), 1e-13 * largest);
    if (order > 4) {
      EXPECT_LT(error, 0.1 * previous);
    }
    previous = error;
  }
  EXPECT_LT(previous, 1e-11);  // 1.4e-12 Eh of 23 Eh at order 12 (7.6e-7 at 4, 5.3e-9 at 8)
}

}  // namespace
}  // namespace kmini::hf
