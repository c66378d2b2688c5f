// Sobol direction numbers read from Joe and Kuo's table, and the points they generate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bridge/sobol.hpp"
#include "core/error.hpp"
#include "support/process.hpp"
#include "support/test_paths.hpp"

namespace kmini::bridge {
namespace {

const std::string kShippedTable =
    kmini::testing::source_dir() + "/inputs/sobol/new-joe-kuo-6.21201";

// The first 1000 dimensions of the shipped table, read once; `dimensions` is how many a test uses.
const SobolDirections& shipped(int dimensions) {
  static const SobolDirections table = read_sobol_directions(kShippedTable, 1000);
  EXPECT_LE(dimensions, table.dimensions);
  return table;
}

const std::uint32_t* directions_of(const SobolDirections& table, int dimension) {
  return table.directions.data() + static_cast<std::size_t>(dimension) * kSobolBits;
}

// m_k recovered from v_k = m_k * 2^(32-k).
std::uint64_t initial_number(const std::uint32_t* directions, int k) {
  return directions[k - 1] >> (kSobolBits - k);
}

double unit(std::uint32_t coordinate) {
  return std::ldexp(static_cast<double>(coordinate), -32);
}

TEST(Sobol, VanDerCorputDirectionsAreHalves) {
  const std::uint32_t* v = directions_of(shipped(1), 0);
  for (int k = 1; k <= kSobolBits; ++k) {
    EXPECT_EQ(v[k - 1], std::uint32_t{1} << (kSobolBits - k)) << "k = " << k;
  }
}

TEST(Sobol, InitialNumbersAreTheTablesForTheFirstDimensions) {
  // Joe and Kuo's new-joe-kuo-6.21201, lines d = 2 to 8: d s a m_1 ... m_s.
  const std::vector<std::vector<std::uint64_t>> published{
      {2, 1, 0, 1},          {3, 2, 1, 1, 3},        {4, 3, 1, 1, 3, 1},        {5, 3, 2, 1, 1, 1},
      {6, 4, 1, 1, 1, 3, 3}, {7, 4, 4, 1, 3, 5, 13}, {8, 5, 2, 1, 1, 5, 5, 17},
  };
  const SobolDirections& table = shipped(8);
  for (const auto& row : published) {
    const int d = static_cast<int>(row[0]);
    const int s = static_cast<int>(row[1]);
    const std::uint32_t* v = directions_of(table, d - 1);
    for (int k = 1; k <= s; ++k) {
      EXPECT_EQ(initial_number(v, k), row[2 + k]) << "d = " << d << ", m_" << k;
      EXPECT_EQ(v[k - 1] & ((std::uint32_t{1} << (kSobolBits - k)) - 1), 0u)
          << "d = " << d << ": v_" << k << " has bits below 2^-" << k;
    }
  }
}

TEST(Sobol, RecurrenceExtendsTheInitialNumbers) {
  // d = 3: s = 2, a = 1 (x^2 + x + 1), so m_k = 2 m_(k-1) ^ 4 m_(k-2) ^ m_(k-2); from m_1 = 1,
  // m_2 = 3: m_3 = 6 ^ 4 ^ 1 = 3, m_4 = 6 ^ 12 ^ 3 = 9, m_5 = 18 ^ 12 ^ 3 = 29, then 23, 71, 197
  // (scipy's direction numbers for this dimension agree).
  const std::uint32_t* v = directions_of(shipped(3), 2);
  const std::uint64_t expected[] = {1, 3, 3, 9, 29, 23, 71, 197};
  for (int k = 1; k <= 8; ++k) {
    EXPECT_EQ(initial_number(v, k), expected[k - 1]) << "m_" << k;
  }
}

TEST(Sobol, FirstPointsMatchScipy) {
  // scipy 1.10.1: qmc.Sobol(d=5, scramble=False).random(16), which uses the same table.
  const double reference[16][5] = {
      {0.0, 0.0, 0.0, 0.0, 0.0},
      {0.5, 0.5, 0.5, 0.5, 0.5},
      {0.75, 0.25, 0.25, 0.25, 0.75},
      {0.25, 0.75, 0.75, 0.75, 0.25},
      {0.375, 0.375, 0.625, 0.875, 0.375},
      {0.875, 0.875, 0.125, 0.375, 0.875},
      {0.625, 0.125, 0.875, 0.625, 0.625},
      {0.125, 0.625, 0.375, 0.125, 0.125},
      {0.1875, 0.3125, 0.9375, 0.4375, 0.5625},
      {0.6875, 0.8125, 0.4375, 0.9375, 0.0625},
      {0.9375, 0.0625, 0.6875, 0.1875, 0.3125},
      {0.4375, 0.5625, 0.1875, 0.6875, 0.8125},
      {0.3125, 0.1875, 0.3125, 0.5625, 0.9375},
      {0.8125, 0.6875, 0.8125, 0.0625, 0.4375},
      {0.5625, 0.4375, 0.0625, 0.8125, 0.1875},
      {0.0625, 0.9375, 0.5625, 0.3125, 0.6875},
  };
  const SobolDirections& table = shipped(5);
  for (int index = 0; index < 16; ++index) {
    for (int dimension = 0; dimension < 5; ++dimension) {
      EXPECT_EQ(unit(sobol_coordinate(directions_of(table, dimension), index)),
                reference[index][dimension])
          << "point " << index << ", dimension " << dimension + 1;
    }
  }
}

TEST(Sobol, DistantPointsMatchScipy) {
  // Coordinates scaled by 2^32 in dimensions 1, 2, 3, 10, 100, 1000 and 21201, from scipy 1.10.1
  // with qmc.Sobol(d=21201, scramble=False, bits=32): point 3000017 through fast_forward and
  // random; points 0xAAAAAAAA (Gray code: all 32 bits) and 0xFFFFFFFF (Gray code: bit 31 only,
  // so v_32 alone) as the XOR of the engine's direction numbers. They reach the last
  // recurrence step of every dimension listed.
  const int dimensions[] = {0, 1, 2, 9, 99, 999, 21200};
  struct Point {
    std::uint64_t index;
    std::uint32_t coordinates[7];
  };
  const Point reference[] = {
      {3000017,
       {2644827136u, 3555521536u, 2723701760u, 3115793408u, 3204488192u, 1368609792u, 2166541312u}},
      {0xAAAAAAAAu,
       {4294967295u, 1u, 1325465599u, 2167068583u, 2638375999u, 4017525573u, 2382816679u}},
      {0xFFFFFFFFu,
       {1u, 4294967295u, 3305133397u, 2197780721u, 1488403325u, 1909304039u, 3646315741u}},
  };
  const SobolDirections table = read_sobol_directions(kShippedTable, 21201);
  for (const Point& point : reference) {
    for (int i = 0; i < 7; ++i) {
      EXPECT_EQ(sobol_coordinate(directions_of(table, dimensions[i]), point.index),
                point.coordinates[i])
          << "point " << point.index << ", dimension " << dimensions[i] + 1;
    }
  }
}

TEST(Sobol, EveryDimensionIsANetInOneDimension) {
  // Each aligned block of 2^m consecutive points puts exactly one point into every interval
  // [k/2^m, (k+1)/2^m): a dimension whose direction numbers had a bit in the wrong place, or an
  // even m_k, would put two points into one interval.
  constexpr int m = 10;
  constexpr std::uint64_t block = std::uint64_t{1} << m;
  constexpr std::uint64_t points = 4 * block;
  const SobolDirections& table = shipped(1000);
  for (int dimension = 0; dimension < 1000; ++dimension) {
    const std::uint32_t* v = directions_of(table, dimension);
    std::vector<int> hits(block, 0);
    for (std::uint64_t index = 0; index < points; ++index) {
      const std::uint32_t x = sobol_coordinate(v, index);
      if (index >= 1) {
        const double u = unit(x);
        ASSERT_TRUE(u > 0.0 && u < 1.0)
            << "point " << index << ", dimension " << dimension + 1 << ": " << u;
      }
      ++hits[x >> (kSobolBits - m)];
      if ((index + 1) % block == 0) {
        for (std::uint64_t k = 0; k < block; ++k) {
          ASSERT_EQ(hits[k], 1) << "dimension " << dimension + 1 << ", points " << index + 1 - block
                                << " to " << index << ", interval " << k;
        }
        std::fill(hits.begin(), hits.end(), 0);
      }
    }
  }
}

TEST(Sobol, ShippedTableHasAllDimensions) {
  EXPECT_EQ(sobol_table_dimensions(kShippedTable), 21201);
  const SobolDirections table = read_sobol_directions(kShippedTable, 21201);
  ASSERT_EQ(table.dimensions, 21201);
  ASSERT_EQ(table.directions.size(), std::size_t{21201} * kSobolBits);
  // The last line: 21201 18 131059 1 1 7 11 15 7 37 239 337 245 1557 3681 7357 9639 27367 26869
  // 114603 86317.
  const std::uint64_t last[] = {1,   1,    7,    11,   15,   7,     37,    239,    337,
                                245, 1557, 3681, 7357, 9639, 27367, 26869, 114603, 86317};
  const std::uint32_t* v = directions_of(table, 21200);
  for (int k = 1; k <= 18; ++k) {
    EXPECT_EQ(initial_number(v, k), last[k - 1]) << "m_" << k;
  }
  EXPECT_THROW(read_sobol_directions(kShippedTable, 21202), InputError);
}

// A table in a temporary folder of its own, removed with the test.
class SobolTableFile : public ::testing::Test {
 protected:
  void write(const std::string& text) { path_ = folder_.write("table.txt", text); }

  // The message of the InputError that reading `dimensions` dimensions throws.
  std::string read_error(int dimensions) {
    try {
      read_sobol_directions(path_, dimensions);
    } catch (const InputError& error) {
      return error.what();
    }
    ADD_FAILURE() << "reading " << dimensions << " dimensions of " << path_ << " did not throw";
    return "";
  }

  // Joe and Kuo's header and their first four dimensions after it (lines 2 to 5).
  static constexpr const char* kGoodStart =
      "d       s       a       m_i     \n"
      "2       1       0       1 \n"
      "3       2       1       1 3 \n"
      "4       3       1       1 3 1 \n"
      "5       3       2       1 1 1 \n";

  testing::TempDir folder_;
  std::string path_;
};

TEST_F(SobolTableFile, ReadsWhatItHasAndTabs) {
  write("d\ts\ta\tm_i\n2\t1\t0\t1\n3\t2\t1\t1 3\n");
  EXPECT_EQ(sobol_table_dimensions(path_), 3);
  const SobolDirections table = read_sobol_directions(path_, 3);
  EXPECT_EQ(table.dimensions, 3);
  EXPECT_EQ(table.directions.size(), std::size_t{3} * kSobolBits);
  EXPECT_EQ(table.directions[2 * kSobolBits + 1], 3u << (kSobolBits - 2));
}

TEST_F(SobolTableFile, WrongDimensionNumber) {
  write(std::string(kGoodStart) + "7       4       4       1 3 5 13 \n");
  const std::string message = read_error(6);
  EXPECT_NE(message.find(path_ + ":6:"), std::string::npos) << message;
  EXPECT_NE(message.find("expected d = 6"), std::string::npos) << message;
  EXPECT_NE(message.find("found 7"), std::string::npos) << message;
  // The dimensions before the bad line are fine.
  EXPECT_EQ(read_sobol_directions(path_, 5).dimensions, 5);
}

TEST_F(SobolTableFile, EvenInitialNumber) {
  write(std::string(kGoodStart) + "6       4       1       1 1 4 3 \n");
  const std::string message = read_error(6);
  EXPECT_NE(message.find(path_ + ":6:"), std::string::npos) << message;
  EXPECT_NE(message.find("m_3"), std::string::npos) << message;
  EXPECT_NE(message.find("found 4"), std::string::npos) << message;
}

TEST_F(SobolTableFile, InitialNumberTooLarge) {
  write("d s a m_i\n2 1 0 1\n3 2 1 1 5\n");
  const std::string message = read_error(3);
  EXPECT_NE(message.find(path_ + ":3:"), std::string::npos) << message;
  EXPECT_NE(message.find("m_2 odd and below 2^2"), std::string::npos) << message;
}

TEST_F(SobolTableFile, TooFewInitialNumbers) {
  write(std::string(kGoodStart) + "6       4       1       1 1 3 \n");
  const std::string message = read_error(6);
  EXPECT_NE(message.find(path_ + ":6:"), std::string::npos) << message;
  EXPECT_NE(message.find("expected m_4 of s = 4"), std::string::npos) << message;
  EXPECT_NE(message.find("end of the line"), std::string::npos) << message;
}

TEST_F(SobolTableFile, TooManyInitialNumbers) {
  write(std::string(kGoodStart) + "6       4       1       1 1 3 3 5 \n");
  const std::string message = read_error(6);
  EXPECT_NE(message.find(path_ + ":6:"), std::string::npos) << message;
  EXPECT_NE(message.find("'5'"), std::string::npos) << message;
}

TEST_F(SobolTableFile, DegreeOutOfRange) {
  write("d s a m_i\n2 0 0\n");
  EXPECT_NE(read_error(2).find(path_ + ":2: expected a degree s"), std::string::npos);
  write("d s a m_i\n2 32 0 1\n");
  EXPECT_NE(read_error(2).find(path_ + ":2: expected a degree s"), std::string::npos);
}

TEST_F(SobolTableFile, CoefficientsWiderThanTheDegree) {
  write("d s a m_i\n2 2 2 1 1\n");
  const std::string message = read_error(2);
  EXPECT_NE(message.find(path_ + ":2:"), std::string::npos) << message;
  EXPECT_NE(message.find("coefficients a below 2^(s-1) = 2"), std::string::npos) << message;
}

TEST_F(SobolTableFile, NotANumber) {
  write("d s a m_i\n2 1 0 x\n");
  const std::string message = read_error(2);
  EXPECT_NE(message.find(path_ + ":2:"), std::string::npos) << message;
  EXPECT_NE(message.find("'x'"), std::string::npos) << message;
}

TEST_F(SobolTableFile, TooFewDimensions) {
  write(kGoodStart);
  EXPECT_EQ(sobol_table_dimensions(path_), 5);
  EXPECT_EQ(read_sobol_directions(path_, 5).dimensions, 5);
  const std::string message = read_error(6);
  EXPECT_NE(message.find("the table " + path_ + " has 5 dimensions (its last line, 5,"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("6 are needed"), std::string::npos) << message;
}

TEST_F(SobolTableFile, BlankLineEndsTheTable) {
  write(std::string(kGoodStart) + "\n6       4       1       1 1 3 3 \n");
  EXPECT_EQ(sobol_table_dimensions(path_), 5);
  EXPECT_NE(read_error(6).find("has 5 dimensions"), std::string::npos);
}

TEST_F(SobolTableFile, WrongHeader) {
  write("2 1 0 1\n3 2 1 1 3\n");
  const std::string message = read_error(2);
  EXPECT_NE(message.find(path_ + ":1: expected the header"), std::string::npos) << message;
  EXPECT_NE(message.find("found '2 1 0 1'"), std::string::npos) << message;
  EXPECT_THROW(sobol_table_dimensions(path_), InputError);
}

TEST_F(SobolTableFile, MissingFile) {
  const std::string missing = folder_.file("absent.txt");
  for (auto read : {+[](const std::string& p) { read_sobol_directions(p, 2); },
                    +[](const std::string& p) { sobol_table_dimensions(p); }}) {
    try {
      read(missing);
      ADD_FAILURE() << "no error for " << missing;
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(missing), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find("no such file"), std::string::npos) << error.what();
    }
  }
}

}  // namespace
}  // namespace kmini::bridge
