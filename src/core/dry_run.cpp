#include "core/dry_run.hpp"

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "core/comm.hpp"
#include "core/config.hpp"
#include "core/registry.hpp"
#include "core/results_table.hpp"
#include "core/runner.hpp"
#include "core/table.hpp"
#include "core/text.hpp"

namespace kmini {

namespace {

// Counts of flop and items, "2.4e+06" past a million so that the columns stay readable.
std::string count_cell(double value, const char* partial) {
  if (!(value > 0.0)) return "-";
  if (value < 1.0e6) return format_significant(value, 3) + partial;
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g", value);
  return text + std::string(partial);
}

// One point: the work of every selected variant's warm-up and timed repetitions, over all ranks.
struct PointEstimate {
  double memory_per_rank = 0.0;       // where the default execution space allocates
  double host_memory_per_rank = 0.0;  // the host variants' arrays on the host
  int variants = 0;
  std::int64_t repetitions = 0;  // per variant, warm-up included
  Work total;
  bool known = true;  // every selected variant's work could be estimated
  std::set<std::string> notes;
};

PointEstimate estimate_point(const RunSpec& run, const Params& params, const Comm& comm) {
  const AppSpec& app = *run.app;
  PointEstimate e;
  e.memory_per_rank = app.device_bytes ? comm.max(app.device_bytes(params, comm)) : 0.0;
  e.host_memory_per_rank = app.host_bytes ? comm.max(app.host_bytes(params, comm)) : 0.0;
  e.repetitions = params.integer(kRepetitionsKey) + params.integer(kWarmupKey);
  for (const VariantSpec* variant : run.variants()) {
    ++e.variants;
    if (!app.estimate_work) {
      e.known = false;
      e.notes.insert("this app gives no estimate");
      continue;
    }
    const WorkEstimate w = app.estimate_work(params, comm, *variant);
    if (!w.note.empty()) e.notes.insert(w.note);
    if (!w.per_repetition) {
      e.known = false;
      continue;
    }
    const double reps = static_cast<double>(e.repetitions);
    const Work work = work_of(*w.per_repetition, *variant);
    e.total.bytes += comm.sum(work.bytes) * reps;
    e.total.flops += comm.sum(work.flops) * reps;
    e.total.items += comm.sum(work.items) * reps;
  }
  return e;
}

}  // namespace

void print_dry_run(std::ostream& out, const Input& input, const Comm& comm) {
  out << "kmini: dry run of " << input.path << ": " << input.runs.size() << " run(s) on "
      << comm.size() << " rank(s); nothing is allocated or run\n\n";
  for (const auto& run : input.runs) {
    print_run_heading(out, run);
    Table table({"point", "memory per rank", "host memory per rank", "variants", "repetitions",
                 "bytes moved", "flop", "items"});
    std::set<std::string> notes;
    for (const auto& params : run.points()) {
      const PointEstimate e = estimate_point(run, params, comm);
      notes.insert(e.notes.begin(), e.notes.end());
      const char* partial = e.known ? "" : " +";
      const std::string point = describe_point(swept_values(run, params));
      table.add_row({point.empty() ? "-" : point, format_bytes(e.memory_per_rank),
                     format_bytes(e.host_memory_per_rank), std::to_string(e.variants),
                     std::to_string(e.repetitions),
                     e.total.bytes > 0.0 ? format_bytes(e.total.bytes) + partial : "-",
                     count_cell(e.total.flops, partial), count_cell(e.total.items, partial)});
    }
    table.print(out);
    for (const auto& note : notes)
      out << "   note: " << note << "\n";
    out << "\n";
  }
  out << "Work is over all ranks, every selected variant, warm-up and timed repetitions, under "
         "each app's byte model; '+' marks a total that leaves out work only known at run "
         "time.\n";
}

}  // namespace kmini
