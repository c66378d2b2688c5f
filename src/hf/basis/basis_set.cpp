#include "hf/basis/basis_set.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <utility>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/text.hpp"
#include "hf/basis/elements.hpp"

namespace kmini::hf {
namespace {

const char* const kShellLetters = "spdfghi";

std::string shell_letter(int l) {
  if (l >= 0 && l < 7) return std::string(1, kShellLetters[l]);
  return "l=" + std::to_string(l);
}

std::string upper(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// A finite number, also in Fortran's "0.15D+00" form, which the Basis Set Exchange writes.
bool parse_number(const std::string& word, double& value) {
  std::string text = word;
  for (char& c : text) {
    if (c == 'D' || c == 'd') c = 'E';
  }
  return parse_finite_number(text, value);
}

// A count past int's range is taken as the largest int, so that the limit's message names it.
bool parse_count(const std::string& word, int& value) {
  if (word.empty()) return false;
  if (!std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  const auto digits = word.size() - std::min(word.find_first_not_of('0'), word.size());
  value = digits > 9 ? std::numeric_limits<int>::max() : std::stoi(word);
  return true;
}

// Reads the file line by line, skipping comments and blank lines, and remembers line numbers
// for messages.
class LineReader {
 public:
  LineReader(std::istream& in, std::string path) : in_(in), path_(std::move(path)) {}

  // The next line with content, split into words; false at the end of the file.
  bool next(std::vector<std::string>& words, std::string& text) {
    std::string line;
    while (std::getline(in_, line)) {
      ++line_number_;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      const auto first = line.find_first_not_of(" \t");
      if (first == std::string::npos || line[first] == '!') continue;
      text = line.substr(first);
      const auto last = text.find_last_not_of(" \t");
      text.erase(last + 1);
      words = split_words(text);
      return true;
    }
    return false;
  }

  int line_number() const { return line_number_; }

  [[noreturn]] void fail(const std::string& message) const { fail_at(line_number_, message); }

  [[noreturn]] void fail_at(int line, const std::string& message) const {
    throw InputError(path_ + ":" + std::to_string(std::max(line, 1)) + ": " + message);
  }

 private:
  std::istream& in_;
  std::string path_;
  int line_number_ = 0;
};

// What a shell may hold. The shipped sets have at most 12 primitives a shell, exponents from
// 0.02 to 1.5e5 and coefficients under 1.3: the limits leave room for any published set, and
// keep every integral finite (an exponent of 1e300 or a coefficient of 1e300 made the
// normalisation or the eigensolver fail with no file or line named).
constexpr int kMostPrimitives = 30;
constexpr double kLeastExponent = 1e-5, kMostExponent = 1e9, kMostCoefficient = 1e6;

// l of a shell type, or -2 for SP (and its other name, L); -1 when unknown.
constexpr int kSp = -2;
int shell_type(const std::string& word) {
  const std::string type = upper(word);
  if (type == "SP" || type == "L") return kSp;
  if (type.size() == 1) {
    const auto at = std::string("SPDFGHI").find(type[0]);
    if (at != std::string::npos) return static_cast<int>(at);
  }
  return -1;
}

std::string stem_of(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  const auto dot = name.find_last_of('.');
  if (dot != std::string::npos && dot > 0) name.erase(dot);
  return name;
}

// Reads the shells of one element up to its "****"; the element line has been read.
std::vector<Shell> read_element_shells(LineReader& reader, const std::string& symbol,
                                       int element_line) {
  std::vector<Shell> shells;
  std::vector<std::string> words;
  std::string text;
  while (true) {
    if (!reader.next(words, text)) {
      reader.fail("expected '****' to end element " + symbol + " (begun on line " +
                  std::to_string(element_line) + "), found the end of the file");
    }
    if (words[0] == "****") break;
    // No shell has 0 primitives, so "S 0" or "P 0" is sulfur's or phosphorus' block after a
    // "****" that was left out.
    if (words.size() == 2 && words[1] == "0" && atomic_number(words[0]) != 0) {
      reader.fail("expected a shell or '****' to end element " + symbol + ", found " +
                  quoted(text) + " (a missing '****'?)");
    }
    const int type = shell_type(words[0]);
    const std::string type_name = upper(words[0]);
    if (type == -1) {
      reader.fail("expected a shell type (S, P, D, F, SP or L) or '****', found " + quoted(text));
    }
    if (words.size() < 2 || words.size() > 3) {
      reader.fail("expected 'TYPE NPRIM SCALE', found " + quoted(text));
    }
    int primitives = 0;
    if (!parse_count(words[1], primitives) || primitives < 1) {
      reader.fail("expected a positive number of primitives, found " + quoted(words[1]));
    }
    if (primitives > kMostPrimitives) {
      reader.fail("expected at most " + std::to_string(kMostPrimitives) +
                  " primitives a shell, found " + quoted(words[1]));
    }
    const int shell_line = reader.line_number();
    double scale = 1.0;
    if (words.size() == 3 && (!parse_number(words[2], scale) || scale <= 0.0)) {
      reader.fail("expected a positive scale factor, found " + quoted(words[2]));
    }
    const bool sp = type == kSp;
    const std::size_t columns = sp ? 3 : 2;
    Shell first{sp ? 0 : type, {}, {}, shell_line};
    Shell second{1, {}, {}, shell_line};
    for (int p = 0; p < primitives; ++p) {
      if (!reader.next(words, text)) {
        reader.fail("expected " + std::to_string(primitives) + " primitives of the " + type_name +
                    " shell, found the end of the file");
      }
      if (words.size() != columns) {
        reader.fail("expected " + std::to_string(columns) + " numbers (exponent, " +
                    (sp ? "s and p coefficients" : "coefficient") + "), found " +
                    std::to_string(words.size()) + ": " + quoted(text));
      }
      double values[3] = {0.0, 0.0, 0.0};
      for (std::size_t c = 0; c < columns; ++c) {
        if (!parse_number(words[c], values[c])) {
          reader.fail("expected a number, found " + quoted(words[c]));
        }
      }
      if (values[0] <= 0.0) {
        reader.fail("expected a positive exponent, found " + quoted(words[0]));
      }
      // Gaussian's SCALE scales the function's width, so exponents go with its square.
      const double exponent = values[0] * scale * scale;
      if (!(exponent >= kLeastExponent && exponent <= kMostExponent)) {
        reader.fail("expected an exponent in [" + format_significant(kLeastExponent, 3) + ", " +
                    format_significant(kMostExponent, 3) + "] (after the scale factor), found " +
                    quoted(words[0]));
      }
      for (std::size_t c = 1; c < columns; ++c) {
        if (std::fabs(values[c]) > kMostCoefficient) {
          reader.fail("expected a coefficient within +-" + format_significant(kMostCoefficient, 3) +
                      ", found " + quoted(words[c]));
        }
      }
      first.exponents.push_back(exponent);
      first.coefficients.push_back(values[1]);
      if (sp) {
        second.exponents.push_back(exponent);
        second.coefficients.push_back(values[2]);
      }
    }
    for (const Shell* shell : {&first, &second}) {
      if (shell == &second && !sp) break;
      if (std::any_of(shell->coefficients.begin(), shell->coefficients.end(),
                      [](double c) { return c != 0.0; }))
        continue;
      const std::string part = !sp ? "" : shell == &first ? " (its s part)" : " (its p part)";
      reader.fail_at(shell_line, "the " + type_name + " shell of element " + symbol + part +
                                     " has only zero coefficients: it has no norm");
    }
    shells.push_back(std::move(first));
    if (sp) shells.push_back(std::move(second));
  }
  if (shells.empty()) {
    reader.fail("expected at least one shell for element " + symbol + ", found '****'");
  }
  return shells;
}

}  // namespace

int BasisSet::max_l() const {
  int result = -1;
  for (const auto& [z, shells] : shells_of_element) {
    for (const Shell& shell : shells)
      result = std::max(result, shell.l);
  }
  return result;
}

int cartesian_functions(int l) {
  return (l + 1) * (l + 2) / 2;
}

BasisSet read_gaussian94(const std::string& path) {
  std::ifstream in = open_input_file(path, "the basis set file");
  BasisSet basis;
  basis.name = stem_of(path);
  basis.path = path;
  std::map<int, int> line_of_element;

  LineReader reader(in, path);
  std::vector<std::string> words;
  std::string text;
  while (reader.next(words, text)) {
    // Some writers put a "****" before the first block.
    if (words[0] == "****" && words.size() == 1) continue;
    const int z = atomic_number(words[0]);
    if (z == 0) {
      reader.fail("expected an element line 'Symbol 0' with a symbol H..Kr, found " + quoted(text));
    }
    if (words.size() != 2 || words[1] != "0") {
      reader.fail("expected an element line 'Symbol 0', found " + quoted(text));
    }
    const std::string symbol = element_symbol(z);
    const int element_line = reader.line_number();
    const auto earlier = line_of_element.find(z);
    if (earlier != line_of_element.end()) {
      reader.fail("expected each element once, found " + symbol + " again (first on line " +
                  std::to_string(earlier->second) + ")");
    }
    line_of_element[z] = element_line;
    basis.shells_of_element[z] = read_element_shells(reader, symbol, element_line);
  }
  if (basis.shells_of_element.empty()) {
    reader.fail("expected at least one element block, found none");
  }
  return basis;
}

std::string shell_name(const BasisSet& basis, int z, const Shell& shell) {
  return basis.path + ":" + std::to_string(shell.line) + ": the " + upper(shell_letter(shell.l)) +
         " shell of element " + element_symbol(z);
}

std::string missing_element_problem(const BasisSet& basis, const std::vector<int>& atomic_numbers) {
  for (const int z : atomic_numbers) {
    if (basis.shells_of_element.count(z) == 0) {
      return "the basis set " + basis.name + " (" + basis.path + ") has no functions for " +
             element_symbol(z) + " (Z = " + std::to_string(z) + ")";
    }
  }
  return "";
}

std::string unsupported_shell_problem(const BasisSet& basis, const std::vector<int>& atomic_numbers,
                                      int max_l) {
  std::vector<int> elements = atomic_numbers;
  std::sort(elements.begin(), elements.end());
  for (const int z : elements) {
    const auto found = basis.shells_of_element.find(z);
    if (found == basis.shells_of_element.end()) continue;
    for (const Shell& shell : found->second) {
      if (shell.l > max_l) {
        return shell_name(basis, z, shell) + ": " + shell_letter(shell.l) +
               " functions are not supported (at most " + shell_letter(max_l) + ")";
      }
    }
  }
  return "";
}

}  // namespace kmini::hf
