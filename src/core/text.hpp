// Small text helpers shared by config errors, tables and reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kmini {

// Shortest text that reads back as the same double ("0.1", "3", "1e+20"); "nan"/"inf" as such.
std::string format_number(double value);

// A number with `digits` significant digits for tables ("2987", "3.14", "0.000123").
std::string format_significant(double value, int digits);

// 1536 -> "1.5 KiB".
std::string format_bytes(double bytes);

std::string join_words(const std::vector<std::string>& words, const char* separator);

// The candidate closest to `word` by edit distance, if close enough to be a likely typo;
// empty otherwise. Drives the "did you mean" of config errors.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// The whole of `word` as a finite number in decimal notation (digits, a point, an exponent; no
// hexadecimal, inf or nan), or false. A value too small for a double is taken as it rounds.
bool parse_finite_number(const std::string& word, double& value);

// The words of `line`, split at white space.
std::vector<std::string> split_words(const std::string& line);

// Quotes a user-supplied word for messages: 'word'.
std::string quoted(const std::string& word);

// Whether a and b are the same letters, upper and lower case alike (ASCII).
bool same_ignoring_case(const std::string& a, const std::string& b);

// Why `text` cannot go into a report (the YAML and JSON readers reject it): "byte 0xff at 4,
// which is not UTF-8" or "control character 0x07 at 2"; "" when it is valid UTF-8 without
// control characters (positions count bytes from 1).
std::string report_text_problem(const std::string& text);

}  // namespace kmini
