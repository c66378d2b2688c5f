// A host vector copied into a new Kokkos view, for tables apps build on the host.
#pragma once

#include <string>

#include <Kokkos_Core.hpp>

namespace kmini {

// Copies `values` (anything with size() and operator[]) into a new 1-D view of type View.
template <class View, class Values>
View view_of(const char* label, const Values& values) {
  View view(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), values.size());
  auto host = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < values.size(); ++i)
    host(i) = values[i];
  Kokkos::deep_copy(view, host);
  return view;
}

}  // namespace kmini
