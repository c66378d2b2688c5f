#include "histogram/histogram_params.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kmini::histogram {

const Choice<BinType>& bin_type_choice() {
  static const Choice<BinType> choice{
      "bin_type", {{"int", BinType::int_bins}, {"double", BinType::double_bins}}};
  return choice;
}

const Choice<Distribution>& distribution_choice() {
  static const Choice<Distribution> choice{
      "distribution",
      {{"uniform", Distribution::uniform}, {"boundaries", Distribution::bin_edges}}};
  return choice;
}

int privatized_team_size(const Params& params) {
  const auto requested = static_cast<int>(params.integer("privatized_team_size"));
  return requested > 0 ? requested : 1024;
}

std::vector<Value> decades_of_bins() {
  std::vector<Value> bins;
  for (std::int64_t b = 1; b <= 10000000; b *= 10)
    bins.emplace_back(b);
  return bins;
}

std::size_t bin_bytes(const Params& params) {
  return bin_type_choice().of(params) == BinType::int_bins ? sizeof(int) : sizeof(double);
}

void check(const Params& params) {
  if (bin_type_choice().of(params) == BinType::int_bins && params.integer("samples") > kMaxBins) {
    params.reject("samples", "int bins count to " + std::to_string(kMaxBins) +
                                 " at most; use bin_type: double for more samples");
  }
}

}  // namespace kmini::histogram
