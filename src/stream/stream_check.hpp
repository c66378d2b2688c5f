// Validation of the stream kernels against an analytic replay on the host, BabelStream-style:
// every element is recomputed from its index, so a missed, misplaced or wrongly rounded write
// shows.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include <Kokkos_Core.hpp>

#include "core/app.hpp"
#include "core/host_copy.hpp"
#include "core/interrupt.hpp"
#include "stream/stream_kernels.hpp"

namespace kmini::stream {

using HostRange =
    Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>;

// Max over elements of |c - op(a, b)| / |op(a, b)|, with op replayed in T on the host. The
// device may fuse a + s*b into one rounding, so two units in the last place are allowed.
template <class T, class Op>
Validation check_elementwise(const StreamArrays<T>& arrays) {
  const auto c = host_copy_until_signal(arrays.c);
  // Stopped with c half copied: the runner's safe point after validation drops the variant.
  if (interrupt::received() != 0) return Validation{};
  const T scalar = arrays.scalar;
  double worst = 0.0;
  Kokkos::parallel_reduce(
      "stream::check", HostRange(0, static_cast<std::int64_t>(c.extent(0))),
      [=](std::int64_t i, double& max_error) {
        const T expected = Op::template apply<T>(initial_a<T>(i), initial_b<T>(i), scalar);
        double error = std::fabs(static_cast<double>(c(i)) - static_cast<double>(expected)) /
                       std::fabs(static_cast<double>(expected));
        // A NaN (an unwritten, poisoned element) must not vanish in the max.
        if (std::isnan(error)) error = std::numeric_limits<double>::infinity();
        if (error > max_error) max_error = error;
      },
      Kokkos::Max<double>(worst));
  return Validation::within("max relative error vs analytic replay", worst,
                            2.0 * std::numeric_limits<T>::epsilon());
}

// The sum over i < n of term(i) / 2^shift, exactly: each term(i) is an integer, and they are
// summed in 64-bit integers.
template <class Term>
double exact_sum(const char* name, std::int64_t n, Term term, int shift) {
  std::int64_t numerator = 0;
  Kokkos::parallel_reduce(
      name, HostRange(0, n), [=](std::int64_t i, std::int64_t& sum) { sum += term(i); }, numerator);
  return std::ldexp(static_cast<double>(numerator), -shift);
}

// The dot product's exact value: a(i) * b(i) = (1024 + i%1024)(1024 - i%509) / 2^19.
template <class T>
Validation check_dot(const StreamArrays<T>& arrays) {
  const auto n = static_cast<std::int64_t>(arrays.a.extent(0));
  const double exact = exact_sum(
      "stream::check_dot", n, [](std::int64_t i) { return (1024 + i % 1024) * (1024 - i % 509); },
      19);
  const double error = std::fabs(arrays.dot - exact) / exact;
  // Recursive summation in double of n terms errs by at most n * 2^-53 relative.
  return Validation::within("relative error vs exact sum", error,
                            static_cast<double>(n) * std::ldexp(1.0, -53));
}

// read's sum of a: a(i) = (1024 + i%1024) / 2^10, so every partial sum of up to 2^33 terms is a
// multiple of 2^-10 below 2^44, which double holds exactly in any order of addition.
template <class T>
Validation check_read(const StreamArrays<T>& arrays) {
  const auto n = static_cast<std::int64_t>(arrays.a.extent(0));
  const double exact = exact_sum(
      "stream::check_read", n, [](std::int64_t i) { return 1024 + i % 1024; }, 10);
  double sum = 0.0;
  Kokkos::deep_copy(sum, arrays.sum_on_device);
  return Validation::within("|sum - exact sum|", std::fabs(sum - exact), 0.0);
}

// inject_error: one wrong element in c and a wrong dot product and sum, to prove validation
// catches them.
template <class T>
void corrupt_one_result(StreamArrays<T>& arrays) {
  const auto c = arrays.c;
  const auto sum = arrays.sum_on_device;
  const std::int64_t middle = static_cast<std::int64_t>(c.extent(0)) / 2;
  Kokkos::parallel_for(
      "stream::inject_error", range_of(1), KOKKOS_LAMBDA(std::int64_t) {
        c(middle) = c(middle) * T(2) + T(1);
        sum() += 1.0;
      });
  Kokkos::fence();
  arrays.dot += 1.0;
}

}  // namespace kmini::stream
