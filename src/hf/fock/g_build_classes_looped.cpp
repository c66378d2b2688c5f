// GBuilder's kernels for the classes whose recursions loop over tables in memory, (dd|dd) alone
// (g_build_class.hpp).
#include "hf/fock/g_build_class.hpp"

namespace {
constexpr bool kUnrolledClassesHere = false;
}

KMINI_HF_G_BUILD_CLASS(5, 5)
