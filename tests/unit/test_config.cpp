// Config errors, one test per class: each names file:line:column, the key path, what was
// expected and what was found. And what valid inputs turn into: defaults, sweeps, variants.
#include <gtest/gtest.h>

#include <fstream>

#include "core/config.hpp"
#include "core/error.hpp"
#include "support/expect.hpp"
#include "support/process.hpp"

namespace kmini {
namespace {

using testing::TempDir;

// An app with a parameter of every type, so every conversion path is exercised.
AppRegistry demo_registry() {
  AppSpec app;
  app.name = "demo";
  app.doc = "test app";
  app.params = {
      ParamSpec::integer("size", 10, "an integer").range(1, 1000).sweepable(),
      ParamSpec::real("omega", 0.8, "a number").range(0.0, 2.0),
      ParamSpec::boolean("verbose", false, "a boolean"),
      ParamSpec::choice("precision", "double", {"float", "double"}, "a choice").sweepable(),
      ParamSpec::integer("levels", 1, "swept unless set")
          .swept_by_default({std::int64_t{1}, std::int64_t{2}}),
      ParamSpec::string("title", "none", "free text"),
      ParamSpec::path("molecule", "a file"),
      ParamSpec::integer_list("grid", {33, 33, 65}, "three integers").range(3, 4096).items(3, 3),
      ParamSpec::real_list("times", {0.5, 1.0}, "numbers").at_least(0.0),
      ParamSpec::real_matrix("covariance", "a matrix").items(1, 8),
      ParamSpec::integers_or_name("order", "forward", {"forward", "backward"}, "a sequence")
          .sweepable(),
  };
  app.variants = {{"fast", "the fast one", 2.0, on_device().as_baseline()},
                  {"slow", "the slow one", 3.0, on_device()}};
  app.check = [](const Params& p) {
    if (p.integer("size") == 13) p.reject("size", "13 is unlucky");
  };
  app.setup = [](const Params&, const RunContext&) -> std::unique_ptr<Case> { return nullptr; };
  AppSpec other = app;
  other.name = "other";
  other.check = nullptr;
  return AppRegistry({app, other});
}

Input load(const std::string& text, const std::vector<std::string>& sets = {}) {
  static const AppRegistry registry = demo_registry();
  std::vector<Override> overrides;
  for (const auto& s : sets)
    overrides.push_back(parse_override(s));
  return load_input_text(text, "in.yaml", "/nonexistent-base", overrides, registry);
}

// The message of the InputError that loading `text` throws.
std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  return testing::input_error_of([&] { load(text, sets); });
}

TEST(Config, SingleRunGetsDefaults) {
  const Input input = load("app: demo\n");
  ASSERT_EQ(input.runs.size(), 1u);
  EXPECT_FALSE(input.suite);
  const auto points = input.runs[0].points();
  ASSERT_EQ(points.size(), 2u);  // levels is swept by default
  EXPECT_EQ(points[0].integer("size"), 10);
  EXPECT_DOUBLE_EQ(points[0].real("omega"), 0.8);
  EXPECT_EQ(points[0].string("precision"), "double");
  EXPECT_EQ(points[0].integers("grid"), (std::vector<std::int64_t>{33, 33, 65}));
  EXPECT_FALSE(points[0].has("molecule"));
  EXPECT_FALSE(points[0].given("size"));
  EXPECT_EQ(points[0].integer("repetitions"), 10);
  EXPECT_EQ(input.runs[0].variants().size(), 2u);
}

TEST(Config, ValuesOfEveryType) {
  const Input input = load(
      "app: demo\nsize: 1e2\nomega: 1.5\nverbose: true\nprecision: float\ntitle: 42\n"
      "grid: [5, 6, 7]\ntimes: 3\ncovariance: [[1, 0.5], [0.5, 2]]\nvariant: slow\n");
  const Params p = input.runs[0].points()[0];
  EXPECT_EQ(p.integer("size"), 100);
  EXPECT_TRUE(p.given("size"));
  EXPECT_DOUBLE_EQ(p.real("omega"), 1.5);
  EXPECT_TRUE(p.boolean("verbose"));
  EXPECT_EQ(p.string("title"), "42");
  EXPECT_EQ(p.reals("times"), std::vector<double>{3.0});
  EXPECT_EQ(p.matrix("covariance").size(), 2u);
  EXPECT_DOUBLE_EQ(p.matrix("covariance")[1][1], 2.0);
  ASSERT_EQ(input.runs[0].variants().size(), 1u);
  EXPECT_EQ(input.runs[0].variants()[0]->name, "slow");
  EXPECT_EQ(p.mark("omega").str(), "in.yaml:3:8");
}

TEST(Config, SweepsExpandToTheCartesianProduct) {
  const Input input = load("app: demo\nprecision: [float, double]\nsize: [1, 2, 3]\nlevels: 1\n");
  const RunSpec& run = input.runs[0];
  const auto points = run.points();
  ASSERT_EQ(points.size(), 6u);
  // Schema order (size before precision), whatever the key order in the file.
  EXPECT_EQ(points[0].integer("size"), 1);
  EXPECT_EQ(points[0].string("precision"), "float");
  EXPECT_EQ(points[1].string("precision"), "double");
  EXPECT_EQ(points[5].integer("size"), 3);
  EXPECT_EQ(format_value(run.echoed("size")), "[1, 2, 3]");
}

TEST(Config, DefaultSweepsApplyUntilSet) {
  EXPECT_EQ(load("app: demo\n").runs[0].points().size(), 2u);
  EXPECT_EQ(load("app: demo\nlevels: 5\n").runs[0].points().size(), 1u);
  EXPECT_EQ(load("app: demo\n", {"demo.levels=[3, 4, 5]"}).runs[0].points().size(), 3u);
  EXPECT_CONTAINS(error_of("app: demo\nsize: []\n"), "found an empty list");
}

TEST(Config, VariantAllAndDuplicates) {
  const Input input = load("app: demo\nvariant: [slow, all, slow]\n");
  const auto variants = input.runs[0].variants();
  ASSERT_EQ(variants.size(), 2u);
  EXPECT_EQ(variants[0]->name, "slow");
  EXPECT_EQ(variants[1]->name, "fast");
}

TEST(Config, SuiteOfRuns) {
  const Input input = load(
      "name: nightly\ndescription: two runs\nruns:\n  - app: demo\n    size: 5\n"
      "  - app: other\n    label: second\n");
  EXPECT_TRUE(input.suite);
  EXPECT_EQ(input.name, "nightly");
  ASSERT_EQ(input.runs.size(), 2u);
  EXPECT_EQ(input.runs[0].key_path, "runs[0]");
  EXPECT_EQ(input.runs[1].app->name, "other");
  EXPECT_EQ(input.runs[1].label(), "second");
  EXPECT_EQ(input.runs[0].label(), "demo");
}

constexpr const char* kRatedSuite =
    "reference:\n"
    "  device: Test GPU\n"
    "  note: by hand\n"
    "  figures: {first: 100, second: 2.5e3}\n"
    "runs:\n"
    "  - app: demo\n"
    "    label: first\n"
    "  - app: other\n"
    "    label: second\n";

TEST(Config, SuiteReference) {
  const Input input = load(kRatedSuite);
  ASSERT_TRUE(input.reference.has_value());
  EXPECT_EQ(input.reference->device, "Test GPU");
  EXPECT_EQ(input.reference->note, "by hand");
  EXPECT_EQ(input.reference->figures.at("first"), 100.0);
  EXPECT_EQ(input.reference->figures.at("second"), 2500.0);
  EXPECT_FALSE(load("runs:\n  - app: demo\n").reference.has_value());
}

// Replaces the first `from` in the rated suite by `to`.
std::string rated_suite_with(const std::string& from, const std::string& to) {
  std::string text = kRatedSuite;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(ConfigErrors, SuiteReference) {
  EXPECT_CONTAINS(error_of(rated_suite_with("first: 100, ", "")),
                  "in.yaml:4:12: reference.figures: no figure for run 'first' (runs[0])");
  EXPECT_CONTAINS(error_of(rated_suite_with("second: 2.5e3", "second: 2.5e3, third: 1")),
                  "reference.figures.third: no run has this label; the runs are first, second");
  EXPECT_CONTAINS(error_of(rated_suite_with("100", "-1")),
                  "reference.figures.first: expected a positive number");
  EXPECT_CONTAINS(error_of(rated_suite_with("100", "fast")), "found 'fast'");
  EXPECT_CONTAINS(error_of(rated_suite_with("  device: Test GPU\n", "")),
                  "reference: missing 'device'");
  EXPECT_CONTAINS(error_of(rated_suite_with("  note:", "  notes:")),
                  "reference.notes: unknown key for a suite's reference (did you mean 'note'?)");
  EXPECT_CONTAINS(error_of(rated_suite_with("label: second", "label: first")),
                  "runs[1]: the label 'first' is used twice");
  EXPECT_CONTAINS(error_of("reference: 3\nruns:\n  - app: demo\n"),
                  "reference: expected a mapping with device, note and figures");
}

TEST(ConfigErrors, MalformedYamlNamesThePosition) {
  const std::string e = error_of("app: demo\nsize: [1, 2\n");
  EXPECT_CONTAINS(e, "in.yaml:3:");
  EXPECT_CONTAINS(e, "malformed YAML");
}

TEST(ConfigErrors, EmptyInput) {
  EXPECT_CONTAINS(error_of(""), "the input is empty");
  EXPECT_CONTAINS(error_of("# only a comment\n"), "the input is empty");
}

TEST(ConfigErrors, TopLevelMustBeARunOrSuite) {
  EXPECT_CONTAINS(error_of("- app: demo\n"), "expected a mapping with 'app:'");
  EXPECT_CONTAINS(error_of("size: 3\n"), "expected a mapping with 'app:'");
  EXPECT_CONTAINS(error_of("ap: demo\n"), "did you mean 'app'?");
  EXPECT_CONTAINS(error_of("app: demo\nruns: []\n"), "not both");
  EXPECT_CONTAINS(error_of("app: demo\n---\napp: demo\n"), "more than one YAML document");
}

TEST(ConfigErrors, WrongType) {
  const std::string e = error_of("app: demo\nsize: hello\n");
  EXPECT_CONTAINS(e, "in.yaml:2:7: size: expected an integer in [1, 1000]");
  EXPECT_CONTAINS(e, "found 'hello'");
  EXPECT_CONTAINS(error_of("app: demo\nsize: 2.5\n"), "found '2.5'");
  EXPECT_CONTAINS(error_of("app: demo\nsize: \"5\"\n"), "found '5'");    // quoted: a string
  EXPECT_CONTAINS(error_of("app: demo\nsize: !!str 5\n"), "found '5'");  // tagged a string
  EXPECT_CONTAINS(error_of("app: demo\nomega: !!str 0.5\n"), "expected a number");
  EXPECT_CONTAINS(error_of("app: demo\nverbose: 3\n"), "expected a boolean");
  EXPECT_CONTAINS(error_of("app: demo\nomega: {a: 1}\n"), "found a mapping");
  EXPECT_CONTAINS(error_of("app: demo\nomega:\n"), "found nothing (an empty value)");
  EXPECT_CONTAINS(error_of("app: demo\nomega: .nan\n"), "expected a number");
  EXPECT_CONTAINS(error_of("app: demo\ngrid: [5, x, 7]\n"), "found 'x'");
  EXPECT_CONTAINS(error_of("app: demo\ncovariance: [[1, 2], [3]]\n"),
                  "expected every row to have 2 numbers, found 1");
  EXPECT_CONTAINS(error_of("app: demo\nomega: [1, 2]\n"), "found a list");  // not sweepable
}

TEST(ConfigErrors, OutOfRange) {
  const std::string e = error_of("app: demo\nsize: 0\n");
  EXPECT_CONTAINS(e, "in.yaml:2:7: size: expected an integer in [1, 1000]");
  EXPECT_CONTAINS(e, "found '0'");
  EXPECT_CONTAINS(error_of("app: demo\nomega: 2.5\n"), "expected a number in [0, 2]");
  EXPECT_CONTAINS(error_of("app: demo\ngrid: [8, 8]\n"), "3 items, found 2 items");
  EXPECT_CONTAINS(error_of("app: demo\ngrid: [8, 8, 2]\n"), "found '2'");
  EXPECT_CONTAINS(error_of("app: demo\nsize: [5, 5000]\n"), "found '5000'");
}

TEST(ConfigErrors, UnknownKeySuggestsTheNearest) {
  const std::string e = error_of("app: demo\nsiez: 5\n");
  EXPECT_CONTAINS(e, "in.yaml:2:1: siez: unknown key for app demo (did you mean 'size'?)");
  EXPECT_CONTAINS(e, "allowed: app, variant,");
  EXPECT_CONTAINS(error_of("runs:\n  - app: demo\n    omgea: 1\n"), "runs[0].omgea");
  EXPECT_CONTAINS(error_of("runs: []\nnmae: x\n"), "did you mean 'name'?");
}

TEST(ConfigErrors, DuplicateKey) {
  EXPECT_CONTAINS(error_of("app: demo\nsize: 5\nsize: 6\n"), "in.yaml:3:1: size: duplicate key");
}

TEST(ConfigErrors, UnknownApp) {
  const std::string e = error_of("app: dmeo\n");
  EXPECT_CONTAINS(e, "in.yaml:1:6: app: unknown app 'dmeo' (did you mean 'demo'?)");
  EXPECT_CONTAINS(e, "allowed: demo, other");
  EXPECT_CONTAINS(error_of("runs:\n  - size: 5\n"), "runs[0]: missing 'app:'");
  // A suite entry names its place in the list.
  EXPECT_CONTAINS(error_of("runs:\n  - app: demo\n  - app: dmeo\n"),
                  "in.yaml:3:10: runs[1].app: unknown app 'dmeo' (did you mean 'demo'?)");
}

TEST(ConfigErrors, UnknownVariant) {
  const std::string e = error_of("app: demo\nvariant: [fast, slwo]\n");
  EXPECT_CONTAINS(e, "variant: expected one or more of: fast, slow, all");
  EXPECT_CONTAINS(e, "found 'slwo' (did you mean 'slow'?)");
}

TEST(ConfigErrors, ChoiceSuggestsTheNearest) {
  EXPECT_CONTAINS(error_of("app: demo\nprecision: duoble\n"), "did you mean 'double'?");
}

TEST(ConfigErrors, SuiteShape) {
  EXPECT_CONTAINS(error_of("runs: 5\n"), "runs: expected a list of runs");
  EXPECT_CONTAINS(error_of("runs: []\n"), "found an empty list");
  EXPECT_CONTAINS(error_of("runs:\n  - 5\n"), "runs[0]: expected a mapping with 'app:'");
}

// Counted before anything is expanded: a few lists of a hundred values make millions of points,
// which took minutes and memory to check before.
TEST(ConfigErrors, TooManyPointsOrRunsAreRefusedBeforeExpanding) {
  std::string sizes;
  for (int i = 1; i <= 100; ++i)
    sizes += (i > 1 ? ", " : "") + std::to_string(i == 13 ? 1000 : i);
  const std::string many = "app: demo\nsize: [" + sizes + "]\norder: [forward, backward]\n";
  EXPECT_EQ(load(many).runs[0].points().size(), 400u);  // 100 sizes x 2 levels x 2 orders
  std::string precisions = "[float, double";
  for (int i = 0; i < 48; ++i)
    precisions += i % 2 ? ", double" : ", float";
  precisions += "]";
  EXPECT_CONTAINS(error_of(many + "precision: " + precisions + "\n"),
                  "in.yaml:1:1: the sweeps make 20000 points (100 size x 50 precision x 2 levels "
                  "x 2 order); a run holds at most 10000");
  // The same through --set.
  EXPECT_CONTAINS(error_of(many, {"demo.precision=" + precisions}), "the sweeps make 20000 points");
  std::string suite = "runs:\n";
  for (int i = 0; i < 1001; ++i)
    suite += "  - app: other\n";
  EXPECT_CONTAINS(error_of(suite),
                  "in.yaml:2:3: runs: a suite holds at most 1000 runs, found 1001");
}

// A 0xff byte in a label made a JSON report that json.load rejected; control characters break
// YAML readers. Refused wherever a string reaches the report: values, --set, the suite's name.
TEST(ConfigErrors, StringsThatNoReportCanHold) {
  EXPECT_CONTAINS(error_of("app: demo\ntitle: a\xff"
                           "b\n"),
                  "in.yaml:2:8: title: expected text, found byte 0xff at 2, which is not UTF-8");
  EXPECT_CONTAINS(error_of("app: demo\nlabel: \"bell\\a\"\n"),
                  "label: expected text, found control character 0x07 at 5");
  EXPECT_CONTAINS(error_of("app: demo\n", {"demo.title=a\x1b[31m"}),
                  "title: expected text, found control character 0x1b at 2");
  EXPECT_CONTAINS(error_of("name: caf\xc3\n"
                           "runs:\n  - app: demo\n"),
                  "in.yaml:1:7: name: expected text, found byte 0xc3 at 4");
  EXPECT_EQ(load("app: demo\ntitle: caf\xc3\xa9\n").runs[0].label(), "demo");
}

// Quotes make a string in YAML: "100" is no integer and 'true' no yes/no, and the message says
// why where the unquoted value would have done.
TEST(ConfigErrors, QuotedNumbersAndBooleansGetAHint) {
  const std::string hint = "(quotes make it a string; write it without them)";
  EXPECT_CONTAINS(error_of("app: demo\nsize: \"100\"\n"), "found '100' " + hint);
  EXPECT_CONTAINS(error_of("app: demo\nomega: '0.5'\n"), "found '0.5' " + hint);
  EXPECT_CONTAINS(error_of("app: demo\nverbose: \"true\"\n"), "found 'true' " + hint);
  EXPECT_CONTAINS(error_of("app: demo\nsize: [1, \"2\"]\n"), "found '2' " + hint);
  EXPECT_EQ(error_of("app: demo\nsize: \"many\"\n").find("quotes"), std::string::npos);
  EXPECT_EQ(error_of("app: demo\nsize: 100000\n").find("quotes"), std::string::npos);
}

// A number outside double's range (a subnormal, or past 1.8e308) is refused as such, where the
// message called it "not a number".
TEST(ConfigErrors, NumbersOutsideDoubleRangeAreNamed) {
  const std::string tiny =
      "too close to zero for a double (the smallest normal magnitude is 2.2e-308";
  EXPECT_CONTAINS(error_of("app: demo\nomega: 1e-320\n"), "found '1e-320', " + tiny);
  EXPECT_CONTAINS(error_of("app: demo\ntimes: [0.5, 4e-310]\n"), "found '4e-310', " + tiny);
  EXPECT_CONTAINS(error_of("app: demo\nomega: -2e400\n"),
                  "found '-2e400', too large for a double (at most 1.8e308)");
  EXPECT_EQ(error_of("app: demo\nomega: 1e-30x\n").find("for a double"), std::string::npos);
  EXPECT_EQ(error_of("app: demo\nsize: 1e-320\n").find("for a double"), std::string::npos);
}

// yaml-cpp stops a deep nest with "bad file"; the message names the nesting instead.
TEST(ConfigErrors, DeepNestingIsNamed) {
  EXPECT_CONTAINS(
      error_of("app: demo\nsize: " + std::string(600, '[') + std::string(600, ']') + "\n"),
      "deep, past the YAML reader's limit");
}

// yaml-cpp takes a key of over 1024 characters for a value ("illegal map value"); the message
// names it as the unknown key it is, at its line, on its own and in a suite's run.
TEST(ConfigErrors, OverlongKeysAreUnknownKeys) {
  const std::string key(1100, 'k');
  EXPECT_CONTAINS(error_of("app: demo\n" + key + ": 5\n"),
                  "in.yaml:2:1: a key of 1100 characters: unknown key");
  EXPECT_CONTAINS(error_of("runs:\n  - app: demo\n    " + key + ": 5\n"),
                  "in.yaml:3:1: a key of 1100 characters: unknown key");
  // A long value is not a key.
  EXPECT_NO_THROW(load("app: demo\nlabel: " + std::string(1100, 'v') + "\n"));
}

TEST(ConfigErrors, AppChecksNameTheKey) {
  EXPECT_CONTAINS(error_of("runs:\n  - app: demo\n    size: 13\n"),
                  "in.yaml:3:11: runs[0].size: 13 is unlucky");
  // A swept value is checked at its own point.
  EXPECT_CONTAINS(error_of("app: demo\nsize: [12, 13]\n"), "13 is unlucky");
}

TEST(ConfigErrors, PathsMustExist) {
  TempDir dir;
  const std::string molecule = dir.write("water.xyz", "3\n\n");
  const Input ok = load("app: demo\nmolecule: " + molecule + "\n");
  EXPECT_EQ(ok.runs[0].points()[0].string("molecule"), molecule);
  EXPECT_CONTAINS(error_of("app: demo\nmolecule: missing.xyz\n"),
                  "molecule: file 'missing.xyz' does not exist (looked for "
                  "/nonexistent-base/missing.xyz)");
}

// A list of integers, a name, or a file: one value; a list holding names or files sweeps.
TEST(Config, IntegersOrName) {
  TempDir dir;
  const std::string file = dir.write("order.txt", "3 1 2\n");
  const auto order_of = [](const Input& input, std::size_t point) {
    return input.runs[0].points()[point].value("order");
  };
  EXPECT_EQ(order_of(load("app: demo\nlevels: 1\norder: [3, 1, 2]\n"), 0),
            Value(std::vector<std::int64_t>{3, 1, 2}));
  EXPECT_EQ(order_of(load("app: demo\nlevels: 1\norder: 7\n"), 0),
            Value(std::vector<std::int64_t>{7}));
  EXPECT_EQ(order_of(load("app: demo\nlevels: 1\norder: backward\n"), 0), Value("backward"));
  EXPECT_EQ(order_of(load("app: demo\nlevels: 1\norder: " + file + "\n"), 0), Value(file));
  const Input swept = load("app: demo\nlevels: 1\norder: [forward, " + file + ", [2, 1]]\n");
  ASSERT_EQ(swept.runs[0].points().size(), 3u);
  EXPECT_EQ(order_of(swept, 0), Value("forward"));
  EXPECT_EQ(order_of(swept, 1), Value(file));
  EXPECT_EQ(order_of(swept, 2), Value(std::vector<std::int64_t>{2, 1}));
  EXPECT_CONTAINS(error_of("app: demo\norder: sideways\n"),
                  "order: expected one of: forward, backward, a list of integers or a file of "
                  "them (or a list of them, to sweep), found 'sideways', which is no name and no "
                  "file (looked for /nonexistent-base/sideways)");
  EXPECT_CONTAINS(error_of("app: demo\norder: [1, 2.5]\n"), "order: expected");
}

TEST(ConfigFiles, RelativePathsResolveAgainstTheInputFolder) {
  TempDir dir;
  dir.write("water.xyz", "3\n\n");
  const std::string input = dir.write("run.yaml", "app: demo\nmolecule: water.xyz\n");
  const AppRegistry registry = demo_registry();  // the input points into it
  const Input loaded = load_input(input, {}, registry);
  EXPECT_EQ(loaded.runs[0].points()[0].string("molecule"), dir.file("water.xyz"));
  EXPECT_EQ(loaded.name, "run");
}

TEST(ConfigFiles, MissingUnreadableAndFolder) {
  TempDir dir;
  const AppRegistry registry = demo_registry();
  EXPECT_CONTAINS(testing::input_error_of([&] { load_input(dir.file("nope.yaml"), {}, registry); }),
                  "nope.yaml': no such file");
  EXPECT_CONTAINS(testing::input_error_of([&] { load_input(dir.path(), {}, registry); }),
                  "it is a directory");
}

}  // namespace
}  // namespace kmini
