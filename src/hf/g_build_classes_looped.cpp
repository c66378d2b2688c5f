// GBuilder's kernels for the classes whose recursions loop over tables in memory
// (g_build_class.hpp).
#include "hf/g_build_class.hpp"

namespace {
constexpr bool kUnrolledClassesHere = false;
}

KMINI_HF_G_BUILD_CLASS(4, 4)
KMINI_HF_G_BUILD_CLASS(5, 2)
KMINI_HF_G_BUILD_CLASS(5, 3)
KMINI_HF_G_BUILD_CLASS(5, 4)
KMINI_HF_G_BUILD_CLASS(5, 5)
