#include "core/text.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace kmini {

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

std::string format_significant(double value, int digits) {
  if (!std::isfinite(value)) return format_number(value);
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
  std::string text = buffer;
  // %g switches to exponents early ("3e+03" for 2987 at 1 digit); keep plain integers plain.
  if (text.find('e') != std::string::npos && std::fabs(value) >= 1.0 && std::fabs(value) < 1.0e15) {
    std::snprintf(buffer, sizeof(buffer), "%.0f", value);
    text = buffer;
  }
  return text;
}

std::string format_bytes(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (std::fabs(bytes) >= 1024.0 && unit < 5) {
    bytes /= 1024.0;
    ++unit;
  }
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return buffer;
}

std::string join_words(const std::vector<std::string>& words, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += separator;
    out += words[i];
  }
  return out;
}

namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

}  // namespace

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

bool parse_finite_number(const std::string& word, double& value) {
  // strtod also reads hexadecimal (0x10 was taken as 16 Angstrom), inf and nan.
  if (word.find_first_not_of("0123456789+-.eE") != std::string::npos) return false;
  const char* begin = word.c_str();
  char* end = nullptr;
  errno = 0;
  value = std::strtod(begin, &end);
  // ERANGE on underflow too (1e-320): the value is what it rounds to, not "not a number".
  return end != begin && *end == '\0' && std::isfinite(value) &&
         (errno == 0 || (errno == ERANGE && std::fabs(value) < 1.0));
}

std::vector<std::string> split_words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  std::string word;
  while (in >> word)
    words.push_back(word);
  return words;
}

std::string quoted(const std::string& word) {
  return "'" + word + "'";
}

bool same_ignoring_case(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string report_text_problem(const std::string& text) {
  const auto hex = [](unsigned char byte) {
    static const char digits[] = "0123456789abcdef";
    return std::string("0x") + digits[byte >> 4] + digits[byte & 15];
  };
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char lead = bytes[i];
    const std::string at = " at " + std::to_string(i + 1);
    if (lead < 0x20 || lead == 0x7f) return "control character " + hex(lead) + at;
    if (lead < 0x80) {
      ++i;
      continue;
    }
    // The lead byte's sequence length and the smallest code point it may encode (no overlong
    // forms), then the continuation bytes; no surrogates, nothing past U+10FFFF.
    int length = 0;
    std::uint32_t code = 0, least = 0;
    if ((lead & 0xe0) == 0xc0) {
      length = 2, code = lead & 0x1f, least = 0x80;
    } else if ((lead & 0xf0) == 0xe0) {
      length = 3, code = lead & 0x0f, least = 0x800;
    } else if ((lead & 0xf8) == 0xf0) {
      length = 4, code = lead & 0x07, least = 0x10000;
    } else {
      return "byte " + hex(lead) + at + ", which is not UTF-8";
    }
    if (i + length > n) return "byte " + hex(lead) + at + ", which starts a cut UTF-8 sequence";
    for (int k = 1; k < length; ++k) {
      if ((bytes[i + k] & 0xc0) != 0x80) return "byte " + hex(lead) + at + ", which is not UTF-8";
      code = (code << 6) | (bytes[i + k] & 0x3f);
    }
    if (code < least || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ||
        (code >= 0x80 && code < 0xa0)) {
      return "byte " + hex(lead) + at + ", which encodes no text character";
    }
    i += static_cast<std::size_t>(length);
  }
  return "";
}

}  // namespace kmini
