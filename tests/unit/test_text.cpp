// Helpers behind messages and tables.
#include <gtest/gtest.h>

#include "core/param.hpp"
#include "core/text.hpp"
#include "core/timing.hpp"

namespace kmini {
namespace {

TEST(Text, ShortestRoundTripNumbers) {
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(3.0), "3");
  EXPECT_EQ(format_number(1.0e20), "1e+20");
  EXPECT_EQ(std::stod(format_number(2.0 / 3.0)), 2.0 / 3.0);
}

TEST(Text, SignificantDigits) {
  EXPECT_EQ(format_significant(2987.4, 4), "2987");
  EXPECT_EQ(format_significant(2987.4, 2), "2987");  // whole numbers stay whole
  EXPECT_EQ(format_significant(3.14159, 3), "3.14");
  EXPECT_EQ(format_significant(0.000123456, 3), "0.000123");
}

TEST(Text, Bytes) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(3.0 * 1024 * 1024 * 1024), "3.0 GiB");
}

TEST(Text, ClosestMatchOnlyForLikelyTypos) {
  const std::vector<std::string> words{"elements", "precision", "variant"};
  EXPECT_EQ(closest_match("elemnts", words), "elements");
  EXPECT_EQ(closest_match("varient", words), "variant");
  EXPECT_EQ(closest_match("zzz", words), "");
}

// Molecule and basis numbers: decimal only (strtod took 0x10 for 16 Angstrom), nothing
// infinite, and an underflowing value as it rounds (1e-320 was called "not a number").
TEST(Text, FiniteNumbersInDecimalNotation) {
  double value = -1.0;
  EXPECT_TRUE(parse_finite_number("-1.5e-3", value));
  EXPECT_EQ(value, -1.5e-3);
  EXPECT_TRUE(parse_finite_number("+.5", value));
  EXPECT_EQ(value, 0.5);
  EXPECT_TRUE(parse_finite_number("1e-400", value));
  EXPECT_EQ(value, 0.0);
  EXPECT_TRUE(parse_finite_number("1e-320", value));
  EXPECT_GT(value, 0.0);
  for (const char* word : {"0x10", "0X1p3", "inf", "-infinity", "nan", "1e400", "-1e309", "1,5", "",
                           "1e", "e5", "1.2.3"}) {
    EXPECT_FALSE(parse_finite_number(word, value)) << word;
  }
}

TEST(Params, Formatting) {
  EXPECT_EQ(format_value(Value{std::vector<std::int64_t>{1, 10}}), "[1, 10]");
  EXPECT_EQ(format_value(Value{true}), "true");
  EXPECT_EQ(ParamSpec::integer("n", 1, "").range(1, 8).expectation(), "an integer in [1, 8]");
  EXPECT_EQ(ParamSpec::choice("p", "a", {"a", "b"}, "").constraint(), "a | b");
  EXPECT_EQ(ParamSpec::integer_list("g", {1, 2, 3}, "").items(3, 3).constraint(), "3 items");
}

TEST(Timing, Statistics) {
  const TimingStats s = summarize({4.0, 1.0, 3.0, 2.0});
  EXPECT_EQ(s.count, 4u);
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 4.0);
  EXPECT_EQ(s.median, 2.5);
  EXPECT_EQ(s.mean, 2.5);
  EXPECT_EQ(summarize({5.0, 1.0, 3.0}).median, 3.0);
}

// What a report may hold: the YAML and JSON readers reject what this refuses.
TEST(Text, ReportTextIsUtf8WithoutControlCharacters) {
  EXPECT_EQ(report_text_problem(""), "");
  EXPECT_EQ(report_text_problem("plain ascii, with spaces"), "");
  EXPECT_EQ(report_text_problem("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "");  // e-acute, euro, emoji
  EXPECT_EQ(report_text_problem("a\x07"), "control character 0x07 at 2");
  EXPECT_EQ(report_text_problem("tab\there"), "control character 0x09 at 4");
  EXPECT_EQ(report_text_problem("del\x7f"), "control character 0x7f at 4");
  EXPECT_EQ(report_text_problem("a\xff"), "byte 0xff at 2, which is not UTF-8");
  EXPECT_EQ(report_text_problem("\x80"), "byte 0x80 at 1, which is not UTF-8");
  EXPECT_EQ(report_text_problem("x\xe2\x82"), "byte 0xe2 at 2, which starts a cut UTF-8 sequence");
  EXPECT_EQ(report_text_problem("\xc3("), "byte 0xc3 at 1, which is not UTF-8");
  // An overlong '/', a surrogate, past U+10FFFF, and a C1 control (U+0085).
  for (const char* bad : {"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc2\x85"})
    EXPECT_EQ(report_text_problem(bad), std::string("byte ") +
                                            (bad[0] == '\xc0'   ? "0xc0"
                                             : bad[0] == '\xed' ? "0xed"
                                             : bad[0] == '\xf4' ? "0xf4"
                                                                : "0xc2") +
                                            " at 1, which encodes no text character");
}

}  // namespace
}  // namespace kmini
