// Report writing: the tree reads back the same in YAML and JSON, and a file is either complete
// or absent.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/build_info.hpp"
#include "core/ceiling.hpp"
#include "core/config.hpp"
#include "core/error.hpp"
#include "core/headline.hpp"
#include "core/input_file.hpp"
#include "core/registry.hpp"
#include "core/report.hpp"
#include "core/tree.hpp"
#include "support/expect.hpp"
#include "support/process.hpp"
#include "support/test_paths.hpp"

namespace kmini {
namespace {

using testing::read_file;
using testing::TempDir;

Tree sample_tree() {
  Tree t = Tree::map();
  t["version"] = "1.0";  // a string that looks like a number must stay a string
  t["count"] = 42;
  t["ratio"] = 0.1;
  t["whole"] = 3.0;
  t["flag"] = true;
  t["nothing"] = Tree();
  t["text"] = "quote \" backslash \\ newline \n tab \t colon: hash # end";
  t["odd key: with colon"] = 1;
  t["scalars"] = Tree::from_value(std::vector<std::int64_t>{1, 2, 3});
  t["empty_list"] = Tree::list();
  t["empty_map"] = Tree::map();
  Tree runs = Tree::list();
  for (int i = 0; i < 2; ++i) {
    Tree run = Tree::map();
    run["name"] = "run" + std::to_string(i);
    run["nested"]["deep"] = Tree::from_value(std::vector<double>{1.5, -2.25e-300});
    Tree inner = Tree::list();
    inner.push_back(Tree::from_value(std::vector<std::string>{"a", "b"}));
    inner.push_back(7);
    run["lists"] = inner;
    runs.push_back(run);
  }
  t["runs"] = runs;
  return t;
}

void expect_sample(const YAML::Node& n) {
  EXPECT_EQ(n["version"].Scalar(), "1.0");
  EXPECT_EQ(n["version"].Tag(), "!");  // quoted
  EXPECT_EQ(n["count"].as<int>(), 42);
  EXPECT_EQ(n["ratio"].as<double>(), 0.1);
  EXPECT_EQ(n["whole"].as<double>(), 3.0);
  EXPECT_TRUE(n["flag"].as<bool>());
  EXPECT_TRUE(n["nothing"].IsNull());
  EXPECT_EQ(n["text"].as<std::string>(),
            "quote \" backslash \\ newline \n tab \t colon: hash # end");
  EXPECT_EQ(n["odd key: with colon"].as<int>(), 1);
  EXPECT_EQ(n["scalars"].as<std::vector<int>>(), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(n["empty_list"].size(), 0u);
  EXPECT_TRUE(n["empty_list"].IsSequence());
  EXPECT_TRUE(n["empty_map"].IsMap());
  ASSERT_EQ(n["runs"].size(), 2u);
  EXPECT_EQ(n["runs"][1]["name"].as<std::string>(), "run1");
  EXPECT_EQ(n["runs"][0]["nested"]["deep"][1].as<double>(), -2.25e-300);
  EXPECT_EQ(n["runs"][0]["lists"][0][1].as<std::string>(), "b");
  EXPECT_EQ(n["runs"][0]["lists"][1].as<int>(), 7);
}

TEST(ReportTree, YamlReadsBackTheSame) {
  std::ostringstream out;
  write_yaml(sample_tree(), out);
  expect_sample(YAML::Load(out.str()));
}

TEST(ReportTree, JsonReadsBackTheSame) {
  std::ostringstream out;
  write_json(sample_tree(), out);
  expect_sample(YAML::Load(out.str()));  // JSON is YAML
  EXPECT_EQ(out.str().front(), '{');
}

TEST(ReportTree, KeysKeepInsertionOrder) {
  Tree t = Tree::map();
  t["zebra"] = 1;
  t["apple"] = 2;
  t["zebra"] = 3;  // assignment to an existing key keeps its place
  std::ostringstream out;
  write_yaml(t, out);
  EXPECT_EQ(out.str(), "zebra: 3\napple: 2\n");
}

TEST(ReportTree, NonFiniteNumbers) {
  Tree t = Tree::map();
  t["nan"] = std::nan("");
  t["inf"] = INFINITY;
  std::ostringstream yaml;
  write_yaml(t, yaml);
  const YAML::Node n = YAML::Load(yaml.str());
  EXPECT_TRUE(std::isnan(n["nan"].as<double>()));
  EXPECT_TRUE(std::isinf(n["inf"].as<double>()));
  std::ostringstream json;
  write_json(t, json);
  EXPECT_NE(json.str().find("\"nan\": null"), std::string::npos) << json.str();
}

TEST(AtomicFile, WritesTheWholeContent) {
  TempDir dir;
  const std::string path = dir.file("report.yaml");
  write_file_atomically(path, [](std::ostream& out) { write_yaml(sample_tree(), out); });
  expect_sample(YAML::LoadFile(path));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"report.yaml"});  // no temporary left
}

TEST(AtomicFile, FailureMidwayLeavesNoFile) {
  TempDir dir;
  const std::string path = dir.file("report.yaml");
  EXPECT_THROW(write_file_atomically(path,
                                     [](std::ostream& out) {
                                       out << "meta:\n  half: written\n";
                                       throw RuntimeFailure("the run broke off");
                                     }),
               RuntimeFailure);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(AtomicFile, FailureMidwayKeepsTheOldReport) {
  TempDir dir;
  const std::string path = dir.write("report.yaml", "old: complete\n");
  EXPECT_THROW(write_file_atomically(path,
                                     [](std::ostream& out) {
                                       out << "new: half";
                                       throw std::runtime_error("broken");
                                     }),
               std::runtime_error);
  EXPECT_EQ(read_file(path), "old: complete\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"report.yaml"});
}

TEST(AtomicFile, ReplacesAnOldReportWhole) {
  TempDir dir;
  const std::string path = dir.write("report.yaml", "old: complete\n");
  write_file_atomically(path, [](std::ostream& out) { out << "new: complete\n"; });
  EXPECT_EQ(read_file(path), "new: complete\n");
}

// A file the run read keeps its identity when moved, but not once its inode holds other
// contents: a file read and deleted frees its inode, which the next file made (the report) may
// get. Matched by inode alone, the report was refused as the deleted input.
TEST(AtomicFile, AnInputsInodeHoldingOtherContentsIsNoLongerTheInput) {
  TempDir dir;
  const std::string read = dir.write("snippet.gbs", "H 0\n");
  open_input_file(read, "basis set file");
  const std::string moved = dir.file("moved.gbs");
  ASSERT_EQ(std::rename(read.c_str(), moved.c_str()), 0);
  EXPECT_NE(read_file_at(moved), "");                          // the same file, by another name
  std::ofstream(moved, std::ios::trunc) << "old: complete\n";  // the same inode, rewritten
  EXPECT_EQ(read_file_at(moved), "");
  write_file_atomically(moved, [](std::ostream& out) { out << "new: complete\n"; });
  EXPECT_EQ(read_file(moved), "new: complete\n");
}

TEST(AtomicFile, UnwritablePathsAreInputErrors) {
  TempDir dir;
  EXPECT_THROW(check_writable_path(dir.file("missing/report.yaml"), "--report"), InputError);
  EXPECT_THROW(check_writable_path(dir.path(), "--report"), InputError);
  const std::string file = dir.write("plain", "x");
  EXPECT_THROW(check_writable_path(file + "/report.yaml", "--report"), InputError);
  EXPECT_NO_THROW(check_writable_path(dir.file("report.yaml"), "--report"));
  try {
    check_writable_path(dir.file("missing/report.yaml"), "--report");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("folder '" + dir.file("missing") + "' does not exist"),
              std::string::npos)
        << e.what();
  }
}

TEST(Summary, ValidOnlyWhenEverythingPassed) {
  Summary s;
  EXPECT_FALSE(s.valid());  // nothing ran: nothing was validated
  s.results = 3;
  s.passed = 3;
  EXPECT_TRUE(s.valid());
  EXPECT_EQ(s.line(), "VALID: 3 of 3 results passed validation");
  s.passed = 2;
  s.failed = 1;
  EXPECT_EQ(s.line(), "INVALID: 2 of 3 results passed validation");
  s.failed = 0;
  s.passed = 3;
  s.run_errors = 1;
  EXPECT_FALSE(s.valid());
  s.run_errors = 0;
  s.probe_failed = true;
  EXPECT_FALSE(s.valid());
  EXPECT_EQ(s.line(),
            "INVALID: 3 of 3 results passed validation, a ceiling probe failed validation");
}

TEST(Summary, RatingAgainstAReference) {
  Summary s;
  s.results = 2;
  s.passed = 2;
  s.reference_device = "Test GPU";
  s.rating = 1.25;
  EXPECT_EQ(s.line(),
            "VALID with a rating of 1.25 (1 = Test GPU): 2 of 2 results passed validation");
  s.overrides = {"a.size=3"};
  EXPECT_EQ(s.line(),
            "VALID with a rating of 1.25 (1 = Test GPU): 2 of 2 results passed validation; inputs "
            "changed by --set a.size=3");
  s.overrides.clear();
  s.passed = 1;
  s.failed = 1;
  EXPECT_EQ(s.line(), "INVALID: 1 of 2 results passed validation; no rating");
  EXPECT_TRUE(s.to_tree()["rating"]["value"].is_null());
}

// A run of `variants` results with these figures of merit and validation outcomes.
struct FakeRun {
  RunSpec spec;
  AppSpec app;
  std::vector<VariantSpec> variants;
  RunResult result;
  FakeRun(const std::string& label, const std::vector<std::pair<double, bool>>& foms) {
    app.name = "demo";
    app.fom = FigureOfMerit{"bandwidth", "GB/s"};
    for (std::size_t i = 0; i < foms.size(); ++i)
      variants.push_back(VariantSpec{"v" + std::to_string(i), "", 1.0,
                                     i == 0 ? on_device().as_baseline() : on_device()});
    spec.app = &app;
    spec.settings[kLabelKey] = Setting{Value(label), SourceMark{}, true};
    result.spec = &spec;
    for (std::size_t i = 0; i < foms.size(); ++i) {
      VariantResult r;
      r.variant = &variants[i];
      r.fom = foms[i].first;
      r.validation.status = foms[i].second ? Validation::Status::pass : Validation::Status::fail;
      result.results.push_back(r);
    }
  }
};

// A validated result past its ceiling's probe (noise in one run against the probe's best of ten)
// raises that ceiling to the fastest such result's, and every result of that ceiling is quoted
// against it; a failed result raises nothing and another ceiling's results are left as they were.
TEST(Ceilings, AValidatedResultPastTheProbeRaisesItsCeilingForEveryResult) {
  Ceilings ceilings;
  ceilings.measured = true;
  ceilings.kinds[Ceiling::copy].gbps = 100.0;
  ceilings.kinds[Ceiling::read].gbps = 120.0;
  ceilings.methods = {{Ceiling::copy, "copied"}, {Ceiling::read, "read"}};
  FakeRun copying("copying", {{50.0, true}, {103.0, true}, {150.0, false}});
  copying.app.ceiling = Ceiling::copy;
  FakeRun reading("reading", {{110.0, true}});
  reading.app.ceiling = Ceiling::read;
  for (FakeRun* run : {&copying, &reading}) {
    for (VariantResult& r : run->result.results) {
      r.bandwidth_gbps = r.fom;
      r.percent_of_ceiling = 100.0 * r.fom / ceilings.kinds[run->app.ceiling].gbps;
    }
  }
  std::vector<RunResult> results = {copying.result, reading.result};
  raise_ceilings_to_results(ceilings, results);
  const Ceilings::Kind& copy = ceilings.kinds[Ceiling::copy];
  EXPECT_EQ(copy.gbps, 103.0);
  EXPECT_EQ(copy.probed_gbps, 100.0);
  EXPECT_EQ(copy.raised_by, "copying: v1");
  EXPECT_NEAR(*results[0].results[0].percent_of_ceiling, 100.0 * 50.0 / 103.0, 1e-12);
  EXPECT_NEAR(*results[0].results[1].percent_of_ceiling, 100.0, 1e-12);
  EXPECT_NEAR(*results[0].results[2].percent_of_ceiling, 100.0 * 150.0 / 103.0, 1e-12);
  EXPECT_EQ(ceilings.kinds[Ceiling::read].gbps, 120.0);
  EXPECT_TRUE(ceilings.kinds[Ceiling::read].raised_by.empty());
  EXPECT_NEAR(*results[1].results[0].percent_of_ceiling, 100.0 * 110.0 / 120.0, 1e-12);
  std::ostringstream yaml;
  write_yaml(ceilings.to_tree(), yaml);
  const YAML::Node tree = YAML::Load(yaml.str());
  EXPECT_EQ(tree["copy"]["raised_by"].as<std::string>(), "copying: v1");
  EXPECT_EQ(tree["copy"]["probed_GBps"].as<double>(), 100.0);
  EXPECT_EQ(tree["copy"]["bandwidth_GBps"].as<double>(), 103.0);
  EXPECT_FALSE(tree["read"]["raised_by"]);
}

// The digest of the Kokkos patches that meta.kokkos.patches and --version show: from the stamp of
// the Kokkos found at configure time, which for setup.sh's Kokkos is the digest of the
// checkout's cmake/patches/ (computed apart from the stamp, in tests/CMakeLists.txt).
TEST(BuildInfo, KokkosPatchesAreTheDigestOfThisBuildsKokkos) {
  const std::string& patches = build_info().kokkos_patches;
  EXPECT_TRUE(testing::is_kokkos_patches_digest(patches)) << patches;
  EXPECT_EQ(patches, testing::expected_kokkos_patches());
  EXPECT_FALSE(testing::is_kokkos_patches_digest("0123456789ABCDEF"));
  EXPECT_FALSE(testing::is_kokkos_patches_digest("0123456789abcde"));
  EXPECT_FALSE(testing::is_kokkos_patches_digest(""));
}

TEST(Headlines, FastestValidatedResultAndRating) {
  const FakeRun a("a", {{10.0, true}, {40.0, true}, {90.0, false}});
  const FakeRun b("b", {{5.0, true}});
  SuiteReference reference;
  reference.device = "Test GPU";
  reference.figures = {{"a", 20.0}, {"b", 20.0}};
  auto headlines = find_headlines({a.result, b.result}, reference);
  ASSERT_EQ(headlines.size(), 2u);
  // The failed 90 is not a headline; and a run with a failure gets no ratio.
  EXPECT_EQ(headlines[0].fom, 40.0);
  EXPECT_EQ(headlines[0].variant, "v1");
  EXPECT_EQ(headlines[0].passed, 2);
  EXPECT_EQ(headlines[0].ran, 3);
  EXPECT_FALSE(headlines[0].ratio.has_value());
  EXPECT_EQ(headlines[1].ratio, 0.25);
  EXPECT_FALSE(rating_of(headlines).has_value());

  const FakeRun clean("a", {{10.0, true}, {40.0, true}});
  headlines = find_headlines({clean.result, b.result}, reference);
  EXPECT_EQ(headlines[0].ratio, 2.0);
  // The geometric mean of 2 and 0.25.
  ASSERT_TRUE(rating_of(headlines).has_value());
  EXPECT_NEAR(*rating_of(headlines), std::sqrt(0.5), 1e-15);
  EXPECT_FALSE(rating_of(find_headlines({clean.result}, std::nullopt)).has_value());
}

}  // namespace
}  // namespace kmini
