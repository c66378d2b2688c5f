// A bridge variant's check: the picked paths' normals against the source evaluated on the host,
// and their output against a reference bridge built from those normals, within the rounding
// bound; and the dump of them where the input asks for one.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

#include "bridge/bridge_data.hpp"
#include "bridge/bridge_model.hpp"
#include "bridge/bridge_setup.hpp"
#include "bridge/path_layout.hpp"
#include "core/app.hpp"
#include "core/atomic_file.hpp"
#include "core/comm.hpp"
#include "core/interrupt.hpp"
#include "core/view_of.hpp"

namespace kmini::bridge {

// validate: sample checks this many paths of each rank's share, spread evenly.
constexpr std::int64_t kSampledPaths = 4096;
// validate: full checks paths in batches of this many, to bound the host copy.
constexpr std::int64_t kCheckBatch = 65536;
// The host's check looks for a signal every this many paths: a path of many steps takes
// hundreds of microseconds there, and the whole sample seconds.
constexpr std::size_t kPathsBetweenSignalChecks = 64;

// The largest |error| a generated value may have, from how rounding errors propagate through
// equation (5): each point adds a few roundings of its terms' size to the larger of its
// neighbours' errors (the weights are positive and sum to one), so after the longest chain of
// interpolations (depth) the error is below depth x (8 + 2d) u M, M bounding |x| and |sigma C z|
// along the path.
struct RoundingBound {
  double unit;  // unit roundoff of the working precision
  int depth;
  int dim;
  double path_error(double magnitude) const { return depth * (8.0 + 2.0 * dim) * unit * magnitude; }
};

template <class T>
class PathCheck {
 public:
  PathCheck(const Comm& comm, const BridgeSetup& setup, const PathLayout& layout,
            const std::vector<std::uint32_t>& directions)
      : comm_(comm), setup_(setup), layout_(layout), directions_(directions) {}

  // Over all ranks, at the last check.
  double checked_paths() const { return checked_paths_; }

  // Compares the picked paths' normals with the source evaluated on the host, and their output
  // with the reference bridge built from those normals, within the rounding bound.
  template <class Memory>
  Validation operator()(const BridgeData<T, Memory>& data, const VariantSpec& variant) {
    using Exec = typename Memory::execution_space;
    const std::vector<std::int64_t> picks = this->picks();
    const int width = layout_.steps * layout_.dim;
    const NormalSource<HostMemory> host_source{
        setup_.sobol, setup_.seed,
        view_of<Kokkos::View<std::uint32_t*, HostMemory>>("bridge::sobol_host", directions_)};
    const RoundingBound bound{std::numeric_limits<T>::epsilon() / 2, setup_.strategy.depth,
                              layout_.dim};
    double worst = 0.0, worst_normal = 0.0;
    std::ostringstream dump;
    // A signal ends this rank's loops at once; every rank then meets at the safe point below,
    // which ends the variant, before the sums (ranks' shares of the picks can differ).
    bool signalled = false;
    for (std::size_t begin = 0; begin < picks.size() && !signalled; begin += kCheckBatch) {
      const std::size_t count = std::min<std::size_t>(kCheckBatch, picks.size() - begin);
      const std::vector<std::int64_t> batch(picks.begin() + begin, picks.begin() + begin + count);
      const auto batch_view = view_of<Kokkos::View<std::int64_t*, Memory>>("bridge::picks", batch);
      Kokkos::View<T**, Kokkos::LayoutRight, Memory> normals("bridge::picked_normals", count,
                                                             width);
      Kokkos::View<T**, Kokkos::LayoutRight, Memory> output("bridge::picked_output", count, width);
      pick_paths<T, Exec>(data, batch_view, normals, output);
      const auto host_normals = Kokkos::create_mirror_view_and_copy(HostMemory(), normals);
      const auto host_output = Kokkos::create_mirror_view_and_copy(HostMemory(), output);
      for (std::size_t i = 0; i < count; ++i) {
        if (i % kPathsBetweenSignalChecks == 0 && (signalled = interrupt::received() != 0)) break;
        const std::int64_t path = setup_.first_path + batch[i];
        std::vector<double> z(static_cast<std::size_t>(width));
        for (int j = 0; j < width; ++j) {
          z[static_cast<std::size_t>(j)] = static_cast<double>(host_normals(i, j));
          const double expected = static_cast<double>(static_cast<T>(host_source(path, j)));
          const double off = std::fabs(z[static_cast<std::size_t>(j)] - expected) /
                             (4.0 * bound.unit * std::fabs(expected) + 1e-14);
          worst_normal = std::isnan(off) ? INFINITY : std::max(worst_normal, off);
        }
        worst = std::max(worst, path_error_ratio(z, host_output, i));
        if (!setup_.dump.empty()) write_dump_lines(dump, host_normals, host_output, i);
      }
    }
    interrupt::stop_if_requested(comm_);
    checked_paths_ = comm_.sum(static_cast<double>(picks.size()));
    if (!setup_.dump.empty()) write_dump(dump.str(), variant);
    const std::string paths =
        " over " + std::to_string(static_cast<long long>(checked_paths_)) + " checked paths";
    if (comm_.max(worst_normal) > 1.0) {
      return Validation::within("max |normal - host evaluation| / (4u|normal| + 1e-14)" + paths,
                                worst_normal, 1.0);
    }
    return Validation::within(std::string("max |") +
                                  (setup_.increments ? "increment" : "path point") +
                                  " - reference bridge| / its rounding bound" + paths,
                              worst, 1.0);
  }

 private:
  using HostMemory = Kokkos::HostSpace;

  // The local paths the check covers.
  std::vector<std::int64_t> picks() const {
    std::vector<std::int64_t> picks;
    const std::int64_t local = layout_.paths;
    if (setup_.validate_full || !setup_.dump.empty() || local <= kSampledPaths) {
      for (std::int64_t i = 0; i < local; ++i)
        picks.push_back(i);
    } else {
      for (std::int64_t j = 0; j < kSampledPaths; ++j)
        picks.push_back(j * (local - 1) / (kSampledPaths - 1));
    }
    return picks;
  }

  // The worst error of one picked path's output relative to its rounding bound.
  template <class HostMatrix>
  double path_error_ratio(const std::vector<double>& z, const HostMatrix& output,
                          std::size_t row) const {
    const BridgeModel& model = setup_.model;
    const int d = model.dim;
    const std::vector<double> path = reference_path(model, z.data());
    double magnitude = 0.0;
    for (const double v : path)
      magnitude = std::max(magnitude, std::fabs(v));
    for (const double v : model.x0)
      magnitude = std::max(magnitude, std::fabs(v));
    // sigma per point of the user's order: the normal that builds it is the k-th.
    std::vector<double> sigma(setup_.strategy.stacked.sigma.size());
    for (std::size_t m = 0; m < sigma.size(); ++m)
      sigma[static_cast<std::size_t>(setup_.strategy.stacked.schedule[m])] =
          setup_.strategy.stacked.sigma[m];
    for (std::size_t k = 0; k < sigma.size(); ++k) {
      for (int c = 0; c < d; ++c) {
        double term = 0.0;
        for (int j = 0; j < d; ++j)
          term += std::fabs(model.factor[static_cast<std::size_t>(c * d + j)] *
                            z[k * static_cast<std::size_t>(d) + static_cast<std::size_t>(j)]);
        magnitude = std::max(magnitude, sigma[k] * term);
      }
    }
    const RoundingBound bound{std::numeric_limits<T>::epsilon() / 2, setup_.strategy.depth, d};
    const double path_error = bound.path_error(magnitude);
    const std::vector<double> expected = setup_.increments ? increments_of(model, path) : path;
    double worst = 0.0;
    for (std::size_t j = 0; j < expected.size(); ++j) {
      double allowed = path_error;
      if (setup_.increments) {
        const int i = static_cast<int>(j) / d + 1;
        const double dt = model.grid.at(i) - model.grid.at(i - 1);
        allowed = 2.0 * path_error / dt + 4.0 * bound.unit * std::fabs(expected[j]);
      }
      const double error = std::fabs(static_cast<double>(output(row, j)) - expected[j]);
      // A path of zero normals (Sobol's first point is 1/2 everywhere) is exactly x0: no error.
      const double ratio = error == 0.0 ? 0.0 : error / allowed;
      if (std::isnan(ratio)) return INFINITY;
      worst = std::max(worst, ratio);
    }
    return worst;
  }

  template <class HostMatrix>
  void write_dump_lines(std::ostream& out, const HostMatrix& normals, const HostMatrix& output,
                        std::size_t row) const {
    out << std::setprecision(std::numeric_limits<T>::max_digits10);
    for (const HostMatrix* values : {&normals, &output}) {
      for (std::size_t j = 0; j < values->extent(1); ++j)
        out << (j == 0 ? "" : " ") << (*values)(row, j);
      out << "\n";
    }
  }

  // Every rank's lines, in rank order (so in global path order), written by the root.
  void write_dump(const std::string& lines, const VariantSpec& variant) const {
    const std::vector<std::string> parts = comm_.all_gather(lines);
    if (!comm_.is_root()) return;
    const BridgeModel& model = setup_.model;
    write_file_atomically(setup_.dump, [&](std::ostream& out) {
      out << "# kmini bridge dump: variant " << variant.name << ", " << setup_.global_paths
          << " paths, " << model.grid.steps() << " times, dimension " << model.dim << ", "
          << (sizeof(T) == sizeof(float) ? "float" : "double") << ", output "
          << (setup_.increments ? "increments" : "paths") << "\n"
          << "# per path: a line of its normals in construction order, then a line of its "
             "output at t_1..t_N (a point's "
          << model.dim << " components together)\n";
      for (const auto& part : parts)
        out << part;
    });
  }

  const Comm& comm_;
  const BridgeSetup& setup_;
  const PathLayout& layout_;
  const std::vector<std::uint32_t>& directions_;
  double checked_paths_ = 0.0;
};

}  // namespace kmini::bridge
