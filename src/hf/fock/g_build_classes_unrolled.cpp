// GBuilder's kernels for the classes whose recursions are unrolled into registers, but for those
// with a (dd| bra (g_build_classes_unrolled_dd.cpp): the s and p classes, and the d classes from
// (ds|ss) to (dp|dp) (g_build_class.hpp).
#include "hf/fock/g_build_class.hpp"

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
