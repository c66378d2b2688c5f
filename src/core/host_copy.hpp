// A device array's host copy, made a slice at a time with a look for a signal between slices: a
// GPU's samples or values of many gigabytes, copied at once into new host memory, held a signal
// for seconds while the copy faulted in its pages. On a host backend the view is its own copy.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <Kokkos_Core.hpp>

#include "core/interrupt.hpp"

namespace kmini {

// Copies 1-D `source` into `destination` of the same length a slice at a time, until a signal has
// come (interrupt::received()): the slices from then on are left as they were, for the caller's
// safe point to throw away.
template <class Destination, class Source>
void copy_until_signal(const Destination& destination, const Source& source) {
  static_assert(Destination::rank == 1 && Source::rank == 1, "copy_until_signal copies 1-D views");
  interrupt::for_each_slice_until_signal(
      static_cast<std::int64_t>(source.extent(0)), [&](std::int64_t begin, std::int64_t end) {
        const auto slice = std::make_pair(begin, end);
        Kokkos::deep_copy(Kokkos::subview(destination, slice), Kokkos::subview(source, slice));
      });
}

// The host copy of a 1-D view, made by copy_until_signal: complete unless a signal came.
template <class View>
typename View::host_mirror_type host_copy_until_signal(const View& view) {
  using Mirror = typename View::host_mirror_type;
  if constexpr (std::is_same<typename Mirror::memory_space, typename View::memory_space>::value) {
    return view;
  } else {
    Mirror host(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(view.label())),
                view.extent(0));
    copy_until_signal(host, view);
    return host;
  }
}

}  // namespace kmini
