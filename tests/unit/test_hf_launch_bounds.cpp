// The quartet kernels' launch bounds as data (hf/fock/quartet_launch.hpp): every line names a
// section of the performance notes that is there to read, and asks for a bound a launch can meet.
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "hf/fock/quartet_launch.hpp"
#include "support/test_paths.hpp"

namespace kmini::hf {
namespace {

bool notes_have_section(const Impl::NotesSection& section) {
  std::ifstream in(kmini::testing::source_dir() + "/docs/notes/" + section.note);
  for (std::string line; std::getline(in, line);)
    if (line == std::string("### ") + section.heading) return true;
  return false;
}

TEST(HfLaunchBounds, EveryLineCitesASectionOfTheNotes) {
  for (const Impl::QuartetBlocks& line : Impl::kQuartetBlocks) {
    SCOPED_TRACE(std::string(pair_kind_name(line.bra)) + pair_kind_name(line.ket));
    EXPECT_TRUE(notes_have_section(line.measured_in))
        << "docs/notes/" << line.measured_in.note << " has no section \"### "
        << line.measured_in.heading << "\"";
  }
}

TEST(HfLaunchBounds, EveryClassAsksForBlocksAnSmCanHold) {
  // Two blocks of 128 leave a thread the 255 registers it may take at most; past eight, fewer
  // than 64 registers: no quartet kernel fits.
  for (const Impl::QuartetBlocks& line : Impl::kQuartetBlocks) {
    SCOPED_TRACE(std::string(pair_kind_name(line.bra)) + pair_kind_name(line.ket));
    EXPECT_GE(line.blocks, 2);
    EXPECT_LE(line.blocks, 8);
    EXPECT_GE(line.bra, line.ket);
    EXPECT_EQ(Impl::quartet_blocks(line.bra, line.ket), line.blocks);
  }
}

}  // namespace
}  // namespace kmini::hf
