#include "core/headline.hpp"

#include <cmath>

#include "core/config.hpp"
#include "core/table.hpp"
#include "core/text.hpp"

namespace kmini {

namespace {

Headline headline_of(const RunResult& run, const std::optional<SuiteReference>& reference) {
  const RunSpec& spec = *run.spec;
  Headline h;
  h.label = spec.label();
  h.app = spec.app->name;
  h.fom_name = spec.app->fom.name;
  h.unit = spec.app->fom.unit;
  h.run_failed = !run.error.empty();
  for (const auto& r : run.results) {
    if (!r.not_applicable.empty()) continue;
    ++h.ran;
    if (!r.validation.passed()) continue;
    ++h.passed;
    if (h.fom && r.fom <= *h.fom) continue;
    h.fom = r.fom;
    h.variant = r.variant->name;
    h.point = describe_point(r.point);
    h.percent_of_ceiling = r.percent_of_ceiling;
  }
  if (reference) {
    const auto figure = reference->figures.find(h.label);
    if (figure != reference->figures.end()) h.reference = figure->second;
  }
  // A run with any failure is not rated: its fastest passing variant would hide the failure.
  const bool clean = !h.run_failed && h.ran > 0 && h.passed == h.ran;
  if (clean && h.fom && h.reference) h.ratio = *h.fom / *h.reference;
  return h;
}

Tree optional_tree(const std::optional<double>& value) {
  return value ? Tree(*value) : Tree();
}

}  // namespace

std::vector<Headline> find_headlines(const std::vector<RunResult>& runs,
                                     const std::optional<SuiteReference>& reference) {
  std::vector<Headline> headlines;
  for (const auto& run : runs)
    headlines.push_back(headline_of(run, reference));
  return headlines;
}

std::optional<double> rating_of(const std::vector<Headline>& headlines) {
  if (headlines.empty()) return std::nullopt;
  double log_sum = 0.0;
  for (const auto& h : headlines) {
    if (!h.ratio) return std::nullopt;
    log_sum += std::log(*h.ratio);
  }
  return std::exp(log_sum / static_cast<double>(headlines.size()));
}

Tree headlines_tree(const std::vector<Headline>& headlines) {
  Tree list = Tree::list();
  for (const auto& h : headlines) {
    Tree t = Tree::map();
    t["label"] = h.label;
    t["app"] = h.app;
    t["results"] = h.ran;
    t["passed"] = h.passed;
    t["completed"] = !h.run_failed;
    t["headline"]["name"] = h.fom_name;
    t["headline"]["value"] = optional_tree(h.fom);
    t["headline"]["unit"] = h.unit;
    t["headline"]["variant"] = h.fom ? Tree(h.variant) : Tree();
    t["headline"]["point"] = h.fom ? Tree(h.point) : Tree();
    t["headline"]["percent_of_ceiling"] = optional_tree(h.percent_of_ceiling);
    t["reference"] = optional_tree(h.reference);
    t["ratio_to_reference"] = optional_tree(h.ratio);
    list.push_back(t);
  }
  return list;
}

void print_headlines(std::ostream& out, const std::vector<Headline>& headlines,
                     const std::string& reference_device) {
  std::vector<std::string> headers{"run", "headline (fastest validated)", "variant", "% ceiling",
                                   "validated"};
  if (!reference_device.empty()) headers.push_back("x reference");
  Table table(headers);
  for (const auto& h : headlines) {
    std::string figure = h.fom ? format_significant(*h.fom, 4) + " " + h.unit : "none";
    std::string variant = h.fom ? h.variant : "-";
    if (h.fom && !h.point.empty()) variant += " at " + h.point;
    std::vector<std::string> row{
        h.label == h.app ? h.label : h.label + " (" + h.app + ")", figure, variant,
        h.percent_of_ceiling ? format_significant(*h.percent_of_ceiling, 3) : "-",
        std::to_string(h.passed) + " of " + std::to_string(h.ran) +
            (h.run_failed ? ", run failed" : "")};
    if (!reference_device.empty()) row.push_back(h.ratio ? format_significant(*h.ratio, 3) : "-");
    table.add_row(row);
  }
  out << "summary: each run's fastest validated result";
  if (!reference_device.empty()) out << ", and its ratio to " << reference_device << "'s";
  out << "\n";
  table.print(out);
}

}  // namespace kmini
