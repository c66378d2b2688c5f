// The histogram app's parameters: the words of its choices and the values they stand for, what
// the parameters say (a team size, a bin's bytes, the bin counts swept by default), and the check
// that rejects an input before anything runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/choice.hpp"
#include "core/param.hpp"
#include "core/params.hpp"

namespace kmini::histogram {

constexpr std::int64_t kMaxBins = std::numeric_limits<std::int32_t>::max();  // 2^31 - 1

enum class BinType { int_bins, double_bins };
enum class Distribution { uniform, bin_edges };

const Choice<BinType>& bin_type_choice();
const Choice<Distribution>& distribution_choice();

// Teams of 1024 were the fastest of 256, 512 and 1024 at every bin count and sample count tried,
// in int and in double bins: fewer teams merge fewer sub-histograms (docs/performance-notes.md,
// histogram).
int privatized_team_size(const Params& params);

// The bin counts a run sweeps unless told otherwise: 1, 10, .., 10^7.
std::vector<Value> decades_of_bins();

// A bin's bytes: an int's or a double's, as bin_type says.
std::size_t bin_bytes(const Params& params);

// Cross-parameter checks; throws InputError through Params::reject.
void check(const Params& params);

}  // namespace kmini::histogram
