#include "bridge/sobol.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/text.hpp"

namespace kmini::bridge {
namespace {

namespace fs = std::filesystem;

// Joe and Kuo's table stops at degree 18. The limit keeps every m_i (below 2^i) and every shift
// of the recurrence within the 32-bit direction numbers; a larger degree is a corrupt line.
constexpr int kMaxDegree = kSobolBits - 1;

std::ifstream open_table(const std::string& path) {
  return open_input_file(path, "the Sobol direction numbers");
}

// One line of the table, split into whitespace-separated words, read as unsigned integers with
// messages that point at the file and line.
class TableLine {
 public:
  TableLine(const std::string& path, int number, const std::string& text)
      : where_(path + ":" + std::to_string(number) + ": "), text_(text) {}

  [[noreturn]] void fail(const std::string& message) const { throw InputError(where_ + message); }

  // The next word as an integer, or a failure saying that `expected` was not there.
  std::uint64_t next(const std::string& expected) {
    const std::string word = next_word();
    if (word.empty()) fail("expected " + expected + ", found the end of the line");
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (error != std::errc() || end != word.data() + word.size()) {
      fail("expected " + expected + " as a non-negative integer, found " + quoted(word));
    }
    return value;
  }

  // The next word, empty at the end of the line.
  std::string next_word() {
    skip_space();
    const std::size_t start = position_;
    while (position_ < text_.size() && !is_space(text_[position_]))
      ++position_;
    return text_.substr(start, position_ - start);
  }

  // What is left after the last word read, without surrounding spaces.
  std::string rest() {
    skip_space();
    std::string rest = text_.substr(position_);
    while (!rest.empty() && is_space(rest.back()))
      rest.pop_back();
    return rest;
  }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

  void skip_space() {
    while (position_ < text_.size() && is_space(text_[position_]))
      ++position_;
  }

  std::string where_;
  std::string text_;
  std::size_t position_ = 0;
};

bool is_blank(const std::string& line) {
  return line.find_first_not_of(" \t\r") == std::string::npos;
}

std::string trimmed(const std::string& line) {
  const std::size_t first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

// The table ends (at the end of the file or at a blank line) before the dimension needed.
std::string too_few_dimensions(const std::string& path, int dimensions, int last_line, int needed) {
  const std::string where = last_line == 1 ? "van der Corput's; no line follows the header"
                                           : "its last line, " + std::to_string(last_line) +
                                                 ", has d = " + std::to_string(dimensions);
  return "the table " + path + " has " + std::to_string(dimensions) +
         (dimensions == 1 ? " dimension (" : " dimensions (") + where + "); " +
         std::to_string(needed) + " are needed";
}

// Joe and Kuo's header names the four columns; a file without it is some other table.
void check_header(const std::string& path, std::istream& in) {
  std::string text;
  const bool empty_file = !std::getline(in, text);
  TableLine header(path, 1, text);
  const std::string found = empty_file       ? "an empty file"
                            : is_blank(text) ? "an empty line"
                                             : quoted(trimmed(text));
  for (const char* column : {"d", "s", "a", "m_i"}) {
    if (header.next_word() != column) {
      header.fail("expected the header \"d s a m_i\" of Joe and Kuo's table, found " + found);
    }
  }
  if (!header.rest().empty()) {
    header.fail("expected the header \"d s a m_i\" of Joe and Kuo's table, found " + found);
  }
}

// The 32 direction numbers of one dimension from its primitive polynomial (degree `degree`,
// inner coefficients `coefficients`, a_1 the most significant bit) and initial numbers m_1..m_s.
void fill_directions(int degree, std::uint64_t coefficients,
                     const std::vector<std::uint64_t>& initial, std::uint32_t* directions) {
  // m[k - 1] holds m_k; every m_k stays below 2^k, so 64 bits never overflow for k <= 32.
  std::uint64_t m[kSobolBits];
  for (int k = 1; k <= kSobolBits; ++k) {
    if (k <= degree) {
      m[k - 1] = initial[k - 1];
      continue;
    }
    // m_k = 2 a_1 m_(k-1) ^ 4 a_2 m_(k-2) ^ ... ^ 2^(s-1) a_(s-1) m_(k-s+1) ^ 2^s m_(k-s) ^ m_(k-s)
    std::uint64_t value = (m[k - degree - 1] << degree) ^ m[k - degree - 1];
    for (int j = 1; j < degree; ++j) {
      if ((coefficients >> (degree - 1 - j)) & 1u) value ^= m[k - j - 1] << j;
    }
    m[k - 1] = value;
  }
  for (int k = 1; k <= kSobolBits; ++k) {
    directions[k - 1] = static_cast<std::uint32_t>(m[k - 1] << (kSobolBits - k));
  }
}

}  // namespace

SobolDirections read_sobol_directions(const std::string& path, int dimensions) {
  std::ifstream in = open_table(path);
  check_header(path, in);

  SobolDirections table;
  // Van der Corput's dimension: every m_k is 1.
  for (int k = 1; k <= kSobolBits; ++k) {
    table.directions.push_back(std::uint32_t{1} << (kSobolBits - k));
  }
  table.dimensions = 1;

  int line_number = 1;
  std::string text;
  std::vector<std::uint64_t> initial;
  // The storage grows with what the file holds, so that asking for more dimensions than any
  // table has fails on the table, not on allocating room for them.
  while (table.dimensions < dimensions) {
    if (!std::getline(in, text) || is_blank(text)) {
      if (in.bad())
        throw InputError(path + ": read error after line " + std::to_string(line_number));
      throw InputError(too_few_dimensions(path, table.dimensions, line_number, dimensions));
    }
    ++line_number;
    TableLine line(path, line_number, text);

    const std::uint64_t expected_d = static_cast<std::uint64_t>(table.dimensions) + 1;
    const std::uint64_t d = line.next("d");
    if (d != expected_d) {
      line.fail("expected d = " + std::to_string(expected_d) + ", found " + std::to_string(d));
    }
    const std::uint64_t degree = line.next("the degree s");
    if (degree < 1 || degree > static_cast<std::uint64_t>(kMaxDegree)) {
      line.fail("expected a degree s from 1 to " + std::to_string(kMaxDegree) + ", found " +
                std::to_string(degree));
    }
    const int s = static_cast<int>(degree);
    const std::uint64_t coefficients = line.next("the coefficients a");
    if (coefficients >> (s - 1) != 0) {
      line.fail("expected coefficients a below 2^(s-1) = " + std::to_string(1ull << (s - 1)) +
                ", found " + std::to_string(coefficients));
    }
    initial.assign(s, 0);
    for (int i = 1; i <= s; ++i) {
      const std::string m_i = "m_" + std::to_string(i);
      const std::uint64_t m = line.next(m_i + " of s = " + std::to_string(s));
      if (m % 2 == 0 || m >> i != 0) {
        line.fail("expected " + m_i + " odd and below 2^" + std::to_string(i) + " = " +
                  std::to_string(1ull << i) + ", found " + std::to_string(m));
      }
      initial[i - 1] = m;
    }
    const std::string extra = line.rest();
    if (!extra.empty()) {
      line.fail("expected s = " + std::to_string(s) + " numbers m_i, found more: " + quoted(extra));
    }

    table.directions.resize(table.directions.size() + kSobolBits);
    fill_directions(s, coefficients, initial,
                    table.directions.data() + table.directions.size() - kSobolBits);
    ++table.dimensions;
  }
  if (dimensions < 1) table = SobolDirections{};
  return table;
}

int sobol_table_dimensions(const std::string& path) {
  std::ifstream in = open_table(path);
  check_header(path, in);
  int dimensions = 1;  // van der Corput's, which the file leaves implicit
  std::string text;
  while (std::getline(in, text) && !is_blank(text))
    ++dimensions;
  if (in.bad()) throw InputError(path + ": read error");
  return dimensions;
}

}  // namespace kmini::bridge
