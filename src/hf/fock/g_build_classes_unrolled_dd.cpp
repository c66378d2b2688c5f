// GBuilder's kernels for the unrolled classes with a (dd| bra, (dd|ss) to (dd|dp)
// (g_build_class.hpp). They hold over half of the unrolled classes' device code, and a
// translation unit of their own compiles beside g_build_classes_unrolled.cpp on a second core.
#include "hf/fock/g_build_class.hpp"

namespace {
constexpr bool kUnrolledClassesHere = true;
}

KMINI_HF_G_BUILD_CLASS(5, 0)
KMINI_HF_G_BUILD_CLASS(5, 1)
KMINI_HF_G_BUILD_CLASS(5, 2)
KMINI_HF_G_BUILD_CLASS(5, 3)
KMINI_HF_G_BUILD_CLASS(5, 4)
