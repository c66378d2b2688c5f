#include "hf/fock/j_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <string>

#include "core/view_of.hpp"
#include "hf/fock/far_field.hpp"
#include "hf/fock/hermite_rows.hpp"
#include "hf/fock/j_engine_steps.hpp"
#include "hf/screening/schwarz.hpp"

namespace kmini::hf {

using namespace j_steps;

namespace {

// The most bra rows a host's first launch holds (JEngine's constructor).
constexpr std::int64_t kHostFirstChunkBras = 1024;

// A degree's bra rows can be few (a d shell's products with itself: one row per atom), and a
// warp each then leaves a GPU nearly idle: each bra row's kets are then shared out among up to
// kMostSegments segments, each of the bra row's lanes, until the launch holds kFillingLanes
// lanes (8192 warps). The host's threads have bra rows enough: one segment.
constexpr int kFillingLanes =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible ? 1 : 8192 * 32;
constexpr int kMostSegments = 16;
// Step 2's kernels keep an eighth to five eighths of a GPU's threads resident (their registers),
// so a quarter of kFillingLanes is what a launch needs to keep it busy: the floor on a launch's
// bra rows (j_launch_shape). At all of kFillingLanes, the heavy classes' launches at 256 waters
// ran 0.7 s, past the stop check's bound (docs/notes/hf-j-engine.md).
constexpr int kResidentShare = 4;

}  // namespace

struct JEngine::Tables {
  ShellPairs<Memory> pairs;
  BoysTable<Memory> boys;
  Kokkos::View<int*, Memory> kind;             // per pair
  Kokkos::View<double*, Memory> pair_density;  // per pair: max |D| over its block, per build
  // Per product: its pair, its Hermite row (hermite_rows.hpp) and that row's degree.
  Kokkos::View<int*, Memory> product_pair, product_row, product_row_degree;
  // Per degree: the rows (by bound descending), filled per build; each row's products; the
  // rows this rank computes potentials for; and their potentials, per build.
  std::array<Kokkos::View<double*, Memory>, kDegrees> rows, potentials;
  std::array<Kokkos::View<int*, Memory>, kDegrees> member_begin, members, owned;
  std::array<int, kDegrees> row_count{};
  // Per degree and row, its far field box's code or -1 (far_field.hpp), and the far field.
  std::array<Kokkos::View<int*, Memory>, kDegrees> row_box;
  std::unique_ptr<FarField> far_field;
  std::array<Kokkos::View<int*, Memory>, kPairKinds> pairs_of_kind;  // step 3's
  // Step 2's sums per (bra row, segment), for the launches whose bra rows have several segments:
  // the most any launch writes.
  Kokkos::View<double*, Memory> segment_sums;
  double threshold = 0.0;
};

JEngine::JEngine(const MolecularBasis& basis, const JEngineSettings& settings, int rank, int ranks)
    : JEngine(bounded_pairs(basis, settings.threshold, settings.setup_stop_requested), settings,
              rank, ranks) {}

JEngine::JEngine(const BoundedPairs& pairs, const JEngineSettings& settings, int rank, int ranks)
    : settings_(settings), tables_(std::make_unique<Tables>()) {
  Tables& t = *tables_;
  t.threshold = settings.threshold;
  const std::vector<std::array<int, 2>>& list = pairs.shells;
  const ShellPairs<Kokkos::HostSpace>& host = pairs.host;
  const std::vector<int>& kinds = pairs.kinds;
  // Unfinished bounds: the caller's safe point throws the engine away.
  const auto setup_stop = settings.setup_stop_requested;
  if (setup_stop != nullptr && setup_stop()) return;

  std::vector<ProductKey> keys(host.products.extent(0));
  std::vector<int> product_pair(keys.size());
  std::array<std::vector<int>, kPairKinds> pairs_of_kind;
  for (std::size_t i = 0; i < list.size(); ++i) {
    pairs_of_kind[kinds[i]].push_back(static_cast<int>(i));
    for (int k = host.primitives_begin(i); k < host.primitives_begin(i + 1); ++k) {
      const PrimitiveProduct& product = host.products(k);
      keys[k] = {product.zeta,
                 {product.center[0], product.center[1], product.center[2]},
                 product.bound,
                 bra_l_of_kind(kinds[i]) + ket_l_of_kind(kinds[i])};
      product_pair[k] = static_cast<int>(i);
    }
  }
  const HermiteRows rows = group_hermite_rows(keys, kDegrees, rank, ranks);
  primitive_products_ = static_cast<std::int64_t>(keys.size());
  std::vector<std::vector<RowPlace>> places(kDegrees);
  for (int d = 0; d < kDegrees; ++d)
    for (int r = 0; r < rows.rows(d); ++r) {
      const ProductKey& first = keys[rows.members[d][rows.member_begin[d][r]]];
      places[d].push_back({{first.center[0], first.center[1], first.center[2]}, first.zeta});
    }
  t.far_field = std::make_unique<FarField>(settings.far_field, places, rows.owned);
  for (int d = 0; d < kDegrees; ++d) {
    t.row_count[d] = rows.rows(d);
    hermite_rows_ += rows.rows(d);
    t.rows[d] = Kokkos::View<double*, Memory>(
        "hf::j_hermite_rows", std::size_t(rows.rows(d)) * std::size_t(row_length(d)));
    t.potentials[d] = Kokkos::View<double*, Memory>(
        "hf::j_potentials", std::size_t(rows.rows(d)) * std::size_t(components_up_to(d)));
    t.member_begin[d] =
        view_of<Kokkos::View<int*, Memory>>("hf::j_member_begin", rows.member_begin[d]);
    t.members[d] = view_of<Kokkos::View<int*, Memory>>("hf::j_members", rows.members[d]);
    t.owned[d] = view_of<Kokkos::View<int*, Memory>>("hf::j_owned_rows", rows.owned[d]);
    t.row_box[d] =
        view_of<Kokkos::View<int*, Memory>>("hf::j_row_boxes", t.far_field->row_codes()[d]);
  }
  // A host's few threads take far longer over a GPU's first chunk (seconds on two cores, each
  // bra walking every ket): there the first launch holds kHostFirstChunkBras.
  const std::int64_t first_chunk = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible
                                       ? std::min(settings.chunk_bras, kHostFirstChunkBras)
                                       : settings.chunk_bras;
  std::size_t most_segment_sums = 0;
  for (int d = 0; d < kDegrees; ++d) {
    const JLaunchShape shape = launch_shape(d);
    if (shape.segments > 1)
      most_segment_sums =
          std::max(most_segment_sums, rows.owned[d].size() * std::size_t(shape.segments) *
                                          std::size_t(components_up_to(d)));
    for (int ket = 0; ket < kDegrees; ++ket)
      chunks_.emplace_back(first_chunk,
                           std::max(settings.smallest_chunk_bras, shape.smallest_chunk_bras),
                           settings.launch_seconds);
  }
  t.segment_sums = Kokkos::View<double*, Memory>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hf::j_segment_sums")),
      most_segment_sums);
  t.pairs = copy_shell_pairs<Memory>(host);
  t.boys = make_boys_table<Memory>();
  t.kind = view_of<Kokkos::View<int*, Memory>>("hf::j_pair_kind", kinds);
  t.pair_density = Kokkos::View<double*, Memory>("hf::j_pair_density", list.size());
  for (int k = 0; k < kPairKinds; ++k)
    t.pairs_of_kind[k] =
        view_of<Kokkos::View<int*, Memory>>("hf::j_pairs_of_kind", pairs_of_kind[k]);
  t.product_pair = view_of<Kokkos::View<int*, Memory>>("hf::j_product_pair", product_pair);
  t.product_row = view_of<Kokkos::View<int*, Memory>>("hf::j_product_row", rows.row);
  t.product_row_degree =
      view_of<Kokkos::View<int*, Memory>>("hf::j_product_row_degree", rows.row_degree);
}

JEngine::~JEngine() = default;

int JEngine::ket_lanes(int bra_degree) const {
  if (settings_.ket_lanes > 0) return settings_.ket_lanes;
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible
             ? 1
             : (bra_degree == 0 ? kKetLanesOfDegreeZero : kKetLanesAbove);
}

JLaunchShape j_launch_shape(const JEngineSettings& settings, int lanes, int bra_rows,
                            int filling_lanes) {
  JLaunchShape shape;
  lanes = std::clamp(lanes, 1, std::max(filling_lanes, 1));
  if (settings.ket_segments > 0) {
    shape.segments = settings.ket_segments;
  } else if (bra_rows > 0) {
    shape.segments = std::clamp(filling_lanes / lanes / bra_rows, 1, kMostSegments);
  }
  const std::int64_t lanes_per_bra = std::int64_t{lanes} * shape.segments;
  const std::int64_t resident = (filling_lanes + kResidentShare - 1) / kResidentShare;
  shape.smallest_chunk_bras =
      std::max<std::int64_t>(1, (resident + lanes_per_bra - 1) / lanes_per_bra);
  return shape;
}

int j_filling_lanes() {
  return kFillingLanes;
}

JLaunchShape JEngine::launch_shape(int bra_degree) const {
  return j_launch_shape(settings_, ket_lanes(bra_degree), tables_->owned[bra_degree].extent_int(0),
                        kFillingLanes);
}

int JEngine::ket_tile_rows(std::int64_t row_bytes, int ket_rows) const {
  const std::int64_t bytes = settings_.ket_tile_bytes;
  if (bytes <= 0 || ket_rows <= 0) return std::max(ket_rows, 1);
  return static_cast<int>(std::clamp<std::int64_t>(bytes / row_bytes, 1, ket_rows));
}

int JEngine::far_field_boxes() const {
  return tables_->far_field && tables_->far_field->active() ? tables_->far_field->boxes() : 0;
}

void JEngine::set_threshold_scale(double scale) {
  tables_->threshold = settings_.threshold * scale;
}

template <int BraDegree, int KetDegree>
void JEngine::add_interactions(double largest_density) {
  const Tables& t = *tables_;
  if (t.owned[BraDegree].extent(0) == 0 || t.row_count[KetDegree] == 0) return;
  const auto functor = [&](auto once) {
    return HermiteInteractions<BraDegree, KetDegree, decltype(once)::value>{
        t.boys,
        t.owned[BraDegree],
        t.rows[BraDegree],
        t.rows[KetDegree],
        t.potentials[BraDegree],
        decltype(once)::value ? t.potentials[KetDegree] : Kokkos::View<double*, Memory>(),
        t.segment_sums,
        QuartetScreen<Memory>::kPrimitiveShare * t.threshold,
        largest_density,
        far_field_boxes() > 0 ? t.far_field->separation() : 0,
        0,
        t.row_count[KetDegree],
        ket_lanes(BraDegree),
        launch_shape(BraDegree).segments,
        0,
        0};
  };
  if (settings_.row_pairs == JRowPairs::both_ways || BraDegree == KetDegree) {
    launch_interactions(functor(std::false_type{}), BraDegree, KetDegree);
  } else if constexpr (BraDegree > KetDegree) {
    // Once: the pairs of rows of a lower degree's bras are visited here, from this side.
    launch_interactions(functor(std::true_type{}), BraDegree, KetDegree);
  }
}

template <class Interactions>
void JEngine::launch_interactions(Interactions functor, int bra_degree, int ket_degree) {
  const Tables& t = *tables_;
  const auto& bras = functor.bras;
  const int lanes = functor.lanes;
  const int vector = std::min(lanes, Kokkos::TeamPolicy<Exec>::vector_length_max());
  const int team_bras = std::max(1, kTeamThreads / vector);
  const int segments = functor.segments;
  const int ket_rows = t.row_count[ket_degree];
  const int tile =
      ket_tile_rows(static_cast<std::int64_t>(sizeof(double)) *
                        (Interactions::ket_length + (Interactions::once ? Interactions::n_ket : 0)),
                    ket_rows);
  last_.most_ket_tiles = std::max(last_.most_ket_tiles, (ket_rows + tile - 1) / tile);
  const std::string label =
      "hf::j_engine_" + std::to_string(bra_degree) + "_" + std::to_string(ket_degree);
  TimedChunks& chunks = chunks_[bra_degree * kDegrees + ket_degree];
  const auto start = std::chrono::steady_clock::now();
  for_each_timed_chunk(
      chunks, 0, bras.extent_int(0),
      [&] { return settings_.stop_requested != nullptr && settings_.stop_requested(); },
      [&](std::int64_t begin, std::int64_t size) {
        functor.first_bra = static_cast<int>(begin);
        functor.end_bra = static_cast<int>(begin + size);
        const int teams = static_cast<int>((size * segments + team_bras - 1) / team_bras);
        // Tile by tile, in order: each bra row's potential takes the tiles' sums one after
        // another, the same order every build.
        for (int first_ket = 0; first_ket < ket_rows; first_ket += tile) {
          functor.first_ket = first_ket;
          functor.end_ket = std::min(first_ket + tile, ket_rows);
          double interactions = 0.0;
          // The reduction's result on the host fences each launch: the tiles' time is the
          // chunk's. On the host, the lanes of a vector run one after another, each over its
          // own rows.
          Kokkos::parallel_reduce(
              label,
              Kokkos::TeamPolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>(teams, team_bras, vector),
              functor, interactions);
          last_.primitive_interactions += interactions;
          last_.interactions[bra_degree][ket_degree] += interactions;
          if (segments > 1)
            Kokkos::parallel_for(
                "hf::j_segment_sums", Kokkos::RangePolicy<Exec>(0, static_cast<int>(size)),
                SegmentSums{bras, t.segment_sums, t.potentials[bra_degree], Interactions::n_bra,
                            segments, static_cast<int>(begin)});
        }
      },
      last_.longest_chunk_seconds);
  last_.interaction_seconds[bra_degree][ket_degree] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
    Impl::static_for<0, kDegrees>([&](auto row_degree) {
      constexpr int d = decltype(row_degree)::value;
      if (t.row_count[d] == 0) return;
      Kokkos::parallel_for("hf::j_fill_rows", Kokkos::RangePolicy<Exec>(0, t.row_count[d]),
                           FillRows<d>{pairs, density, pair_density, kind, t.product_pair,
                                       t.member_begin[d], t.members[d], t.row_box[d], t.rows[d]});
      Kokkos::deep_copy(t.potentials[d], 0.0);
    });
    if (far_field_boxes() > 0) {
      last_.far_field_seconds = t.far_field->add({t.rows.begin(), t.rows.end()},
                                                 {t.potentials.begin(), t.potentials.end()});
      for (int bra = 0; bra < kDegrees; ++bra)
        for (int ket = 0; ket < kDegrees; ++ket)
          last_.far_field_row_pairs += t.far_field->row_pairs(bra, ket);
    }
    Impl::static_for<0, kDegrees>([&](auto bra_degree) {
      Impl::static_for<0, kDegrees>([&](auto ket_degree) {
        add_interactions<decltype(bra_degree)::value, decltype(ket_degree)::value>(largest);
      });
    });
    const bool stopped = settings_.stop_requested != nullptr && settings_.stop_requested();
    Impl::static_for<0, kPairKinds>([&](auto pair_kind_) {
      constexpr int k = decltype(pair_kind_)::value;
      const auto of_kind = t.pairs_of_kind[k];
      if (stopped || of_kind.extent(0) == 0) return;
      BraBlocks<bra_l_of_kind(k), ket_l_of_kind(k)> blocks{
          pairs, of_kind, t.product_row, t.product_row_degree, {}, j};
      for (int d = 0; d < kDegrees; ++d)
        blocks.potentials[d] = t.potentials[d].data();
      Kokkos::parallel_for("hf::j_bra_blocks", Kokkos::RangePolicy<Exec>(0, of_kind.extent_int(0)),
                           blocks);
    });
  }
  Kokkos::fence();
  last_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace kmini::hf
