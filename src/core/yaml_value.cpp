#include "core/yaml_value.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/text.hpp"

namespace kmini {

SourceMark NodeContext::mark_of(const YAML::Node& node) const {
  SourceMark mark{origin};
  if (has_lines && node.Mark().line >= 0) {
    mark.line = node.Mark().line + 1;
    mark.column = node.Mark().column + 1;
  }
  return mark;
}

void NodeContext::fail(const YAML::Node& node, const std::string& message) const {
  throw InputError(mark_of(node).str() + ": " + key_path + ": " + message);
}

std::string describe_node(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "nothing (an empty value)";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Scalar:
      return quoted(node.Scalar());
    case YAML::NodeType::Undefined:
      break;
  }
  return "nothing";
}

namespace {

// Plain scalars may be numbers; quoted ones ("42") and those tagged as strings (!!str 42) are
// strings, as YAML says.
bool is_plain_scalar(const YAML::Node& node) {
  return node.IsScalar() && node.Tag() != "!" && node.Tag() != "tag:yaml.org,2002:str";
}

std::optional<double> parse_real(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (end != begin + text.size() || errno == ERANGE) return std::nullopt;
  return value;
}

// Integers may be written 1000, 0x3e8 or 1e3 (as long as the value is a whole number).
std::optional<std::int64_t> parse_integer(const std::string& text) {
  std::int64_t value = 0;
  const char* begin = text.c_str();
  const char* end = begin + text.size();
  if (!text.empty() && text[0] == '+') ++begin;
  int base = 10;
  if (end - begin > 2 && begin[0] == '0' && (begin[1] == 'x' || begin[1] == 'X')) {
    begin += 2;
    base = 16;
  }
  const auto result = std::from_chars(begin, end, value, base);
  if (result.ec == std::errc() && result.ptr == end) return value;
  if (base == 16) return std::nullopt;
  const auto real = parse_real(text);
  if (real && std::isfinite(*real) && std::trunc(*real) == *real && std::fabs(*real) < 9.0e18) {
    return static_cast<std::int64_t>(*real);
  }
  return std::nullopt;
}

class ScalarParser {
 public:
  ScalarParser(const ParamSpec& spec, const NodeContext& where) : spec_(spec), where_(where) {}

  [[noreturn]] void mismatch(const YAML::Node& node) const {
    where_.fail(node, "expected " + spec_.expectation() + ", found " + describe_node(node) +
                          quoting_hint(node) + double_range_hint(node));
  }

  // 1e-320 or 1e400 reads as a number but not as a double: say which bound it passes, where the
  // message called it not a number at all.
  std::string double_range_hint(const YAML::Node& node) const {
    const bool wants_real = spec_.type == ParamType::real || spec_.type == ParamType::real_list ||
                            spec_.type == ParamType::real_matrix;
    if (!wants_real || !is_plain_scalar(node) || node.Scalar().empty()) return "";
    const char* begin = node.Scalar().c_str();
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(begin, &end);
    if (end != begin + node.Scalar().size() || errno != ERANGE) return "";
    return std::fabs(value) > 1.0
               ? ", too large for a double (at most 1.8e308)"
               : ", too close to zero for a double (the smallest normal magnitude is 2.2e-308; "
                 "write 0 for zero)";
  }

  // A quoted "100" or "true" is a string in YAML, which a number or a yes/no is not; the
  // message says so where the unquoted value would have been read.
  std::string quoting_hint(const YAML::Node& node) const {
    if (!node.IsScalar() || node.Tag() != "!") return "";
    const std::string& text = node.Scalar();
    bool flag = false;
    const bool reads =
        (spec_.type == ParamType::boolean && YAML::convert<bool>::decode(node, flag)) ||
        ((spec_.type == ParamType::integer || spec_.type == ParamType::integer_list ||
          spec_.type == ParamType::integers_or_name) &&
         parse_integer(text)) ||
        ((spec_.type == ParamType::real || spec_.type == ParamType::real_list ||
          spec_.type == ParamType::real_matrix) &&
         parse_real(text));
    return reads ? " (quotes make it a string; write it without them)" : "";
  }

  void check_range(const YAML::Node& node, double value) const {
    const bool below =
        spec_.min && (value < *spec_.min || (spec_.min_excluded && value == *spec_.min));
    if (below || (spec_.max && value > *spec_.max)) mismatch(node);
  }

  bool boolean(const YAML::Node& node) const {
    bool value = false;
    if (!is_plain_scalar(node) || !YAML::convert<bool>::decode(node, value)) mismatch(node);
    return value;
  }

  std::int64_t integer(const YAML::Node& node) const {
    if (!is_plain_scalar(node)) mismatch(node);
    const auto value = parse_integer(node.Scalar());
    if (!value) mismatch(node);
    check_range(node, static_cast<double>(*value));
    return *value;
  }

  double real(const YAML::Node& node) const {
    if (!is_plain_scalar(node)) mismatch(node);
    const auto value = parse_real(node.Scalar());
    if (!value || !std::isfinite(*value)) mismatch(node);
    check_range(node, *value);
    return *value;
  }

  // A string goes into the report as it is: the YAML and JSON readers reject bytes that are not
  // UTF-8 and control characters, so such a string is refused here.
  void check_report_text(const YAML::Node& node) const {
    const std::string problem = report_text_problem(node.Scalar());
    if (!problem.empty()) {
      where_.fail(node, "expected text, found " + problem +
                            " (a report holds UTF-8 text without control characters)");
    }
  }

  std::string word(const YAML::Node& node) const {
    if (!node.IsScalar()) mismatch(node);
    check_report_text(node);
    const std::string& text = node.Scalar();
    // A file a run writes (a bridge dump) needs a name: '' reached the output-path checks,
    // whose std::filesystem::absolute throws, and `kmini check` exited 4.
    if (spec_.output && text.empty()) where_.fail(node, "expected a file name, found ''");
    if (spec_.choices.empty()) return text;
    for (const auto& choice : spec_.choices) {
      if (choice == text) return text;
    }
    std::string message = "expected " + spec_.expectation() + ", found " + quoted(text);
    const std::string guess = closest_match(text, spec_.choices);
    if (!guess.empty()) message += " (did you mean " + quoted(guess) + "?)";
    where_.fail(node, message);
  }

  std::string path(const YAML::Node& node) const {
    if (!node.IsScalar() || node.Scalar().empty()) mismatch(node);
    check_report_text(node);
    namespace fs = std::filesystem;
    fs::path file(node.Scalar());
    if (file.is_relative() && !where_.base_dir.empty()) file = fs::path(where_.base_dir) / file;
    std::error_code ec;
    const std::string problem = input_file_problem(file.string());
    if (problem == "no such file") {
      std::string message =
          "file " + quoted(node.Scalar()) + " does not exist (looked for " + file.string() + ")";
      if (spec_.type == ParamType::integers_or_name || spec_.type == ParamType::name_or_path) {
        message = "expected " + spec_.expectation() + ", found " + quoted(node.Scalar()) +
                  ", which is no name and no file (looked for " + file.string() + ")";
      }
      where_.fail(node, message);
    }
    if (!problem.empty()) {
      where_.fail(node, "file " + quoted(file.string()) + " cannot be read: " + problem);
    }
    if (!std::ifstream(file).good()) {
      where_.fail(node, "file " + quoted(file.string()) + " cannot be read");
    }
    return fs::absolute(file, ec).lexically_normal().string();
  }

  // A list, or one scalar standing for a list of one.
  template <class Item, class ParseItem>
  std::vector<Item> list(const YAML::Node& node, ParseItem parse_item) const {
    std::vector<Item> items;
    if (node.IsSequence()) {
      for (const auto& item : node)
        items.push_back(parse_item(item));
    } else if (node.IsScalar()) {
      items.push_back(parse_item(node));
    } else {
      mismatch(node);
    }
    if (items.size() < spec_.min_items || items.size() > spec_.max_items) {
      where_.fail(node, "expected " + spec_.expectation() + ", found " +
                            std::to_string(items.size()) + " items");
    }
    return items;
  }

  RealMatrix matrix(const YAML::Node& node) const {
    if (!node.IsSequence()) mismatch(node);
    RealMatrix rows;
    for (const auto& row : node) {
      if (!row.IsSequence()) mismatch(row);
      std::vector<double> values;
      for (const auto& item : row)
        values.push_back(real(item));
      if (!rows.empty() && values.size() != rows.front().size()) {
        where_.fail(row, "expected every row to have " + std::to_string(rows.front().size()) +
                             " numbers, found " + std::to_string(values.size()));
      }
      rows.push_back(std::move(values));
    }
    if (rows.size() < spec_.min_items || rows.size() > spec_.max_items) {
      where_.fail(node, "expected " + spec_.expectation() + ", found " +
                            std::to_string(rows.size()) + " rows");
    }
    return rows;
  }

  // An inline list (or one integer), a name from the choices, else a file that must exist.
  Value integers_or_name(const YAML::Node& node) const {
    if (node.IsSequence() || (is_plain_scalar(node) && parse_integer(node.Scalar()))) {
      return list<std::int64_t>(node, [this](const YAML::Node& n) { return integer(n); });
    }
    if (!node.IsScalar() || node.Scalar().empty()) mismatch(node);
    for (const auto& choice : spec_.choices) {
      if (choice == node.Scalar()) return choice;
    }
    return path(node);
  }

  // A name from the choices, in any letter case, else a file that must exist.
  Value name_or_path(const YAML::Node& node) const {
    if (!node.IsScalar() || node.Scalar().empty()) mismatch(node);
    for (const auto& choice : spec_.choices) {
      if (same_ignoring_case(choice, node.Scalar())) return choice;
    }
    return path(node);
  }

  Value scalar(const YAML::Node& node) const {
    switch (spec_.type) {
      case ParamType::boolean:
        return boolean(node);
      case ParamType::integer:
        return integer(node);
      case ParamType::real:
        return real(node);
      case ParamType::string:
      case ParamType::choice:
        return word(node);
      case ParamType::path:
        return path(node);
      case ParamType::integer_list:
        return list<std::int64_t>(node, [this](const YAML::Node& n) { return integer(n); });
      case ParamType::real_list:
        return list<double>(node, [this](const YAML::Node& n) { return real(n); });
      case ParamType::string_list:
        return list<std::string>(node, [this](const YAML::Node& n) { return word(n); });
      case ParamType::real_matrix:
        return matrix(node);
      case ParamType::integers_or_name:
        return integers_or_name(node);
      case ParamType::name_or_path:
        return name_or_path(node);
    }
    mismatch(node);
  }

 private:
  const ParamSpec& spec_;
  const NodeContext& where_;
};

// For integers_or_name, a list of integers is one value; any other list is a sweep over its items.
bool is_integer_list(const YAML::Node& node, const ParamSpec& spec) {
  if (spec.type != ParamType::integers_or_name) return false;
  for (const auto& item : node) {
    if (!is_plain_scalar(item) || !parse_integer(item.Scalar())) return false;
  }
  return true;
}

}  // namespace

std::vector<Value> parse_setting(const YAML::Node& node, const ParamSpec& spec,
                                 const NodeContext& where) {
  const ScalarParser parser(spec, where);
  if (node.IsNull()) parser.mismatch(node);
  if (spec.sweep && node.IsSequence() && !is_integer_list(node, spec)) {
    if (node.size() == 0) {
      where.fail(node, "expected " + spec.expectation() + ", found an empty list");
    }
    std::vector<Value> values;
    for (const auto& item : node)
      values.push_back(parser.scalar(item));
    return values;
  }
  return {parser.scalar(node)};
}

}  // namespace kmini
