// Sobol points from Joe and Kuo's direction numbers (the file new-joe-kuo-6.21201), in the
// Gray-code order of their generator, so that point n of dimension j is the one their tables and
// other implementations list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>

namespace kmini::bridge {

constexpr int kSobolBits = 32;

// Direction numbers of the first `dimensions` Sobol dimensions, as 32-bit integers (v_k scaled by
// 2^32): directions[dim * kSobolBits + k] for dim 0..dimensions-1 and bit k 0..31. Dimension 0 is
// the van der Corput sequence; dimension j >= 1 is line j + 1 ("d" column) of the file.
struct SobolDirections {
  int dimensions = 0;
  std::vector<std::uint32_t> directions;
};

// Reads a table in Joe and Kuo's format (a header line "d s a m_i", then one line per dimension
// d = 2, 3, ...: d, the degree s, the polynomial's coefficients a, and s initial numbers m_i).
// Throws InputError naming the file and line when the file is unreadable or malformed (a wrong
// d, an m_i that is even or not below 2^i, a short line), or when it has fewer than `dimensions`
// dimensions (counting van der Corput's). The table ends at the end of the file or at a blank
// line; lines after the last dimension needed are not read.
SobolDirections read_sobol_directions(const std::string& path, int dimensions);

// The number of dimensions the table in `path` holds (counting van der Corput's): the lines
// after the header, up to the end of the file or a blank line, plus one. Only the header is
// checked, so that asking how large a table is stays cheap; read_sobol_directions checks the
// lines it reads. Throws InputError when the file is unreadable or its header is wrong.
int sobol_table_dimensions(const std::string& path);

// Coordinate of point `index` (0, 1, 2, ...; point 0 is the origin) in the dimension whose 32
// direction numbers start at `directions`, as an integer in [0, 2^32): the XOR of the direction
// numbers selected by the bits of the Gray code of `index`.
KOKKOS_INLINE_FUNCTION std::uint32_t sobol_coordinate(const std::uint32_t* directions,
                                                      std::uint64_t index) {
  std::uint64_t gray = index ^ (index >> 1);
  std::uint32_t x = 0;
  for (int k = 0; k < kSobolBits && gray != 0; ++k, gray >>= 1) {
    if (gray & 1u) x ^= directions[k];
  }
  return x;
}

}  // namespace kmini::bridge
