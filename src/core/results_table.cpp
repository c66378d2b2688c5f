#include "core/results_table.hpp"

#include <cmath>

#include "core/table.hpp"
#include "core/text.hpp"

namespace kmini {

namespace {

std::string milliseconds(double seconds) {
  return format_significant(seconds * 1.0e3, 4);
}

std::string optional_cell(const std::optional<double>& value, int digits) {
  return value ? format_significant(*value, digits) : "-";
}

// The relation that held: "PASS (1e-17 <= 4.44e-16)", "FAIL (1.67 > 4.44e-16)"; a value that is
// no number fails whatever the tolerance.
std::string validation_cell(const Validation& v) {
  const std::string value = format_significant(v.value, 3);
  const std::string tolerance = format_significant(v.tolerance, 3);
  if (v.passed()) return "PASS (" + value + " <= " + tolerance + ")";
  if (!std::isfinite(v.value)) return "FAIL (" + value + ", not a number <= " + tolerance + ")";
  return "FAIL (" + value + " > " + tolerance + ")";
}

}  // namespace

void print_run_heading(std::ostream& out, const RunSpec& run) {
  out << "== " << run.label();
  if (run.label() != run.app->name) out << " (" << run.app->name << ")";
  out << "  [" << run.mark.str() << "]\n";
}

void print_point(std::ostream& out, const RunSpec& run, const std::vector<VariantResult>& point) {
  if (point.empty()) return;
  const auto& point_text = describe_point(point.front().point);
  if (!point_text.empty()) out << "-- " << point_text << "\n";
  const FigureOfMerit& fom = run.app->fom;
  const bool bandwidth_is_fom = fom.quantity == FigureOfMerit::Quantity::bytes;
  std::vector<std::string> headers{"variant", "reps",   "median ms",
                                   "min ms",  "max ms", fom.name + " " + fom.unit};
  if (!bandwidth_is_fom) headers.push_back("GB/s");
  if (!run.app->item_rate.empty()) headers.push_back(run.app->item_rate);
  headers.insert(headers.end(), {"% ceiling", "speed-up", "validation"});
  Table table(headers);
  for (const auto& r : point) {
    if (!r.not_applicable.empty()) {
      std::vector<std::string> row(headers.size(), "");
      row.front() = r.variant->name;
      row.back() = "n/a: " + r.not_applicable;
      table.add_row(row);
      continue;
    }
    std::vector<std::string> row{
        r.variant->name,          std::to_string(r.time.count), milliseconds(r.time.median),
        milliseconds(r.time.min), milliseconds(r.time.max),     format_significant(r.fom, 4)};
    if (!bandwidth_is_fom) row.push_back(optional_cell(r.bandwidth_gbps, 4));
    if (!run.app->item_rate.empty()) row.push_back(optional_cell(r.items_per_second, 4));
    row.insert(row.end(), {optional_cell(r.percent_of_ceiling, 3), optional_cell(r.speedup, 3),
                           validation_cell(r.validation)});
    table.add_row(row);
  }
  table.print(out);
  for (const auto& r : point) {
    for (const auto& m : r.metrics) {
      out << "   " << r.variant->name << ": " << m.name << " = " << format_number(m.value)
          << (m.unit.empty() ? "" : " " + m.unit) << "\n";
    }
  }
  out << "\n";
}

}  // namespace kmini
