// --set app.key=value: parsed, checked like the file, applied to every run of the app.
#include <gtest/gtest.h>

#include "core/config.hpp"
#include "core/error.hpp"
#include "support/expect.hpp"

namespace kmini {
namespace {

AppRegistry registry_for_overrides() {
  AppSpec app;
  app.name = "demo";
  app.params = {
      ParamSpec::integer("size", 10, "an integer").range(1, 1000).sweepable(),
      ParamSpec::choice("precision", "double", {"float", "double"}, "a choice").sweepable(),
  };
  app.variants = {{"fast", "", 1.0, on_device().as_baseline()}, {"slow", "", 1.0, on_device()}};
  app.setup = [](const Params&, const RunContext&) -> std::unique_ptr<Case> { return nullptr; };
  AppSpec other = app;
  other.name = "other";
  return AppRegistry({app, other});
}

const char* const kSuite =
    "runs:\n  - app: demo\n    size: 5\n  - app: demo\n    size: [1, 2]\n  - app: other\n";

Input load_with(const std::vector<std::string>& sets) {
  static const AppRegistry registry = registry_for_overrides();
  std::vector<Override> overrides;
  for (const auto& s : sets)
    overrides.push_back(parse_override(s));
  return load_input_text(kSuite, "suite.yaml", "", overrides, registry);
}

std::string error_of(const std::vector<std::string>& sets) {
  return testing::input_error_of([&] { load_with(sets); });
}

TEST(Overrides, ParseTheThreeParts) {
  const Override o = parse_override("demo.size=[1, 2]");
  EXPECT_EQ(o.app, "demo");
  EXPECT_EQ(o.key, "size");
  EXPECT_EQ(o.value, "[1, 2]");
  EXPECT_EQ(parse_override("demo.title=a=b").value, "a=b");
}

TEST(Overrides, MalformedOnesAreRejected) {
  EXPECT_THROW(parse_override("demo.size"), InputError);
  EXPECT_THROW(parse_override("size=5"), InputError);
  EXPECT_THROW(parse_override(".size=5"), InputError);
  EXPECT_THROW(parse_override("demo.=5"), InputError);
  EXPECT_CONTAINS(testing::input_error_of([] { parse_override("demo.size"); }),
                  "--set 'demo.size': expected app.key=value (no '=' found)");
}

TEST(Overrides, ApplyToEveryRunOfTheApp) {
  const Input input = load_with({"demo.size=7"});
  EXPECT_EQ(input.runs[0].points()[0].integer("size"), 7);
  // An override replaces a sweep too.
  ASSERT_EQ(input.runs[1].points().size(), 1u);
  EXPECT_EQ(input.runs[1].points()[0].integer("size"), 7);
  EXPECT_EQ(input.runs[2].points()[0].integer("size"), 10);
  EXPECT_EQ(input.runs[0].points()[0].mark("size").str(), "--set 'demo.size=7'");
}

TEST(Overrides, CanSweep) {
  const Input input = load_with({"other.precision=[float, double]"});
  EXPECT_EQ(input.runs[2].points().size(), 2u);
}

TEST(Overrides, LaterOnesWin) {
  const Input input = load_with({"demo.size=7", "demo.size=8"});
  EXPECT_EQ(input.runs[0].points()[0].integer("size"), 8);
}

TEST(Overrides, UnknownKey) {
  const std::string e = error_of({"demo.sise=5"});
  EXPECT_CONTAINS(e, "--set 'demo.sise=5': sise: unknown key for app demo (did you mean 'size'?)");
}

TEST(Overrides, BadValue) {
  EXPECT_CONTAINS(error_of({"demo.size=abc"}),
                  "--set 'demo.size=abc': demo.size: expected an integer in [1, 1000]");
  EXPECT_CONTAINS(error_of({"demo.size=0"}), "found '0'");
  EXPECT_CONTAINS(error_of({"demo.size=[1, 2"}), "malformed value");
  EXPECT_CONTAINS(error_of({"demo.precision=half"}), "expected one of: float, double");
}

TEST(Overrides, AppMustBeInTheInput) {
  EXPECT_CONTAINS(error_of({"dmeo.size=5"}), "unknown app 'dmeo' (did you mean 'demo'?)");
}

}  // namespace
}  // namespace kmini
