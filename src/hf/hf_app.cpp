#include "hf/hf_app.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "core/comm.hpp"
#include "hf/basis/cartesian.hpp"
#include "hf/fock/g_build.hpp"
#include "hf/fock/symmetric_rank_sum.hpp"
#include "hf/hf_case.hpp"
#include "hf/hf_setup.hpp"
#include "hf/hf_variants.hpp"
#include "hf/integrals/shell_pairs.hpp"
#include "hf/scf/scf.hpp"

namespace kmini::hf {

namespace {

// The Cartesian functions the integrals run over (at least the SCF's).
int basis_functions(const HfSetup& setup) {
  int n = 0;
  for (const Atom& atom : setup.molecule.atoms)
    for (const Shell& shell : setup.basis.shells_of_element.at(atom.atomic_number))
      n += cartesian_functions(shell.l);
  return n;
}

// The SCF's matrices, its DIIS history and the incremental build's copies, the shell-block
// density maxima, and the integral buffer where a variant that uses one is selected.
double device_bytes(const Params& params, const Comm& /*comm*/) {
  const HfSetup& setup = setup_of(params);
  check_g_sum_transport(params);
  const double n = basis_functions(setup);
  double shells = 0.0;
  for (const Atom& atom : setup.molecule.atoms)
    shells += static_cast<double>(setup.basis.shells_of_element.at(atom.atomic_number).size());
  ScfSettings settings;
  double bytes = (13.0 + 2.0 * settings.diis_vectors) * n * n * sizeof(double) +
                 shells * shells * sizeof(double);
  // Every canonical pair's primitive products (before the cutoff drops any), and the kept list of
  // the largest chunk (GBuildSettings::chunk_quartets).
  double primitives = 0.0;
  for (const Atom& atom : setup.molecule.atoms)
    for (const Shell& shell : setup.basis.shells_of_element.at(atom.atomic_number))
      primitives += static_cast<double>(shell.exponents.size());
  bytes += primitives * (primitives + 1.0) / 2.0 * sizeof(PrimitiveProduct) +
           static_cast<double>(GBuildSettings{}.chunk_quartets) * 2.0 * sizeof(int);
  if (params.selects_any([](const VariantSpec& v) { return v.traits.needs_buffer; })) {
    // The buffer holds at most a batch, and at most every unscreened quartet of (pp|pp) size.
    const double unique_quartets = std::pow(n * (n + 1.0) / 2.0, 2) / 2.0;
    bytes += std::min(setup.batch_bytes, unique_quartets * sizeof(double));
  }
  return bytes;
}

// The quartets a G build computes are known only after screening, which needs the integrals
// and the density themselves; the dry run says what the build's size follows from.
WorkEstimate estimate_work(const Params& params, const Comm&, const VariantSpec&) {
  const HfSetup& setup = setup_of(params);
  return WorkEstimate{std::nullopt,
                      "a repetition is one G build from the converged density; its quartet count "
                      "is known after screening; " +
                          std::to_string(setup.molecule.atoms.size()) + " atoms, " +
                          std::to_string(basis_functions(setup)) + " basis functions"};
}

}  // namespace

AppSpec app_spec() {
  AppSpec app;
  app.name = "hf";
  app.doc =
      "restricted Hartree-Fock in Gaussian basis sets with s, p and d shells (STO-3G, 6-31G, "
      "6-31G*, 6-31G**, cc-pVDZ shipped); its cost is "
      "the ERI-driven G-matrix build, with the seeds' update variants side by side";
  app.params = hf_params();
  app.variants = variant_table().specs();
  app.byte_model = "none: the G build is bound by integral arithmetic and atomics, not bandwidth";
  // G builds per second for the fixed input: a faster answer scores higher, whatever screening
  // skips (a quartet rate would rise with quartets computed needlessly).
  app.fom = FigureOfMerit{"G-build rate", "builds/s", FigureOfMerit::Quantity::items, 1.0};
  app.ceiling = Ceiling::copy;
  // A repetition is one G build from the converged density; the SCF before them warms up.
  app.default_variants = {"auto"};
  app.default_repetitions = 3;
  app.default_warmup = 0;
  app.check = check_hf;
  app.device_bytes = device_bytes;
  app.estimate_work = estimate_work;
  app.setup = [](const Params& params, const RunContext& context) -> std::unique_ptr<Case> {
    return std::make_unique<HfCase>(params, context);
  };
  return app;
}

}  // namespace kmini::hf
