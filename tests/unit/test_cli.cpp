// The command line, parsed in-process.
#include <gtest/gtest.h>

#include "core/cli.hpp"
#include "core/error.hpp"
#include "core/kokkos_flags.hpp"
#include "support/expect.hpp"

namespace kmini {
namespace {

CliOptions parse(const std::vector<std::string>& args) {
  return parse_command_line(args);
}

std::string error_of(const std::vector<std::string>& args) {
  return testing::input_error_of([&] { parse(args); });
}

TEST(Cli, RunWithEveryOption) {
  const CliOptions o =
      parse({"run", "in.yaml", "--set", "a.b=1", "--set=c.d=2", "--report", "out.json",
             "--format=json", "--ceiling-elements", "1024", "--kokkos-num-threads=2"});
  EXPECT_EQ(o.command, CliOptions::Command::run);
  EXPECT_EQ(o.input, "in.yaml");
  EXPECT_EQ(o.overrides, (std::vector<std::string>{"a.b=1", "c.d=2"}));
  EXPECT_EQ(o.report_path, "out.json");
  EXPECT_EQ(o.format, ReportFormat::json);
  EXPECT_EQ(o.ceiling_elements, 1024);
  EXPECT_EQ(o.kokkos_args, std::vector<std::string>{"--kokkos-num-threads=2"});
  EXPECT_FALSE(o.dry_run);
  EXPECT_TRUE(parse({"run", "in.yaml", "--dry-run"}).dry_run);
}

TEST(Cli, KokkosFlagsPassAnywhere) {
  const CliOptions o = parse({"--kokkos-device-id=1", "list", "--kokkos-disable-warnings"});
  EXPECT_EQ(o.command, CliOptions::Command::list);
  EXPECT_EQ(o.kokkos_args.size(), 2u);
}

TEST(Cli, HelpAndVersion) {
  EXPECT_EQ(parse({"--help"}).command, CliOptions::Command::help);
  EXPECT_EQ(parse({"run", "-h"}).command, CliOptions::Command::help);
  EXPECT_EQ(parse({"help"}).command, CliOptions::Command::help);
  EXPECT_EQ(parse({"--version"}).command, CliOptions::Command::version);
  EXPECT_NE(help_text().find("kmini run FILE"), std::string::npos);
}

TEST(Cli, ListOptions) {
  const CliOptions o = parse({"list", "stream", "--markdown"});
  EXPECT_EQ(o.list_app, "stream");
  EXPECT_TRUE(o.markdown);
}

// Kokkos would throw from std::stoi (exit 4, "stoi"); the flag is named instead.
TEST(Cli, KokkosNumbersAreChecked) {
  EXPECT_CONTAINS(error_of({"list", "--kokkos-threads=abc"}),
                  "--kokkos-threads: expected a whole number of at least 1, found 'abc'");
  EXPECT_CONTAINS(error_of({"list", "--kokkos-num-threads=-5"}), "found '-5'");
  EXPECT_CONTAINS(error_of({"list", "--kokkos-threads=0"}), "found '0'");
  EXPECT_CONTAINS(error_of({"list", "--kokkos-threads=2x"}), "found '2x'");
  EXPECT_CONTAINS(error_of({"list", "--kokkos-device-id="}), "--kokkos-device-id: expected");
  EXPECT_CONTAINS(error_of({"list", "--kokkos-num-devices=2,"}), "found '2,'");
  EXPECT_CONTAINS(error_of({"list", "--kokkos-threads=1,2"}), "found '1,2'");
  EXPECT_EQ(parse({"list", "--kokkos-device-id=0", "--kokkos-num-devices=2,1", "--kokkos-threads=4",
                   "--kokkos-tools-args=-x"})
                .kokkos_args.size(),
            4u);
}

TEST(Cli, CeilingElementsNamesTheOption) {
  EXPECT_CONTAINS(error_of({"run", "x.yaml", "--ceiling-elements", "10000000000000"}),
                  "--ceiling-elements: expected an integer in [0, 1000000000000] (0 skips the "
                  "probe), found '10000000000000'");
  EXPECT_CONTAINS(error_of({"run", "x.yaml", "--ceiling-elements=1e13"}), "--ceiling-elements: ");
  EXPECT_EQ(parse({"run", "x.yaml", "--ceiling-elements", "1000000000000"}).ceiling_elements,
            1000000000000);
}

TEST(Cli, UsageErrors) {
  EXPECT_CONTAINS(error_of({}), "no command given");
  EXPECT_CONTAINS(error_of({"rnu", "x.yaml"}), "unknown command 'rnu' (did you mean 'run'?)");
  EXPECT_CONTAINS(error_of({"run"}), "missing the input FILE");
  EXPECT_CONTAINS(error_of({"run", "a.yaml", "b.yaml"}), "one input FILE expected, found 2");
  EXPECT_CONTAINS(error_of({"run", "a.yaml", "--bogus"}), "unknown option '--bogus'");
  EXPECT_CONTAINS(error_of({"run", "a.yaml", "--set"}), "--set needs a value");
  EXPECT_CONTAINS(error_of({"run", "a.yaml", "--format", "xml"}), "expected yaml or json");
  EXPECT_CONTAINS(error_of({"run", "a.yaml", "--ceiling-elements", "-5"}),
                  "expected a non-negative integer");
  EXPECT_CONTAINS(error_of({"list", "--set", "a.b=1"}), "--set does not apply");
  EXPECT_CONTAINS(error_of({"check", "a.yaml", "--report", "r.yaml"}), "--report does not apply");
  EXPECT_CONTAINS(error_of({"run", "a.yaml", "--markdown"}), "--markdown does not apply");
  EXPECT_CONTAINS(error_of({"list", "a", "b"}), "at most one APP");
  EXPECT_CONTAINS(error_of({"check", "a.yaml", "--dry-run"}), "--dry-run does not apply");
}

// An option of one value given twice is refused, as --report was alone: the later one silently
// won for --format and --ceiling-elements.
TEST(Cli, AnOptionOfOneValueGivenTwiceIsRefused) {
  EXPECT_CONTAINS(error_of({"run", "a.yaml", "--report", "r.yaml", "--report", "s.yaml"}),
                  "--report given twice ('r.yaml' and 's.yaml')");
  EXPECT_CONTAINS(error_of({"run", "a.yaml", "--format", "json", "--format", "yaml"}),
                  "--format given twice ('json' and 'yaml')");
  EXPECT_CONTAINS(error_of({"run", "a.yaml", "--ceiling-elements=0", "--ceiling-elements", "5"}),
                  "--ceiling-elements given twice ('0' and '5')");
  // Options that add to a list, or set a flag, may come again.
  EXPECT_EQ(parse({"run", "a.yaml", "--set", "x.a=1", "--set", "x.b=2"}).overrides.size(), 2u);
  EXPECT_TRUE(parse({"run", "a.yaml", "--dry-run", "--dry-run"}).dry_run);
}

// Either spelling of the thread count reaches Kokkos as the one its version reads: 3.4 to 3.6
// know only --kokkos-threads, 4.3 on only --kokkos-num-threads.
TEST(KokkosFlags, ThreadCountIsSpelledForTheVersion) {
  const std::vector<std::string> both{"--kokkos-threads=2", "--kokkos-num-threads=3"};
  for (int version : {30401, 30601}) {
    EXPECT_EQ(respelled_for_kokkos(both, version),
              (std::vector<std::string>{"--kokkos-threads=2", "--kokkos-threads=3"}))
        << version;
  }
  for (int version : {30700, 40600, 50202}) {
    EXPECT_EQ(respelled_for_kokkos(both, version),
              (std::vector<std::string>{"--kokkos-num-threads=2", "--kokkos-num-threads=3"}))
        << version;
  }
}

TEST(KokkosFlags, OtherFlagsPassUnchanged) {
  const std::vector<std::string> args{"--kokkos-device-id=1", "--kokkos-threadsafe",
                                      "--kokkos-disable-warnings", "--kokkos-num-devices=2,1"};
  EXPECT_EQ(respelled_for_kokkos(args, 30401), args);
  EXPECT_EQ(respelled_for_kokkos(args, 50202), args);
  EXPECT_EQ(respelled_for_kokkos({"--kokkos-ndevices=2"}, 30401),
            std::vector<std::string>{"--kokkos-num-devices=2"});
}

}  // namespace
}  // namespace kmini
