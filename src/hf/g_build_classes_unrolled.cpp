// GBuilder's kernels for the classes whose recursions are unrolled into registers: the s and p
// classes, and the d classes from (ds|ss) to (dd|dp) (g_build_class.hpp).
#include "hf/g_build_class.hpp"

namespace {
constexpr bool kUnrolledClassesHere = true;
}

KMINI_HF_G_BUILD_CLASS(0, 0)
KMINI_HF_G_BUILD_CLASS(1, 0)
KMINI_HF_G_BUILD_CLASS(1, 1)
KMINI_HF_G_BUILD_CLASS(2, 0)
KMINI_HF_G_BUILD_CLASS(2, 1)
KMINI_HF_G_BUILD_CLASS(2, 2)
KMINI_HF_G_BUILD_CLASS(3, 0)
KMINI_HF_G_BUILD_CLASS(3, 1)
KMINI_HF_G_BUILD_CLASS(3, 2)
KMINI_HF_G_BUILD_CLASS(3, 3)
KMINI_HF_G_BUILD_CLASS(4, 0)
KMINI_HF_G_BUILD_CLASS(4, 1)
KMINI_HF_G_BUILD_CLASS(4, 2)
KMINI_HF_G_BUILD_CLASS(4, 3)
KMINI_HF_G_BUILD_CLASS(4, 4)
KMINI_HF_G_BUILD_CLASS(5, 0)
KMINI_HF_G_BUILD_CLASS(5, 1)
KMINI_HF_G_BUILD_CLASS(5, 2)
KMINI_HF_G_BUILD_CLASS(5, 3)
KMINI_HF_G_BUILD_CLASS(5, 4)
