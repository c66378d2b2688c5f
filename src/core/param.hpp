// Typed parameter schemas: what an app accepts, with defaults, ranges and one-line docs.
//
// An app declares its parameters once, as a list of ParamSpec; config.cpp checks YAML input
// against them, `kmini list` prints them, and the report echoes the values.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kmini {

enum class ParamType {
  boolean,
  integer,
  real,
  string,        // free text
  choice,        // one of a fixed set of words
  path,          // a file, resolved against the input file's folder and checked to exist
  integer_list,  // a YAML list of integers; a single value is a list of one
  real_list,
  string_list,  // with choices set, each item must be one of them
  real_matrix,  // a list of equally long lists of reals
  // A list of integers given inline, one of `choices`, or a file of integers: the value is the
  // list (inline), the word, or the file's absolute path; the app reads the file.
  integers_or_name,
  // One of `choices` (things kmini ships, such as a basis set) or a file, resolved like a path.
  name_or_path,
};

using RealMatrix = std::vector<std::vector<double>>;

// One parameter value. std::monostate means "no value" (an optional parameter left unset).
using Value =
    std::variant<std::monostate, bool, std::int64_t, double, std::string, std::vector<std::int64_t>,
                 std::vector<double>, std::vector<std::string>, RealMatrix>;

// The value as a user would write it in YAML flow style: 3, 0.5, double, [1, 10, 100].
std::string format_value(const Value& value);

// "an integer", "a list of reals", ... for error messages.
std::string describe_type(ParamType type);

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::integer;
  Value default_value;  // std::monostate: optional, no default
  std::string doc;

  // Constraints. For lists they apply to each item.
  std::optional<double> min;
  std::optional<double> max;
  bool min_excluded = false;         // the range is (min, max]: min itself is refused
  std::vector<std::string> choices;  // choice, string_list
  std::size_t min_items = 1;         // lists: an empty list is never a valid value
  std::size_t max_items = std::numeric_limits<std::size_t>::max();

  // A sweepable scalar parameter also accepts a list of values; the run is repeated for each
  // (the cartesian product over all swept parameters).
  bool sweep = false;
  // A sweep that applies when the user gives no value (default_value is its first entry).
  std::vector<Value> default_sweep;
  // A string naming a file the run writes. The input check refuses one that a run of the input
  // reads, that another run writes, or that --report names: the later write would replace it.
  bool output = false;

  // Builders, so that a schema reads as a table.
  static ParamSpec boolean(std::string name, bool default_value, std::string doc);
  static ParamSpec integer(std::string name, std::int64_t default_value, std::string doc);
  static ParamSpec real(std::string name, double default_value, std::string doc);
  static ParamSpec string(std::string name, std::string default_value, std::string doc);
  static ParamSpec choice(std::string name, std::string default_value,
                          std::vector<std::string> choices, std::string doc);
  static ParamSpec path(std::string name, std::string doc);  // optional: no default
  static ParamSpec integer_list(std::string name, std::vector<std::int64_t> default_value,
                                std::string doc);
  static ParamSpec real_list(std::string name, std::vector<double> default_value, std::string doc);
  static ParamSpec string_list(std::string name, std::vector<std::string> default_value,
                               std::vector<std::string> choices, std::string doc);
  static ParamSpec real_matrix(std::string name, std::string doc);  // optional: no default
  static ParamSpec name_or_path(std::string name, std::string default_name,
                                std::vector<std::string> names, std::string doc);
  static ParamSpec integers_or_name(std::string name, std::string default_name,
                                    std::vector<std::string> names, std::string doc);

  ParamSpec& range(double lo, double hi);
  // (lo, hi]: for a quantity that must be positive but has no smallest allowed value.
  ParamSpec& range_above(double lo, double hi);
  ParamSpec& at_least(double lo);
  ParamSpec& items(std::size_t lo, std::size_t hi);
  ParamSpec& sweepable();
  // Sweepable, and swept over `values` by default.
  ParamSpec& swept_by_default(std::vector<Value> values);
  ParamSpec& optional();  // drop the default: the parameter may be left unset
  ParamSpec& output_file();

  bool is_list() const;
  // What a valid value looks like: "an integer in [1, 1024]", "one of: float, double".
  std::string expectation() const;
  // The constraint alone, for tables: "[1, 1024]", "float | double", "" when unconstrained.
  std::string constraint() const;
};

}  // namespace kmini
