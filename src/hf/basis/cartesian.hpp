// Cartesian Gaussian components x^i y^j z^k of any total degree: a bra or ket of two d shells
// reaches 4, the kinetic integral of d shells 4 along one axis. Components are numbered degree by
// degree, each degree in the usual order (powers of x descending, then of y): 0 = 1;
// 1..3 = x, y, z; 4..9 = xx, xy, xz, yy, yz, zz; 10..19 = xxx, xxy, ... Everything is a constexpr
// function, so that fully unrolled recursions fold to constants.
#pragma once

#include <Kokkos_Core.hpp>

namespace kmini::hf {

// The highest angular momentum of one shell this code integrates (s, p and d).
constexpr int kMaxShellL = 2;

// Functions of one shell of angular momentum l.
KOKKOS_INLINE_FUNCTION constexpr int functions_of_l(int l) {
  return (l + 1) * (l + 2) / 2;
}

// Components of every degree from 0 to l.
KOKKOS_INLINE_FUNCTION constexpr int components_up_to(int l) {
  return (l + 1) * (l + 2) * (l + 3) / 6;
}

// The component of exponents (x, y, z); -1 when one is negative.
KOKKOS_INLINE_FUNCTION constexpr int component_index(int x, int y, int z) {
  if (x < 0 || y < 0 || z < 0) return -1;
  const int l = x + y + z;
  return components_up_to(l - 1) + (l - x) * (l - x + 1) / 2 + (l - x - y);
}

KOKKOS_INLINE_FUNCTION constexpr int component_degree(int index) {
  return index < 1    ? 0
         : index < 4  ? 1
         : index < 10 ? 2
         : index < 20 ? 3
         : index < 35 ? 4
         : index < 56 ? 5
         : index < 84 ? 6
                      : 7 + (index >= 120) + (index >= 165);
}

// The exponent of Cartesian direction `axis` (0 = x, 1 = y, 2 = z) in the component `within`
// places into degree l.
KOKKOS_INLINE_FUNCTION constexpr int power_within_degree(int l, int within, int axis) {
  // Indexed tables would not fold in device code; the arithmetic below does.
  // Invert within = (l - x)(l - x + 1)/2 + (l - x - y).
  int x = l;
  while ((l - x + 1) * (l - x + 2) / 2 <= within)
    --x;
  const int y = l - x - (within - (l - x) * (l - x + 1) / 2);
  const int z = l - x - y;
  return axis == 0 ? x : axis == 1 ? y : z;
}

// The exponent of Cartesian direction `axis` in component `index`.
KOKKOS_INLINE_FUNCTION constexpr int component_power(int index, int axis) {
  const int l = component_degree(index);
  return power_within_degree(l, index - components_up_to(l - 1), axis);
}

// The component one degree lower along `axis`, or -1 when its power there is 0.
KOKKOS_INLINE_FUNCTION constexpr int component_lowered(int index, int axis) {
  return component_index(component_power(index, 0) - (axis == 0),
                         component_power(index, 1) - (axis == 1),
                         component_power(index, 2) - (axis == 2));
}

// The component one degree higher along `axis`.
KOKKOS_INLINE_FUNCTION constexpr int component_raised(int index, int axis) {
  return component_index(component_power(index, 0) + (axis == 0),
                         component_power(index, 1) + (axis == 1),
                         component_power(index, 2) + (axis == 2));
}

// The axis a recursion builds `index` along: its first direction with a non-zero power.
KOKKOS_INLINE_FUNCTION constexpr int build_axis(int index) {
  return component_power(index, 0) > 0 ? 0 : component_power(index, 1) > 0 ? 1 : 2;
}

}  // namespace kmini::hf
