// The hf app's input readers (src/hf/): element symbols, Gaussian94 basis sets (the shipped
// STO-3G and 6-31G, a hand-written snippet with every feature, and each malformed file the
// reader refuses) and xyz molecules (the shipped water clusters and the checks before RHF).
//
// Plain host code: no Kokkos runtime.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "hf/basis/basis_set.hpp"
#include "hf/basis/elements.hpp"
#include "hf/basis/molecule.hpp"
#include "hf/basis/shared_primitives.hpp"
#include "hf/hf_setup.hpp"
#include "support/expect.hpp"
#include "support/process.hpp"
#include "support/test_paths.hpp"

namespace kmini::hf {
namespace {

using kmini::testing::input_error_of;
using kmini::testing::TempDir;

std::string shipped(const std::string& relative) {
  return kmini::testing::source_dir() + "/inputs/" + relative;
}

int function_count(const std::vector<Shell>& shells) {
  int count = 0;
  for (const Shell& shell : shells)
    count += cartesian_functions(shell.l);
  return count;
}

std::vector<int> ls_of(const std::vector<Shell>& shells) {
  std::vector<int> ls;
  for (const Shell& shell : shells)
    ls.push_back(shell.l);
  return ls;
}

void expect_relative(double actual, double expected, double tolerance) {
  EXPECT_LE(std::fabs(actual - expected), tolerance * std::fabs(expected))
      << "actual " << actual << ", expected " << expected;
}

// ---- elements --------------------------------------------------------------------------------

TEST(HfElements, SymbolsAndNumbersRoundTrip) {
  for (int z = 1; z <= kMaxAtomicNumber; ++z)
    EXPECT_EQ(atomic_number(element_symbol(z)), z);
  EXPECT_EQ(element_symbol(1), "H");
  EXPECT_EQ(element_symbol(18), "Ar");
  EXPECT_EQ(element_symbol(36), "Kr");
}

TEST(HfElements, IgnoresCaseAndRefusesUnknownSymbols) {
  EXPECT_EQ(atomic_number("O"), 8);
  EXPECT_EQ(atomic_number("o"), 8);
  EXPECT_EQ(atomic_number("CL"), 17);
  EXPECT_EQ(atomic_number("cl"), 17);
  EXPECT_EQ(atomic_number("Xx"), 0);
  EXPECT_EQ(atomic_number("Rb"), 0);  // Z = 37, beyond Kr
  EXPECT_EQ(atomic_number(""), 0);
  EXPECT_EQ(atomic_number("Oxygen"), 0);
}

// ---- the shipped basis sets ------------------------------------------------------------------

TEST(HfBasis, Sto3gHasTheTextbookShells) {
  const BasisSet basis = read_gaussian94(shipped("basis/sto-3g.gbs"));
  EXPECT_EQ(basis.name, "sto-3g");
  EXPECT_EQ(basis.max_l(), 1);
  for (int z = 1; z <= 18; ++z)
    EXPECT_EQ(basis.shells_of_element.count(z), 1u) << z;
  EXPECT_EQ(basis.shells_of_element.size(), 18u);

  const std::vector<Shell>& h = basis.shells_of_element.at(1);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].l, 0);
  // Hehre, Stewart and Pople's values to 8 decimals, which are within 2.4e-8 relative of the
  // file's 10 digits; the file's own digits, to 1e-8 relative.
  const std::vector<double> h_exponents = {3.42525091, 0.62391373, 0.16885540};
  const std::vector<double> h_coefficients = {0.15432897, 0.53532814, 0.44463454};
  const std::vector<double> file_exponents = {3.425250914, 0.6239137298, 0.1688554040};
  const std::vector<double> file_coefficients = {0.1543289673, 0.5353281423, 0.4446345422};
  ASSERT_EQ(h[0].exponents.size(), 3u);
  ASSERT_EQ(h[0].coefficients.size(), 3u);
  for (int p = 0; p < 3; ++p) {
    expect_relative(h[0].exponents[p], h_exponents[p], 3e-8);
    expect_relative(h[0].coefficients[p], h_coefficients[p], 3e-8);
    expect_relative(h[0].exponents[p], file_exponents[p], 1e-8);
    expect_relative(h[0].coefficients[p], file_coefficients[p], 1e-8);
  }

  const std::vector<Shell>& o = basis.shells_of_element.at(8);
  EXPECT_EQ(ls_of(o), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(function_count(o), 5);
  // The SP shell's two columns, s then p, on the same exponents (the file's lines 129-131).
  const std::vector<double> sp_exponents = {0.5033151319e+01, 0.1169596125e+01, 0.3803889600e+00};
  const std::vector<double> s_column = {-0.9996722919e-01, 0.3995128261e+00, 0.7001154689e+00};
  const std::vector<double> p_column = {0.1559162750e+00, 0.6076837186e+00, 0.3919573931e+00};
  EXPECT_EQ(o[1].exponents, sp_exponents);
  EXPECT_EQ(o[2].exponents, sp_exponents);
  EXPECT_EQ(o[1].coefficients, s_column);
  EXPECT_EQ(o[2].coefficients, p_column);
}

TEST(HfBasis, SixThirtyOneGSplitsTheValence) {
  const BasisSet basis = read_gaussian94(shipped("basis/6-31g.gbs"));
  EXPECT_EQ(basis.name, "6-31g");
  for (int z = 1; z <= 18; ++z)
    EXPECT_EQ(basis.shells_of_element.count(z), 1u) << z;

  const std::vector<Shell>& o = basis.shells_of_element.at(8);
  EXPECT_EQ(ls_of(o), (std::vector<int>{0, 0, 1, 0, 1}));
  EXPECT_EQ(function_count(o), 9);
  const std::vector<std::size_t> o_primitives = {6, 3, 3, 1, 1};
  for (std::size_t s = 0; s < o.size(); ++s) {
    EXPECT_EQ(o[s].exponents.size(), o_primitives[s]) << s;
    EXPECT_EQ(o[s].coefficients.size(), o_primitives[s]) << s;
  }

  const std::vector<Shell>& h = basis.shells_of_element.at(1);
  EXPECT_EQ(ls_of(h), (std::vector<int>{0, 0}));
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0].exponents.size(), 3u);
  EXPECT_EQ(h[1].exponents.size(), 1u);
  expect_relative(h[0].exponents[0], 18.73113696, 1e-12);
  expect_relative(h[1].exponents[0], 0.1612777588, 1e-12);
  EXPECT_EQ(h[1].coefficients[0], 1.0);
}

// The polarised sets from the Basis Set Exchange: every element H to Ar, and their published
// polarisation exponents (O's d: 0.8 in 6-31G*, 1.185 in cc-pVDZ; H's p in 6-31G**: 1.1).
TEST(HfBasis, ShippedPolarisedSetsHoldTheirPublishedShells) {
  std::vector<int> h_to_ar(18);
  std::iota(h_to_ar.begin(), h_to_ar.end(), 1);
  const auto shells_of = [](const BasisSet& basis, int z) {
    std::vector<int> ls;
    for (const Shell& shell : basis.shells_of_element.at(z))
      ls.push_back(shell.l);
    return ls;
  };
  const BasisSet star = read_gaussian94(shipped("basis/6-31g-star.gbs"));
  const BasisSet star_star = read_gaussian94(shipped("basis/6-31g-star-star.gbs"));
  const BasisSet cc = read_gaussian94(shipped("basis/cc-pvdz.gbs"));
  for (const BasisSet* basis : {&star, &star_star, &cc}) {
    SCOPED_TRACE(basis->name);
    EXPECT_EQ(missing_element_problem(*basis, h_to_ar), "");
    EXPECT_EQ(basis->max_l(), 2);
    EXPECT_EQ(unsupported_shell_problem(*basis, {1}, 1), "");  // H: no d
    EXPECT_CONTAINS(unsupported_shell_problem(*basis, {1, 8}, 1),
                    "the D shell of element O: d functions are not supported");
  }
  EXPECT_EQ(shells_of(star, 8), (std::vector<int>{0, 0, 1, 0, 1, 2}));
  EXPECT_EQ(shells_of(star, 1), (std::vector<int>{0, 0}));
  EXPECT_EQ(shells_of(star_star, 1), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(shells_of(cc, 8), (std::vector<int>{0, 0, 0, 1, 1, 2}));
  EXPECT_EQ(shells_of(cc, 1), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(star.shells_of_element.at(8).back().exponents, (std::vector<double>{0.8}));
  EXPECT_EQ(cc.shells_of_element.at(8).back().exponents, (std::vector<double>{1.185}));
  EXPECT_EQ(star_star.shells_of_element.at(1).back().exponents, (std::vector<double>{1.1}));
}

TEST(HfBasis, ShippedSetsCoverWaterAndNotPotassium) {
  const BasisSet basis = read_gaussian94(shipped("basis/sto-3g.gbs"));
  EXPECT_EQ(missing_element_problem(basis, {8, 1, 1}), "");
  EXPECT_EQ(unsupported_shell_problem(basis, {8, 1, 1}, 1), "");
  const std::string problem = missing_element_problem(basis, {8, 19, 20});
  EXPECT_CONTAINS(problem, "K (Z = 19)");
  EXPECT_CONTAINS(problem, "sto-3g");
  EXPECT_EQ(problem.find("Ca"), std::string::npos) << problem;
}

// ---- contractions: optimized ------------------------------------------------------------------

TEST(HfBasis, OptimizedContractionsLeaveOutWhatAnUncontractedShellRepeats) {
  const BasisSet file = read_gaussian94(shipped("basis/cc-pvdz.gbs"));
  BasisSet cc = file;
  const std::map<int, int> removed = remove_shared_primitives(cc);
  // Every element's s contractions share their last primitive with the uncontracted s shell, and
  // so do p's from boron on; hydrogen's one s contraction, too.
  EXPECT_EQ(removed.at(1), 1);
  EXPECT_EQ(removed.at(8), 3);
  const std::vector<Shell>& o = cc.shells_of_element.at(8);
  const std::vector<Shell>& o_file = file.shells_of_element.at(8);
  ASSERT_EQ(ls_of(o), (std::vector<int>{0, 0, 0, 1, 1, 2}));
  const std::vector<std::size_t> sizes{8, 8, 1, 3, 1, 1};
  for (std::size_t k = 0; k < o.size(); ++k) {
    SCOPED_TRACE("oxygen shell " + std::to_string(k));
    ASSERT_EQ(o[k].exponents.size(), sizes[k]);
    // The primitives kept keep their coefficients; the one left out was the last.
    for (std::size_t p = 0; p < sizes[k]; ++p) {
      EXPECT_EQ(o[k].exponents[p], o_file[k].exponents[p]);
      EXPECT_EQ(o[k].coefficients[p], o_file[k].coefficients[p]);
    }
  }
  EXPECT_EQ(o_file[0].exponents.back(), o_file[2].exponents[0]);
  EXPECT_EQ(cc.shells_of_element.at(1)[0].exponents.size(), 3u);

  for (const char* name : {"basis/sto-3g.gbs", "basis/6-31g.gbs", "basis/6-31g-star.gbs"}) {
    BasisSet pople = read_gaussian94(shipped(name));
    EXPECT_TRUE(remove_shared_primitives(pople).empty()) << name;
  }

  // What must stay: an exponent two contractions share; one an uncontracted shell of another l
  // repeats; a contraction that would be left with nothing, or with a zero coefficient only. What
  // goes: the primitive of the last contraction that its carbon's uncontracted s repeats.
  TempDir dir;
  BasisSet snippet = read_gaussian94(dir.write("snippet.gbs",
                                               "C 0\n"
                                               "S 2 1.00\n  5.0 0.4\n  2.0 0.6\n"
                                               "S 2 1.00\n  2.0 0.3\n  0.9 0.7\n"
                                               "P 1 1.00\n  5.0 1.0\n"
                                               "S 2 1.00\n  0.4 0.5\n  0.2 0.5\n"
                                               "S 2 1.00\n  0.15 1.0\n  0.08 0.0\n"
                                               "S 3 1.00\n  9.0 0.2\n  3.0 0.5\n  0.1 0.3\n"
                                               "S 1 1.00\n  0.4 1.0\n"
                                               "S 1 1.00\n  0.2 1.0\n"
                                               "S 1 1.00\n  0.15 1.0\n"
                                               "S 1 1.00\n  0.1 1.0\n"
                                               "****\n"));
  const BasisSet before = snippet;
  const std::map<int, int> snippet_removed = remove_shared_primitives(snippet);
  EXPECT_EQ(snippet_removed, (std::map<int, int>{{6, 1}}));
  const std::vector<Shell>& c = snippet.shells_of_element.at(6);
  for (std::size_t k = 0; k < c.size(); ++k) {
    if (k == 5) continue;
    EXPECT_EQ(c[k].exponents, before.shells_of_element.at(6)[k].exponents) << "shell " << k;
  }
  EXPECT_EQ(c[5].exponents, (std::vector<double>{9.0, 3.0}));
  EXPECT_EQ(c[5].coefficients, (std::vector<double>{0.2, 0.5}));
}

// Each row of `before` is a combination of the rows of `after` (over the same primitives,
// `exponents`, a missing one a zero): solved on the columns where all but one of `after` vanish,
// checked on every column.
void expect_same_span(const std::vector<std::vector<double>>& before,
                      const std::vector<std::vector<double>>& after) {
  const std::size_t n = after.size(), m = after[0].size();
  std::vector<std::size_t> own(n, m);  // a column where only after[i] is nonzero
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < m && own[i] == m; ++k) {
      bool only = after[i][k] != 0.0;
      for (std::size_t j = 0; j < n; ++j)
        only = only && (j == i || after[j][k] == 0.0);
      if (only) own[i] = k;
    }
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_LT(own[i], m) << "recombined function " << i << " has no primitive of its own";
  for (const auto& row : before) {
    std::vector<double> weight(n);
    for (std::size_t i = 0; i < n; ++i)
      weight[i] = row[own[i]] / after[i][own[i]];
    for (std::size_t k = 0; k < m; ++k) {
      double sum = 0.0;
      for (std::size_t i = 0; i < n; ++i)
        sum += weight[i] * after[i][k];
      EXPECT_NEAR(sum, row[k], 1e-12) << "primitive " << k;
    }
  }
}

// The coefficients of each of `shells` over `exponents`, zero where a shell lacks one.
std::vector<std::vector<double>> rows_over(const std::vector<Shell>& shells,
                                           const std::vector<double>& exponents) {
  std::vector<std::vector<double>> rows;
  for (const Shell& shell : shells) {
    std::vector<double> row(exponents.size(), 0.0);
    for (std::size_t p = 0; p < shell.exponents.size(); ++p)
      for (std::size_t k = 0; k < exponents.size(); ++k)
        if (shell.exponents[p] == exponents[k]) row[k] = shell.coefficients[p];
    rows.push_back(row);
  }
  return rows;
}

TEST(HfBasis, RecombinedContractionsKeepTheSpanWithFewerPrimitives) {
  BasisSet cc = read_gaussian94(shipped("basis/cc-pvdz.gbs"));
  remove_shared_primitives(cc);
  const BasisSet before = cc;
  const std::map<int, int> lost = recombine_shared_contractions(cc);
  // Hydrogen has one contraction per l; from lithium on, each element's two or three s
  // contractions (and from sodium on, its two p ones) over the same primitives lose one
  // primitive per pivot of the others.
  EXPECT_EQ(lost.count(1), 0u);
  EXPECT_EQ(lost.at(8), 2);
  EXPECT_EQ(lost.at(11), 3 * 2 + 2);
  for (const auto& [z, shells] : cc.shells_of_element) {
    const std::vector<Shell>& old = before.shells_of_element.at(z);
    ASSERT_EQ(ls_of(shells), ls_of(old)) << "Z = " << z;
    for (int l = 0; l <= 1; ++l) {
      // The contractions of this l over more than one primitive, before and after.
      std::vector<Shell> was, now;
      for (std::size_t k = 0; k < shells.size(); ++k)
        if (old[k].l == l && old[k].exponents.size() > 1) {
          was.push_back(old[k]);
          now.push_back(shells[k]);
        }
      if (was.size() < 2) continue;
      SCOPED_TRACE("Z = " + std::to_string(z) + ", l = " + std::to_string(l));
      expect_same_span(rows_over(was, was[0].exponents), rows_over(now, was[0].exponents));
    }
  }
  // Oxygen's 1s keeps no primitive under 5 (its tail, 1.013, goes), and its 2s loses one.
  const std::vector<Shell>& o = cc.shells_of_element.at(8);
  EXPECT_EQ(o[0].exponents.size(), 7u);
  EXPECT_EQ(o[1].exponents.size(), 7u);
  EXPECT_GT(*std::min_element(o[0].exponents.begin(), o[0].exponents.end()), 5.0);
  EXPECT_LT(*std::min_element(o[1].exponents.begin(), o[1].exponents.end()), 1.1);

  // Nothing to recombine in the Pople sets; contractions that are multiples of each other, or
  // over different primitives, stay as they are.
  for (const char* name : {"basis/sto-3g.gbs", "basis/6-31g.gbs", "basis/6-31g-star.gbs"}) {
    BasisSet pople = read_gaussian94(shipped(name));
    const BasisSet as_read = pople;
    EXPECT_TRUE(recombine_shared_contractions(pople).empty()) << name;
    for (const auto& [z, shells] : pople.shells_of_element)
      for (std::size_t k = 0; k < shells.size(); ++k)
        EXPECT_EQ(shells[k].coefficients, as_read.shells_of_element.at(z)[k].coefficients);
  }
  TempDir dir;
  BasisSet snippet = read_gaussian94(dir.write("snippet.gbs",
                                               "C 0\n"
                                               "S 2 1.00\n  5.0 0.4\n  2.0 0.6\n"
                                               "S 2 1.00\n  5.0 0.8\n  2.0 1.2\n"
                                               "S 2 1.00\n  3.0 0.3\n  0.9 0.7\n"
                                               "P 2 1.00\n  3.0 0.6\n  0.9 0.1\n"
                                               "D 2 1.00\n  1.5 0.5\n  0.5 0.5\n"
                                               "D 2 1.00\n  1.5 0.2\n  0.5 0.9\n"
                                               "D 2 1.00\n  1.5 0.7\n  0.5 0.1\n"
                                               "S 3 1.00\n  7.0 0.5\n  7.0 0.3\n  2.0 0.4\n"
                                               "S 3 1.00\n  7.0 0.2\n  2.0 0.6\n  2.0 0.3\n"
                                               "****\n"));
  const BasisSet snippet_before = snippet;
  // (Three d contractions over two primitives are dependent too; a contraction that repeats an
  // exponent is not matched primitive by primitive.)
  EXPECT_TRUE(recombine_shared_contractions(snippet).empty());
  for (std::size_t k = 0; k < 9; ++k)
    EXPECT_EQ(snippet.shells_of_element.at(6)[k].coefficients,
              snippet_before.shells_of_element.at(6)[k].coefficients);
}

// ---- a snippet with every feature ------------------------------------------------------------

TEST(HfBasis, ReadsSpShellsFortranExponentsScaleAndDShells) {
  TempDir dir;
  const std::string path = dir.write("snippet.gbs",
                                     "! a comment\n"
                                     "\n"
                                     "****\n"
                                     "c 0\n"
                                     "S   2   1.00\n"
                                     "  7.1D+01   0.15D+00\n"
                                     "  1.3e+01   0.85\n"
                                     "SP  1   2.00\n"
                                     "  0.5D+00  -0.25D+00   0.75D+00\n"
                                     "   ! a comment inside a block\n"
                                     "****\n"
                                     "He 0\n"
                                     "L 1 1.00\n"
                                     "  2.0 0.3 0.4\n"
                                     "****\n"
                                     "Fe 0\n"
                                     "S 1 1.00\n"
                                     "  1.0 1.0\n"
                                     "D 2 1.00\n"
                                     "  3.0 0.6\n"
                                     "  0.5 0.4\n"
                                     "****\n");
  const BasisSet basis = read_gaussian94(path);
  EXPECT_EQ(basis.name, "snippet");
  EXPECT_EQ(basis.path, path);
  ASSERT_EQ(basis.shells_of_element.size(), 3u);
  EXPECT_EQ(basis.max_l(), 2);

  const std::vector<Shell>& c = basis.shells_of_element.at(6);
  ASSERT_EQ(ls_of(c), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(c[0].exponents, (std::vector<double>{71.0, 13.0}));
  EXPECT_EQ(c[0].coefficients, (std::vector<double>{0.15, 0.85}));
  // SCALE 2 multiplies the exponent by 4; the coefficients stay as written.
  EXPECT_EQ(c[1].exponents, (std::vector<double>{2.0}));
  EXPECT_EQ(c[2].exponents, (std::vector<double>{2.0}));
  EXPECT_EQ(c[1].coefficients, (std::vector<double>{-0.25}));
  EXPECT_EQ(c[2].coefficients, (std::vector<double>{0.75}));

  const std::vector<Shell>& he = basis.shells_of_element.at(2);
  ASSERT_EQ(ls_of(he), (std::vector<int>{0, 1}));
  EXPECT_EQ(he[0].coefficients, (std::vector<double>{0.3}));
  EXPECT_EQ(he[1].coefficients, (std::vector<double>{0.4}));

  const std::vector<Shell>& fe = basis.shells_of_element.at(26);
  ASSERT_EQ(ls_of(fe), (std::vector<int>{0, 2}));
  EXPECT_EQ(fe[1].exponents, (std::vector<double>{3.0, 0.5}));
  EXPECT_EQ(function_count(fe), 7);

  EXPECT_EQ(unsupported_shell_problem(basis, {6, 2, 26}, 2), "");
  const std::string problem = unsupported_shell_problem(basis, {26, 6, 2}, 1);
  EXPECT_CONTAINS(problem, "Fe");
  EXPECT_CONTAINS(problem, "d functions are not supported");
  // Only the molecule's elements count: without iron, nothing above p.
  EXPECT_EQ(unsupported_shell_problem(basis, {6, 2}, 1), "");
  EXPECT_EQ(missing_element_problem(basis, {6, 2, 26}), "");
  EXPECT_CONTAINS(missing_element_problem(basis, {6, 1}), "H (Z = 1)");
}

// ---- malformed basis files -------------------------------------------------------------------

struct MalformedBasis {
  const char* what;
  const char* content;
  int line;            // where the reader must point
  const char* phrase;  // part of its message
};

TEST(HfBasis, RefusesMalformedFilesNamingPathAndLine) {
  const MalformedBasis cases[] = {
      {"unknown element", "H 0\nS 1 1.00\n 1.0 1.0\n****\nXx 0\nS 1 1.00\n 1.0 1.0\n****\n", 5,
       "'Xx 0'"},
      {"unknown shell type", "! c\nH 0\nS 1 1.00\n 1.0 1.0\nQ 1 1.00\n 1.0 1.0\n****\n", 5,
       "shell type"},
      {"too few numbers", "H 0\nS 2 1.00\n 1.0 1.0\n 2.0\n****\n", 4, "found 1"},
      {"too many numbers", "H 0\nS 1 1.00\n 1.0 1.0 3.0\n****\n", 3, "found 3"},
      {"too few numbers on an SP line", "C 0\nSP 1 1.00\n 1.0 1.0\n****\n", 3, "found 2"},
      {"not a number", "H 0\nS 2 1.00\n 1.0 1.0\n 2.0 0.5x\n****\n", 4, "'0.5x'"},
      {"zero exponent", "H 0\nS 1 1.00\n 0.0D+00 1.0\n****\n", 3, "positive exponent"},
      {"negative exponent", "H 0\nS 1 1.00\n -1.0 1.0\n****\n", 3, "positive exponent"},
      {"missing **** before the next element", "H 0\nS 1 1.00\n 1.0 1.0\nHe 0\nS 1 1.00\n", 4,
       "****"},
      {"missing **** before a symbol that is also a shell type",
       "H 0\nS 1 1.00\n 1.0 1.0\nP 0\nS 1 1.00\n 1.0 1.0\n****\n", 4, "****"},
      {"missing **** at the end", "H 0\nS 1 1.00\n 1.0 1.0\n", 3, "****"},
      {"an element twice", "H 0\nS 1 1.00\n 1.0 1.0\n****\nh 0\nS 1 1.00\n 1.0 1.0\n****\n", 5,
       "first on line 1"},
      {"the end of the file inside a shell", "H 0\nS 3 1.00\n 1.0 1.0\n", 3, "end of the file"},
      {"a bad primitive count", "H 0\nS x 1.00\n 1.0 1.0\n****\n", 2, "'x'"},
      {"only comments", "! nothing\n\n! here\n", 3, "at least one element"},
      {"an empty file", "", 1, "at least one element"},
  };
  TempDir dir;
  int index = 0;
  for (const MalformedBasis& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string path = dir.write("bad" + std::to_string(index++) + ".gbs", c.content);
    const std::string message = input_error_of([&] { read_gaussian94(path); });
    EXPECT_CONTAINS(message, path + ":" + std::to_string(c.line) + ": expected");
    EXPECT_CONTAINS(message, c.phrase);
  }
}

TEST(HfBasis, RefusesAnUnreadableFile) {
  TempDir dir;
  const std::string path = dir.file("absent.gbs");
  EXPECT_CONTAINS(input_error_of([&] { read_gaussian94(path); }), path);
}

// ---- molecules -------------------------------------------------------------------------------

// fock_algorithm auto turns to split at kSplitFromAtoms, not one atom either side.
TEST(HfSetup, AutomaticFockAlgorithmSplitsFromItsAtomCount) {
  EXPECT_EQ(automatic_fock_algorithm(1), FockAlgorithm::fused);
  EXPECT_EQ(automatic_fock_algorithm(kSplitFromAtoms - 1), FockAlgorithm::fused);
  EXPECT_EQ(automatic_fock_algorithm(kSplitFromAtoms), FockAlgorithm::split);
  EXPECT_EQ(automatic_fock_algorithm(3 * 512), FockAlgorithm::split);
}

TEST(HfMolecule, ReadsWaterInBohr) {
  const Molecule water = read_xyz(shipped("molecules/water-001.xyz"), Units::angstrom);
  ASSERT_EQ(water.atoms.size(), 3u);
  EXPECT_EQ(water.electrons(), 10);
  EXPECT_EQ(water.charge, 0);
  EXPECT_EQ(water.atoms[0].atomic_number, 8);
  EXPECT_EQ(water.atoms[1].atomic_number, 1);
  EXPECT_EQ(water.atoms[2].atomic_number, 1);
  EXPECT_EQ(water.atoms[0].x, 0.0);
  EXPECT_EQ(water.atoms[0].z, 0.117300 * kBohrPerAngstrom);
  EXPECT_EQ(water.atoms[1].y, 0.757200 * kBohrPerAngstrom);
  EXPECT_EQ(water.atoms[2].y, -0.757200 * kBohrPerAngstrom);
  EXPECT_EQ(water.atoms[2].z, -0.469200 * kBohrPerAngstrom);
  // Computed independently with /usr/bin/python3 from the same geometry and constant:
  //   k = 1/0.529177210903; atoms O (0, 0, 0.1173), H (0, +-0.7572, -0.4692) Angstrom, times k;
  //   sum over pairs of Z_a Z_b / |r_a - r_b|  ->  9.189533762639684 hartree.
  expect_relative(water.nuclear_repulsion(), 9.189533762639684, 1e-12);
  EXPECT_EQ(molecule_problem(water), "");
}

TEST(HfMolecule, BohrLeavesNumbersUnchanged) {
  const Molecule water = read_xyz(shipped("molecules/water-001.xyz"), Units::bohr);
  ASSERT_EQ(water.atoms.size(), 3u);
  EXPECT_EQ(water.atoms[0].z, 0.117300);
  EXPECT_EQ(water.atoms[1].y, 0.757200);
  EXPECT_EQ(water.atoms[1].z, -0.469200);
}

TEST(HfMolecule, TheLargestClusterIsFine) {
  const Molecule cluster = read_xyz(shipped("molecules/water-128.xyz"), Units::angstrom);
  EXPECT_EQ(cluster.atoms.size(), 384u);
  EXPECT_EQ(cluster.electrons(), 1280);
  EXPECT_EQ(molecule_problem(cluster), "");
}

// An extra column is refused by its line, not ignored: a fifth field may be a charge or a
// coordinate that a sixth was meant to follow, and kmini would not read it.
TEST(HfMolecule, ReadsLowerCaseSymbolsAndBlankLinesAndRefusesExtraColumns) {
  TempDir dir;
  const std::string path = dir.write("h2.xyz", "2\n\nh 0 0 0\nH 0 0 0.74\r\n\n  \n");
  const Molecule h2 = read_xyz(path, Units::angstrom);
  ASSERT_EQ(h2.atoms.size(), 2u);
  EXPECT_EQ(h2.atoms[0].atomic_number, 1);
  EXPECT_EQ(h2.atoms[1].z, 0.74 * kBohrPerAngstrom);
  EXPECT_EQ(h2.electrons(), 2);
  const std::string extra = dir.write("extra.xyz", "2\n\nh 0 0 0 extra 1\nH 0 0 0.74\n");
  try {
    read_xyz(extra, Units::angstrom);
    ADD_FAILURE() << "an atom line of six fields was read";
  } catch (const InputError& e) {
    EXPECT_CONTAINS(e.what(), "extra.xyz:3: expected an atom line 'Symbol x y z'");
    EXPECT_CONTAINS(e.what(), "(6 fields; kmini reads no fifth)");
  }
}

TEST(HfMolecule, RefusesAtomsTooClose) {
  Molecule molecule;
  molecule.atoms = {
      {8, 0.0, 0.0, 0.0}, {1, 0.0, 0.0, 1.0}, {1, 0.0, 0.0, 1.0 + 0.05 * kBohrPerAngstrom}};
  const std::string problem = molecule_problem(molecule);
  EXPECT_CONTAINS(problem, "2 (H)");
  EXPECT_CONTAINS(problem, "3 (H)");
  EXPECT_CONTAINS(problem, "0.05 Angstrom");
}

// The closest-pair check goes by grid cells: the pair it names is the one comparing every pair
// in order names (the lowest later atom, then the lowest earlier one), and 50,000 atoms take
// no time.
TEST(HfMolecule, TheFirstPairTooCloseIsFoundInLinearTime) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> coordinate(-3.0, 3.0);
  const double minimum = 0.1 * kBohrPerAngstrom;
  for (int trial = 0; trial < 200; ++trial) {
    Molecule molecule;
    for (int a = 0; a < 40; ++a)
      molecule.atoms.push_back({1, coordinate(rng), coordinate(rng), coordinate(rng)});
    std::string expected;
    for (std::size_t a = 0; a < molecule.atoms.size() && expected.empty(); ++a)
      for (std::size_t b = 0; b < a && expected.empty(); ++b) {
        const Atom &x = molecule.atoms[a], &y = molecule.atoms[b];
        const double r = std::sqrt((x.x - y.x) * (x.x - y.x) + (x.y - y.y) * (x.y - y.y) +
                                   (x.z - y.z) * (x.z - y.z));
        if (r < minimum)
          expected =
              "atoms " + std::to_string(b + 1) + " (H) and " + std::to_string(a + 1) + " (H)";
      }
    const std::string problem = molecule_problem(molecule);
    if (expected.empty()) {
      EXPECT_EQ(problem.find("Angstrom apart"), std::string::npos) << problem;
    } else {
      EXPECT_EQ(problem.rfind(expected, 0), 0u) << problem << " / " << expected;
    }
  }
  Molecule lattice;
  for (int i = 0; i < 50000; ++i)
    lattice.atoms.push_back({1, 2.0 * (i % 50), 2.0 * (i / 50 % 50), 2.0 * (i / 2500)});
  lattice.atoms.push_back({1, 98.0, 98.0, 38.0 + 0.1});
  const auto start = std::chrono::steady_clock::now();
  EXPECT_CONTAINS(molecule_problem(lattice), "atoms 50000 (H) and 50001 (H)");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20.0);
}

TEST(HfMolecule, RefusesAnOddOrEmptyElectronCount) {
  Molecule water = read_xyz(shipped("molecules/water-001.xyz"), Units::angstrom);
  water.charge = 1;
  EXPECT_EQ(water.electrons(), 9);
  std::string problem = molecule_problem(water);
  EXPECT_CONTAINS(problem, "even");
  EXPECT_CONTAINS(problem, " 9 ");
  EXPECT_CONTAINS(problem, "charge 1");

  water.charge = 10;
  problem = molecule_problem(water);
  EXPECT_CONTAINS(problem, "0 electrons");
  EXPECT_CONTAINS(problem, "charge 10");
}

struct MalformedXyz {
  const char* what;
  const char* content;
  int line;
  const char* phrase;
};

TEST(HfMolecule, RefusesMalformedFilesNamingPathAndLine) {
  const MalformedXyz cases[] = {
      {"unknown element", "2\nc\nO 0 0 0\nXx 0 0 1\n", 4, "'Xx'"},
      {"a count that is not a number", "three\nc\nO 0 0 0\n", 1, "'three'"},
      {"a zero count", "0\nc\n", 1, "'0'"},
      {"a count past the limit", "1000000\nc\nH 0 0 0\n", 1, "at most 30000 atoms"},
      {"a negative count", "-2\nc\n", 1, "'-2'"},
      {"an empty file", "", 1, "number of atoms"},
      {"no comment line", "1\n", 2, "comment line"},
      {"too few atom lines", "3\nc\nO 0 0 0\nH 0 1 0\n", 5, "found 2"},
      // Count 1 on water ran a lone O atom.
      {"more atom lines than the count", "1\nc\nO 0 0 0\nH 0 1 0\nH 1 0 0\n", 4, "'H 0 1 0'"},
      {"a second molecule after a blank line", "1\nc\nH 0 0 0\n\n1\nc\nH 0 0 1\n", 5, "'1'"},
      {"a short atom line", "1\nc\nO 0 0\n", 3, "'O 0 0'"},
      {"a coordinate that is not a number", "1\nc\nO 0 zero 0\n", 3, "'zero'"},
  };
  TempDir dir;
  int index = 0;
  for (const MalformedXyz& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string path = dir.write("bad" + std::to_string(index++) + ".xyz", c.content);
    const std::string message = input_error_of([&] { read_xyz(path, Units::angstrom); });
    EXPECT_CONTAINS(message, path + ":" + std::to_string(c.line) + ": expected");
    EXPECT_CONTAINS(message, c.phrase);
  }
}

TEST(HfMolecule, RefusesAnUnreadableFile) {
  TempDir dir;
  const std::string path = dir.file("absent.xyz");
  EXPECT_CONTAINS(input_error_of([&] { read_xyz(path, Units::angstrom); }), path);
}

}  // namespace
}  // namespace kmini::hf
