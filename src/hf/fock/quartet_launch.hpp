// The quartet kernels' launch bounds, as data: one line per integral class, each naming the
// measurement it rests on.
#pragma once

#include "hf/integrals/shell_pairs.hpp"

namespace kmini::hf::Impl {

// ClassQuartets' launch bound, per class: blocks of 128 threads that an SM must hold. The
// registers a thread may take follow from it (each of an SM's four schedulers holds a quarter of
// its 65536 for its share of the warps): 2 blocks leave 255, 3 leave 168, 4 leave 128, 5 leave 96
// and 6 leave 80. More blocks hide more latency; fewer registers spill more. One line per class,
// naming the dated section of the performance notes (docs/notes/) that measured or set it; a test
// checks that each section is there.
struct NotesSection {
  const char* note;     // in docs/notes/
  const char* heading;  // a "### " heading of its log
};
inline constexpr NotesSection kBlocksOf128{
    "hf-screening-and-builds.md",
    "hf: kept quartets listed first, auto's trial moved, loose early builds, blocks of 128 (H100, "
    "2026-11-25)"};
inline constexpr NotesSection kFiveBlocks{
    "hf-screening-and-builds.md",
    "hf: products packed for 16-byte loads, a primitive screen, looser early builds, five blocks "
    "(H100, 2026-11-25)"};
inline constexpr NotesSection kDShellsFirstLight{"hf-kernels.md",
                                                 "hf: d shells, first light (H100, 2026-11-26)"};
inline constexpr NotesSection kDClassesUnrolled{
    "hf-kernels.md",
    "hf: the s/p regression found; the d classes up to (pp|pp)'s size unrolled (H100, "
    "2026-11-26)"};
inline constexpr NotesSection kHrrOfAnyDepth{
    "hf-kernels.md",
    "hf: every class but (dd|dd) unrolled, the HRR of any depth (H100, 2026-11-26)"};
inline constexpr NotesSection kMoreBlocks{
    "hf-kernels.md",
    "hf: more blocks an SM for (pp|ss), (ds|ss), (dp|ss) and (ds|ps) (H100, 2026-11-27)"};
inline constexpr NotesSection kPpPsAtFive{
    "hf-kernels.md",
    "hf: (pp|ps) at five blocks an SM, (ps|ss) and (ps|ps) with inline updates (H200, "
    "2026-11-28)"};

struct QuartetBlocks {
  int bra, ket, blocks;
  NotesSection measured_in;
};
// clang-format off: one class a line
inline constexpr QuartetBlocks kQuartetBlocks[] = {
    {kSS, kSS, 4, kBlocksOf128},        // (ss|ss)
    {kPS, kSS, 4, kMoreBlocks},         // (ps|ss)
    {kPS, kPS, 5, kFiveBlocks},         // (ps|ps)
    {kPP, kSS, 6, kMoreBlocks},         // (pp|ss)
    {kPP, kPS, 5, kPpPsAtFive},         // (pp|ps)
    {kPP, kPP, 2, kBlocksOf128},        // (pp|pp)
    {kDS, kSS, 6, kMoreBlocks},         // (ds|ss)
    {kDS, kPS, 4, kPpPsAtFive},         // (ds|ps)
    {kDS, kPP, 2, kDClassesUnrolled},   // (ds|pp)
    {kDS, kDS, 2, kDClassesUnrolled},   // (ds|ds)
    {kDP, kSS, 5, kPpPsAtFive},         // (dp|ss)
    {kDP, kPS, 2, kDClassesUnrolled},   // (dp|ps)
    {kDP, kPP, 2, kHrrOfAnyDepth},      // (dp|pp)
    {kDP, kDS, 2, kHrrOfAnyDepth},      // (dp|ds)
    {kDP, kDP, 3, kHrrOfAnyDepth},      // (dp|dp)
    {kDD, kSS, 2, kDClassesUnrolled},   // (dd|ss)
    {kDD, kPS, 2, kHrrOfAnyDepth},      // (dd|ps)
    {kDD, kPP, 3, kHrrOfAnyDepth},      // (dd|pp)
    {kDD, kDS, 2, kHrrOfAnyDepth},      // (dd|ds)
    {kDD, kDP, 3, kHrrOfAnyDepth},      // (dd|dp)
    {kDD, kDD, 2, kDShellsFirstLight},  // (dd|dd)
};
// clang-format on

// The blocks of class (bra|ket): 0 where the table has no line for it, which QuartetLaunch
// refuses to compile.
constexpr int quartet_blocks(int bra, int ket) {
  for (const QuartetBlocks& line : kQuartetBlocks)
    if (line.bra == bra && line.ket == ket) return line.blocks;
  return 0;
}

// Each class on one line, once: as many lines as classes, and no two alike.
constexpr bool one_line_per_class() {
  constexpr int lines = sizeof(kQuartetBlocks) / sizeof(kQuartetBlocks[0]);
  if (lines != kPairKinds * (kPairKinds + 1) / 2) return false;
  for (int i = 0; i < lines; ++i)
    for (int j = 0; j < i; ++j)
      if (kQuartetBlocks[i].bra == kQuartetBlocks[j].bra &&
          kQuartetBlocks[i].ket == kQuartetBlocks[j].ket)
        return false;
  return true;
}
static_assert(one_line_per_class(), "kQuartetBlocks holds each quartet class on one line");

template <class Class>
struct QuartetLaunch {
  static constexpr unsigned threads = 128;
  static constexpr int blocks_of_class = quartet_blocks(Class::bra_kind, Class::ket_kind);
  static_assert(blocks_of_class > 0, "the class has no line in kQuartetBlocks");
  static constexpr unsigned blocks = blocks_of_class;
};

}  // namespace kmini::hf::Impl
