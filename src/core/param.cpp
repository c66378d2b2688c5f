#include "core/param.hpp"

#include <cmath>
#include <sstream>

#include "core/text.hpp"

namespace kmini {

namespace {

template <class T, class Format>
std::string format_list(const std::vector<T>& items, Format format_item) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += format_item(items[i]);
  }
  return out + "]";
}

std::string format_bound(double bound, ParamType type) {
  const bool integral = type == ParamType::integer || type == ParamType::integer_list;
  if (integral && std::fabs(bound) < 9.0e15) {
    return std::to_string(static_cast<std::int64_t>(bound));
  }
  return format_number(bound);
}

}  // namespace

std::string format_value(const Value& value) {
  struct Formatter {
    std::string operator()(std::monostate) const { return "(unset)"; }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return format_number(d); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const std::vector<std::int64_t>& v) const {
      return format_list(v, [](std::int64_t i) { return std::to_string(i); });
    }
    std::string operator()(const std::vector<double>& v) const {
      return format_list(v, [](double d) { return format_number(d); });
    }
    std::string operator()(const std::vector<std::string>& v) const {
      return format_list(v, [](const std::string& s) { return s; });
    }
    std::string operator()(const RealMatrix& m) const {
      return format_list(m, [](const std::vector<double>& row) {
        return format_list(row, [](double d) { return format_number(d); });
      });
    }
  };
  return std::visit(Formatter{}, value);
}

std::string describe_type(ParamType type) {
  switch (type) {
    case ParamType::boolean:
      return "a boolean (true or false)";
    case ParamType::integer:
      return "an integer";
    case ParamType::real:
      return "a number";
    case ParamType::string:
      return "a string";
    case ParamType::choice:
      return "a word";
    case ParamType::path:
      return "a file path";
    case ParamType::integer_list:
      return "a list of integers";
    case ParamType::real_list:
      return "a list of numbers";
    case ParamType::string_list:
      return "a list of words";
    case ParamType::real_matrix:
      return "a matrix (a list of lists of numbers)";
    case ParamType::integers_or_name:
      return "a list of integers or a file of them";
    case ParamType::name_or_path:
      return "a file path";
  }
  return "a value";
}

namespace {

ParamSpec make_spec(std::string name, ParamType type, Value default_value, std::string doc) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.type = type;
  spec.default_value = std::move(default_value);
  spec.doc = std::move(doc);
  return spec;
}

}  // namespace

ParamSpec ParamSpec::boolean(std::string name, bool default_value, std::string doc) {
  return make_spec(std::move(name), ParamType::boolean, default_value, std::move(doc));
}

ParamSpec ParamSpec::integer(std::string name, std::int64_t default_value, std::string doc) {
  return make_spec(std::move(name), ParamType::integer, default_value, std::move(doc));
}

ParamSpec ParamSpec::real(std::string name, double default_value, std::string doc) {
  return make_spec(std::move(name), ParamType::real, default_value, std::move(doc));
}

ParamSpec ParamSpec::string(std::string name, std::string default_value, std::string doc) {
  return make_spec(std::move(name), ParamType::string, std::move(default_value), std::move(doc));
}

ParamSpec ParamSpec::choice(std::string name, std::string default_value,
                            std::vector<std::string> choices, std::string doc) {
  ParamSpec spec =
      make_spec(std::move(name), ParamType::choice, std::move(default_value), std::move(doc));
  spec.choices = std::move(choices);
  return spec;
}

ParamSpec ParamSpec::path(std::string name, std::string doc) {
  return make_spec(std::move(name), ParamType::path, std::monostate{}, std::move(doc));
}

ParamSpec ParamSpec::integer_list(std::string name, std::vector<std::int64_t> default_value,
                                  std::string doc) {
  return make_spec(std::move(name), ParamType::integer_list, std::move(default_value),
                   std::move(doc));
}

ParamSpec ParamSpec::real_list(std::string name, std::vector<double> default_value,
                               std::string doc) {
  return make_spec(std::move(name), ParamType::real_list, std::move(default_value), std::move(doc));
}

ParamSpec ParamSpec::string_list(std::string name, std::vector<std::string> default_value,
                                 std::vector<std::string> choices, std::string doc) {
  ParamSpec spec =
      make_spec(std::move(name), ParamType::string_list, std::move(default_value), std::move(doc));
  spec.choices = std::move(choices);
  return spec;
}

ParamSpec ParamSpec::real_matrix(std::string name, std::string doc) {
  return make_spec(std::move(name), ParamType::real_matrix, std::monostate{}, std::move(doc));
}

ParamSpec ParamSpec::name_or_path(std::string name, std::string default_name,
                                  std::vector<std::string> names, std::string doc) {
  ParamSpec spec =
      make_spec(std::move(name), ParamType::name_or_path, std::move(default_name), std::move(doc));
  spec.choices = std::move(names);
  return spec;
}

ParamSpec ParamSpec::integers_or_name(std::string name, std::string default_name,
                                      std::vector<std::string> names, std::string doc) {
  ParamSpec spec = make_spec(std::move(name), ParamType::integers_or_name, std::move(default_name),
                             std::move(doc));
  spec.choices = std::move(names);
  return spec;
}

ParamSpec& ParamSpec::range(double lo, double hi) {
  min = lo;
  max = hi;
  return *this;
}

ParamSpec& ParamSpec::range_above(double lo, double hi) {
  range(lo, hi);
  min_excluded = true;
  return *this;
}

ParamSpec& ParamSpec::at_least(double lo) {
  min = lo;
  return *this;
}

ParamSpec& ParamSpec::items(std::size_t lo, std::size_t hi) {
  min_items = lo;
  max_items = hi;
  return *this;
}

ParamSpec& ParamSpec::sweepable() {
  sweep = true;
  return *this;
}

ParamSpec& ParamSpec::swept_by_default(std::vector<Value> values) {
  sweep = true;
  default_value = values.front();
  default_sweep = std::move(values);
  return *this;
}

ParamSpec& ParamSpec::optional() {
  default_value = std::monostate{};
  return *this;
}

ParamSpec& ParamSpec::output_file() {
  output = true;
  return *this;
}

bool ParamSpec::is_list() const {
  return type == ParamType::integer_list || type == ParamType::real_list ||
         type == ParamType::string_list || type == ParamType::real_matrix;
}

std::string ParamSpec::constraint() const {
  std::ostringstream out;
  if (!choices.empty()) out << join_words(choices, " | ");
  if (type == ParamType::integers_or_name) out << " | [integers] | file";
  if (type == ParamType::name_or_path) out << " | file";
  if (min && max) {
    out << (min_excluded ? "(" : "[") << format_bound(*min, type) << ", "
        << format_bound(*max, type) << "]";
  } else if (min) {
    out << ">= " << format_bound(*min, type);
  } else if (max) {
    out << "<= " << format_bound(*max, type);
  }
  if (is_list() && (min_items > 1 || max_items != std::numeric_limits<std::size_t>::max())) {
    if (out.tellp() > 0) out << ", ";
    if (min_items == max_items) {
      out << min_items << " items";
    } else if (max_items == std::numeric_limits<std::size_t>::max()) {
      out << "at least " << min_items << " items";
    } else {
      out << min_items << " to " << max_items << " items";
    }
  }
  return out.str();
}

std::string ParamSpec::expectation() const {
  std::string what = describe_type(type);
  if (type == ParamType::integers_or_name || type == ParamType::name_or_path) {
    what = "one of: " + join_words(choices, ", ") + ", " + what;
  } else if (!choices.empty()) {
    what = (type == ParamType::string_list ? "one or more of: " : "one of: ") +
           join_words(choices, ", ");
  } else if (min && max) {
    what += std::string(" in ") + (min_excluded ? "(" : "[") + format_bound(*min, type) + ", " +
            format_bound(*max, type) + "]";
  } else if (min) {
    what += " >= " + format_bound(*min, type);
  } else if (max) {
    what += " <= " + format_bound(*max, type);
  }
  if (is_list() && min_items == max_items) {
    what += ", " + std::to_string(min_items) + " items";
  } else if (is_list() && min_items > 1) {
    what += ", at least " + std::to_string(min_items) + " items";
  }
  if (sweep) what += " (or a list of them, to sweep)";
  return what;
}

}  // namespace kmini
