// The kmini binary's commands and its bad-input contract: every mistake exits 2 with one line
// naming what is wrong, no stack trace, no abort, no report.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <regex>

#include "support/expect.hpp"
#include "support/kmini_binary.hpp"

namespace kmini {
namespace {

using testing::kmini;
using testing::nonempty_lines;
using testing::ProcessResult;
using testing::TempDir;
using testing::test_input;

// Exit 2, nothing on stdout, exactly one line on stderr containing `what`.
void expect_bad_input(const ProcessResult& r, const std::string& what) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const auto lines = nonempty_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_CONTAINS(lines[0], "kmini: error: ");
  EXPECT_CONTAINS(lines[0], what);
}

// `kmini run` on a bad input: exit 2, one line, and no report left behind.
void expect_run_rejects(const std::string& yaml, const std::string& what,
                        std::vector<std::string> extra = {}) {
  TempDir dir;
  const std::string input = dir.write("in.yaml", yaml);
  std::vector<std::string> args{
      "run", input, "--report", dir.file("report.yaml"), "--ceiling-elements", "0"};
  args.insert(args.end(), extra.begin(), extra.end());
  expect_bad_input(kmini(args), what);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"in.yaml"});
}

TEST(BadInput, MissingFile) {
  expect_bad_input(kmini({"run", "/nonexistent/in.yaml"}),
                   "cannot read input '/nonexistent/in.yaml': no such file");
}

TEST(BadInput, UnreadableFile) {
  TempDir dir;
  expect_bad_input(kmini({"check", dir.path()}), "it is a directory");
}

TEST(BadInput, PermissionDenied) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads every file";
  TempDir dir;
  const std::string input = dir.write("locked.yaml", "app: stream\n");
  chmod(input.c_str(), 0);
  expect_bad_input(kmini({"check", input}), "locked.yaml': Permission denied");
}

// A FIFO would block open() until a writer came, and /dev/zero would be read until memory ran
// out: neither is a regular file, and both are refused before they are opened.
TEST(BadInput, InputsThatAreNotRegularFiles) {
  TempDir dir;
  const std::string fifo = dir.file("in.yaml");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {fifo, std::string("/dev/zero")}) {
    SCOPED_TRACE(path);
    const ProcessResult r =
        testing::run_process({"timeout", "60", testing::kmini_binary(), "check", path});
    expect_bad_input(
        r, "cannot read input '" + path + "': it is not a regular file (a FIFO, socket or device)");
  }
  // A molecule file that is a FIFO, named by an input.
  const std::string input = dir.write("hf.yaml", "app: hf\nmolecule: in.yaml\nbasis: sto-3g\n");
  expect_bad_input(
      testing::run_process({"timeout", "60", testing::kmini_binary(), "check", input}),
      "hf.yaml:2:11: molecule: file '" + fifo + "' cannot be read: it is not a regular file");
}

// yaml-cpp 0.7's multi-document loader never returned on these (a ',' where a document or a
// block node ends), allocating about 0.5 GB a second; each is now one clear error.
TEST(BadInput, ACommaWhereADocumentStartsIsMalformed) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {",\n", "in.yaml:1:1: "},      {"# c\n,\n", "in.yaml:2:1: "},
      {"---\n,\n", "in.yaml:2:1: "}, {"--- ,\n", "in.yaml:1:5: "},
      {"- a\n,\n", "in.yaml:2:1: "}, {"app: stream\n...\n,\n", "in.yaml:3:1: "}};
  for (const auto& [yaml, where] : cases) {
    SCOPED_TRACE(yaml);
    TempDir dir;
    const std::string input = dir.write("in.yaml", yaml);
    const ProcessResult r =
        testing::run_process({"timeout", "60", testing::kmini_binary(), "check", input});
    expect_bad_input(r, where + "malformed YAML: a ',' outside a flow collection");
  }
}

TEST(BadInput, MalformedYaml) {
  expect_run_rejects("app: stream\nelements: [1, 2\n", "in.yaml:3:1: malformed YAML");
}

// yaml-cpp read a NUL as a backspace inside a value ("control character 0x08") and as an escape
// it named as nothing at a line's end: the byte is named where it is.
TEST(BadInput, ANulByteIsNamedAtItsLineAndColumn) {
  expect_run_rejects(std::string("app: stream\nlabel: a\0b\n", 23),
                     "in.yaml:2:9: a NUL byte (0x00)");
  expect_run_rejects(std::string("app: stream\nlabel: ab\0\n", 23),
                     "in.yaml:2:10: a NUL byte (0x00)");
}

TEST(BadInput, EmptyFile) {
  expect_run_rejects("", "the input is empty");
}

TEST(BadInput, WrongType) {
  expect_run_rejects("app: stream\nelements: lots\n",
                     "in.yaml:2:11: elements: expected an integer in [1, 1000000000000]");
}

TEST(BadInput, ValueOutOfRange) {
  expect_run_rejects("app: stream\nrepetitions: 0\n",
                     "in.yaml:2:14: repetitions: expected an integer in [1, 100000], found '0'");
}

TEST(BadInput, UnknownKey) {
  expect_run_rejects("app: stream\nelemnts: 5\n",
                     "in.yaml:2:1: elemnts: unknown key for app stream (did you mean "
                     "'elements'?)");
}

TEST(BadInput, UnknownApp) {
  expect_run_rejects("app: steam\n", "app: unknown app 'steam' (did you mean 'stream'?)");
}

TEST(BadInput, UnknownVariant) {
  expect_run_rejects("app: stream\nvariant: tirad\n", "found 'tirad' (did you mean 'triad'?)");
}

TEST(BadInput, SetWithoutEquals) {
  expect_run_rejects("app: stream\n", "--set 'stream.elements': expected app.key=value",
                     {"--set", "stream.elements"});
}

TEST(BadInput, SetUnknownKey) {
  expect_run_rejects("app: stream\n", "elemnts: unknown key for app stream",
                     {"--set", "stream.elemnts=5"});
}

TEST(BadInput, SetBadValue) {
  expect_run_rejects("app: stream\n", "stream.precision: expected one of: float, double",
                     {"--set", "stream.precision=half"});
}

TEST(BadInput, ReportFolderMissing) {
  TempDir dir;
  const std::string input = dir.write("in.yaml", "app: stream\nelements: 1000\n");
  expect_bad_input(kmini({"run", input, "--report", dir.file("no/such/folder/r.yaml")}),
                   "folder '" + dir.file("no/such/folder") + "' does not exist");
}

// A report path that names the input would be destroyed by the report renamed over it: refused,
// and left as it was.
TEST(BadInput, ReportPathsThatARenameWouldDestroy) {
  TempDir dir;
  const std::string input = dir.write("in.yaml", "app: stream\nelements: 1000\n");
  expect_bad_input(kmini({"run", input, "--report", input}),
                   "--report '" + input + "': is the input '" + input + "', which the run reads");
  // Other names of the same file, known by its device and inode.
  const std::string link = dir.file("link.yaml");
  ASSERT_EQ(symlink(input.c_str(), link.c_str()), 0);
  expect_bad_input(kmini({"run", input, "--report", link}),
                   "--report '" + link + "': is the input '" + input + "'");
  const std::string dotted = dir.file("sub/../in.yaml");
  std::filesystem::create_directory(dir.file("sub"));
  expect_bad_input(kmini({"run", input, "--report", dotted}),
                   "--report '" + dotted + "': is the input '" + input + "'");
  std::filesystem::remove(dir.file("sub"));
  std::filesystem::remove(link);
  EXPECT_EQ(testing::read_file(input), "app: stream\nelements: 1000\n");
  expect_bad_input(
      kmini({"run", input, "--report", dir.file("a.yaml"), "--report", dir.file("b.yaml")}),
      "--report given twice");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"in.yaml"});
  // Links that lead back to themselves lead to no file: the rename replaced one of them.
  ASSERT_EQ(symlink("loop2", dir.file("loop1").c_str()), 0);
  ASSERT_EQ(symlink("loop1", dir.file("loop2").c_str()), 0);
  expect_bad_input(kmini({"run", input, "--report", dir.file("loop1")}),
                   "--report '" + dir.file("loop1") + "': is a loop of symbolic links");
  std::error_code ec;
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("loop1"), ec)) << "the link was replaced";
}

// A link is written through to its target and kept, where the rename replaced the link (as root,
// /dev/stdout, which then held the report). A FIFO, a device and a descriptor the process holds
// are written to directly, with no temporary file and no rename: /proc/self/fd/1, as /dev/stdout
// is, puts the report on standard output after the tables, even where that is a file.
TEST(Commands, ReportPathsThatAreLinksStreamsOrDescriptors) {
  namespace fs = std::filesystem;
  TempDir dir;
  const std::string input = dir.write("in.yaml", "app: stream\nelements: 1000\nrepetitions: 1\n");
  fs::create_directory(dir.file("sub"));
  dir.write("sub/real.yaml", "old\n");
  fs::create_symlink("sub/real.yaml", dir.file("link.yaml"));
  fs::create_symlink("sub/new.yaml", dir.file("dangling.yaml"));
  for (const char* link : {"link.yaml", "dangling.yaml"}) {
    SCOPED_TRACE(link);
    const ProcessResult r =
        kmini({"run", input, "--report", dir.file(link), "--ceiling-elements", "0"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(dir.file(link)));
    EXPECT_CONTAINS(testing::read_file(dir.file(link)), "kmini_report: 1\n");
  }
  EXPECT_EQ(dir.entries(),
            (std::vector<std::string>{"dangling.yaml", "in.yaml", "link.yaml", "sub"}));

  const std::string fifo = dir.file("fifo.yaml");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  testing::prepare_environment();
  const ProcessResult through_fifo = testing::run_process(
      {"bash", "-c",
       // The FIFO's reader; the FIFO is opened for writing here too, so that the reader ends
       // even where kmini wrote nothing.
       "cat \"$1\" > \"$2\" & \"$0\" run \"$3\" --report \"$1\" --ceiling-elements 0; "
       "status=$?; exec 3<>\"$1\"; exec 3>&-; wait; exit $status",
       testing::kmini_binary(), fifo, dir.file("from-fifo.yaml"), input});
  ASSERT_EQ(through_fifo.exit_code, 0) << through_fifo.err;
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_CONTAINS(testing::read_file(dir.file("from-fifo.yaml")), "kmini_report: 1\n");

  const ProcessResult to_null =
      kmini({"run", input, "--report", "/dev/null", "--ceiling-elements", "0"});
  ASSERT_EQ(to_null.exit_code, 0) << to_null.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_CONTAINS(to_null.out, "report: /dev/null\n");

  const ProcessResult to_stdout = testing::run_process(
      {"bash", "-c", "\"$0\" run \"$1\" --report /proc/self/fd/1 --ceiling-elements 0 > \"$2\"",
       testing::kmini_binary(), input, dir.file("stdout.txt")});
  ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  const std::string printed = testing::read_file(dir.file("stdout.txt"));
  const std::size_t table = printed.find("== stream"), report = printed.find("kmini_report: 1\n"),
                    summary = printed.find("report: /proc/self/fd/1\n");
  EXPECT_LT(table, report) << printed;
  EXPECT_LT(report, summary) << printed;
  EXPECT_NE(summary, std::string::npos) << printed;
}

// Nor may a report or a dump replace a file the input names: the molecule or basis set an hf run
// reads, the input of a bridge run that dumps.
TEST(BadInput, ReportsAndDumpsThatWouldReplaceAFileTheRunReads) {
  TempDir dir;
  const std::string molecule_text = "2\nH2\nH 0 0 0\nH 0 0 0.74\n";
  const std::string molecule = dir.write("h2.xyz", molecule_text);
  const std::string hf = dir.write("hf.yaml", "app: hf\nmolecule: h2.xyz\nbasis: sto-3g\n");
  expect_bad_input(
      kmini({"run", hf, "--report", molecule}),
      "--report '" + molecule + "': is the molecule file '" + molecule + "', which the run reads");
  EXPECT_EQ(testing::read_file(molecule), molecule_text);
  // A dump's path is taken from the working folder, as --report's is.
  const std::string bridge = dir.file("bridge.yaml");
  const std::string bridge_text =
      "app: bridge\nvariant: [naive]\npaths: 64\ndump: '" + bridge + "'\n";
  dir.write("bridge.yaml", bridge_text);
  expect_bad_input(kmini({"run", bridge}), "is the input '" + bridge + "'");
  EXPECT_EQ(testing::read_file(bridge), bridge_text);
}

// A dump needs a file name: an empty one reached the output-path checks, whose
// std::filesystem::absolute threw, and check, --dry-run and run exited 4 naming no file or key.
TEST(BadInput, AnEmptyDumpPath) {
  TempDir dir;
  const std::string input =
      dir.write("in.yaml", "app: bridge\nvariant: naive\npaths: 10\nsteps: 8\ndump: ''\n");
  const std::string what = "in.yaml:5:7: dump: expected a file name, found ''";
  expect_bad_input(kmini({"check", input}), what);
  expect_bad_input(kmini({"run", input, "--dry-run", "--ceiling-elements", "0"}), what);
  expect_run_rejects("app: bridge\nvariant: naive\npaths: 10\nsteps: 8\ndump: \"\"\n", what);
  const std::string without = dir.write("without.yaml", "app: bridge\nvariant: naive\n");
  expect_bad_input(kmini({"check", without, "--set", "bridge.dump=''"}),
                   "bridge.dump: expected a file name, found ''");
}

// A file one run writes that another run of the suite reads or writes, or that is the report, is
// refused before anything runs, whichever run comes first: the dump's writer ran and the reader
// then failed (exit 4), a second dump replaced the first, the report replaced the dump.
TEST(BadInput, DumpsThatAnotherRunReadsOrWritesOrTheReportReplaces) {
  TempDir dir;
  const std::string molecule_text = "2\nH2\nH 0 0 0\nH 0 0 0.74\n";
  const std::string molecule = dir.write("h2.xyz", molecule_text);
  const auto writer = [](const std::string& dump) {
    return "  - app: bridge\n    variant: naive\n    paths: 10\n    steps: 8\n    dump: " + dump +
           "\n";
  };
  const std::string reader = "  - app: hf\n    molecule: h2.xyz\n    basis: sto-3g\n";
  const std::string writer_first = dir.write("w.yaml", "runs:\n" + writer(molecule) + reader);
  const std::string reader_first = dir.write("r.yaml", "runs:\n" + reader + writer(molecule));
  const auto refused_up_front = [&](const std::vector<std::string>& args, const std::string& what) {
    const ProcessResult r = kmini(args);
    expect_bad_input(r, what);
    EXPECT_EQ(r.out, "");
  };
  const std::string written_first = writer_first + ":6:11: runs[0].dump: '" + molecule +
                                    "' is the molecule file '" + molecule +
                                    "', which runs[1].molecule (" + writer_first + ":8:15) reads";
  const std::string read_first = reader_first + ":9:11: runs[1].dump: '" + molecule +
                                 "' is the molecule file '" + molecule +
                                 "', which runs[0].molecule (" + reader_first + ":3:15) reads";
  refused_up_front({"check", writer_first}, written_first);
  refused_up_front({"check", reader_first}, read_first);
  refused_up_front({"run", writer_first, "--report", dir.file("out.yaml")}, written_first);
  refused_up_front({"run", reader_first, "--report", dir.file("out.yaml")}, read_first);
  EXPECT_EQ(testing::read_file(molecule), molecule_text);

  // Two names of one file yet to be written.
  std::filesystem::create_directory(dir.file("sub"));
  const std::string twice = dir.write(
      "twice.yaml", "runs:\n" + writer(dir.file("d.txt")) + writer(dir.file("sub/../d.txt")));
  expect_bad_input(kmini({"check", twice}), "runs[1].dump: '" + dir.file("sub/../d.txt") +
                                                "' is the file runs[0].dump (" + twice +
                                                ":6:11) "
                                                "writes too: one would replace the other");

  const std::string single = dir.write(
      "single.yaml",
      "app: bridge\nvariant: naive\npaths: 10\nsteps: 8\ndump: " + dir.file("d.txt") + "\n");
  expect_bad_input(kmini({"run", single, "--report", dir.file("sub/../d.txt")}),
                   "--report '" + dir.file("sub/../d.txt") + "': is the file dump (" + single +
                       ":5:7) writes: the report would replace it");
  // Links that lead to a file yet to be written, which a write through them would create: a
  // dangling link, and a chain of two (the report replaced the dump, exit 0).
  std::filesystem::create_symlink("d.txt", dir.file("dangling"));
  std::filesystem::create_symlink(dir.file("dangling"), dir.file("chain"));
  for (const char* link : {"dangling", "chain"}) {
    expect_bad_input(kmini({"run", single, "--report", dir.file(link)}),
                     "--report '" + dir.file(link) + "': is the file dump (" + single +
                         ":5:7) writes: the report would replace it");
  }
  const std::string linked =
      dir.write("linked.yaml", "runs:\n" + writer(dir.file("d.txt")) + writer(dir.file("chain")));
  expect_bad_input(kmini({"check", linked}), "runs[1].dump: '" + dir.file("chain") +
                                                 "' is the file runs[0].dump (" + linked +
                                                 ":6:11) writes too: one would replace the other");
  std::filesystem::remove(dir.file("dangling"));
  std::filesystem::remove(dir.file("chain"));
  std::filesystem::remove(linked);

  // A stream replaces nothing: the dumps of two runs and the report may all go to /dev/null.
  const std::string to_null =
      dir.write("null.yaml", "runs:\n" + writer("/dev/null") + writer("/dev/null"));
  const ProcessResult streamed =
      kmini({"run", to_null, "--report", "/dev/null", "--ceiling-elements", "0"});
  EXPECT_EQ(streamed.exit_code, 0) << streamed.out << streamed.err;
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"h2.xyz", "null.yaml", "r.yaml", "single.yaml",
                                                     "sub", "twice.yaml", "w.yaml"}));
}

// The memory gate takes the lower of the free memory and what an address-space limit (ulimit -v)
// leaves, where a run passed it and then failed to allocate (exit 4); --dry-run gates the
// bandwidth probe as the run will. (The sanitizers reserve terabytes of address space, so a
// sanitized kmini cannot start under such a limit.)
TEST(BadInput, MemoryGatesHonourUlimitAndTheProbe) {
  TempDir dir;
#if !defined(KMINI_SANITIZED)
  const std::string input =
      dir.write("in.yaml", "app: stream\nelements: 300000000\nrepetitions: 1\n");
  testing::prepare_environment();
  const ProcessResult r =
      testing::run_process({"bash", "-c",
                            "ulimit -v 3000000 && exec \"$0\" run \"$1\" --ceiling-elements 0 "
                            "--report \"$2\"",
                            testing::kmini_binary(), input, dir.file("r.yaml")});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_CONTAINS(r.err,
                  "stream: needs 6.7 GiB of memory per rank, but the address-space limit "
                  "(ulimit -v, RLIMIT_AS) leaves ");
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.yaml")));
#endif
  const std::string small = dir.write("small.yaml", "app: stream\nelements: 1000\n");
  expect_bad_input(kmini({"run", small, "--dry-run", "--ceiling-elements", "100000000000"}),
                   "--ceiling-elements 100000000000: the copy probe: needs");
}

// A data file that is not a regular file in $KMINI_DATA_DIR (a FIFO, a folder, a link to
// /dev/zero) is named, where it was passed over for the next folder's file without a word.
TEST(BadInput, DataFilesThatAreNotRegularFiles) {
  TempDir dir;
  const std::string input = dir.write(
      "h2.yaml", "app: hf\natoms: ['H 0 0 0', 'H 0 0 0.74']\nbasis: sto-3g\nvariant: cpu\n");
  const std::string data = dir.file("data"), basis = data + "/basis/sto-3g.gbs";
  std::filesystem::create_directories(data + "/basis");
  const auto check_with = [&](const std::string& what) {
    SCOPED_TRACE(what);
    testing::prepare_environment();
    expect_bad_input(testing::run_process({"env", "KMINI_DATA_DIR=" + data, testing::kmini_binary(),
                                           "check", input}),
                     "kmini's data file basis/sto-3g.gbs in " + data + " (KMINI_DATA_DIR) is '" +
                         basis + "', which cannot be read: " + what);
    std::filesystem::remove(basis);
  };
  ASSERT_EQ(mkfifo(basis.c_str(), 0600), 0);
  check_with("it is not a regular file");
  std::filesystem::create_symlink("/dev/zero", basis);
  check_with("it is not a regular file");
  std::filesystem::create_directory(basis);
  check_with("it is a directory");
}

// /proc passes a permission check as root, yet takes no new file: the run is refused at the
// start, not after it has run.
TEST(BadInput, ReportFolderThatTakesNoFile) {
  TempDir dir;
  const std::string input = dir.write("in.yaml", "app: stream\nelements: 1000\n");
  const ProcessResult r = kmini({"run", input, "--report", "/proc/kmini-report.yaml"});
  expect_bad_input(r, "--report '/proc/kmini-report.yaml': ");
  EXPECT_EQ(r.out, "");
}

// A run killed while writing its report leaves .NAME.tmp-XXXXXX beside it; the next run to that
// path removes those older than a minute, and leaves a younger one (a write in progress) alone.
TEST(Commands, StaleReportTemporariesAreRemoved) {
  TempDir dir;
  const std::string input = dir.write("in.yaml", "app: stream\nelements: 1000\nrepetitions: 1\n");
  const std::string stale = dir.write(".r.yaml.tmp-abc123", "half a report");
  const std::string young = dir.write(".r.yaml.tmp-def456", "a write in progress");
  const std::string other = dir.write(".other.yaml.tmp-abc123", "another path's");
  for (const std::string& old : {stale, other})
    std::filesystem::last_write_time(
        old, std::filesystem::file_time_type::clock::now() - std::chrono::hours(1));
  const ProcessResult r =
      kmini({"run", input, "--report", dir.file("r.yaml"), "--ceiling-elements", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{".other.yaml.tmp-abc123", ".r.yaml.tmp-def456",
                                                     "in.yaml", "r.yaml"}));
}

// The bandwidth probe is gated like any run: 10^12 elements are refused, naming the option.
TEST(BadInput, ACeilingProbeThatCannotFit) {
  TempDir dir;
  const std::string input = dir.write("in.yaml", "app: stream\nelements: 1000\n");
  expect_bad_input(
      kmini({"run", input, "--report", dir.file("r.yaml"), "--ceiling-elements", "1000000000000"}),
      "--ceiling-elements 1000000000000: the copy probe: needs ");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"in.yaml"});
}

TEST(BadInput, Usage) {
  expect_bad_input(kmini({}), "no command given");
  expect_bad_input(kmini({"frobnicate"}), "unknown command 'frobnicate'");
  expect_bad_input(kmini({"run"}), "missing the input FILE");
  expect_bad_input(kmini({"list", "nosuchapp"}), "unknown app 'nosuchapp'");
}

TEST(Commands, HelpAndVersion) {
  const ProcessResult help = kmini({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_CONTAINS(help.out, "usage:");
  EXPECT_CONTAINS(help.out, "exit status:");
  const ProcessResult version = kmini({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_CONTAINS(version.out, "kmini 0.1.0 (");
  EXPECT_CONTAINS(version.out, "Kokkos ");
  // The Kokkos patches' digest beside the Kokkos version, as the report's meta has it.
  EXPECT_CONTAINS(version.out, " (patches " + testing::expected_kokkos_patches() + ") [");
}

TEST(Commands, ListShowsSchemaAndVariants) {
  const ProcessResult r = kmini({"list", "stream"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "stream: BabelStream");
  EXPECT_CONTAINS(r.out, "elements");
  EXPECT_CONTAINS(r.out, "integer, sweepable");
  EXPECT_CONTAINS(r.out, "33554432");
  EXPECT_CONTAINS(r.out, "float | double");
  EXPECT_CONTAINS(r.out, "triad");
  EXPECT_CONTAINS(r.out, "figure of merit: bandwidth [GB/s]");
  const ProcessResult md = kmini({"list", "--markdown"});
  EXPECT_EQ(md.exit_code, 0);
  EXPECT_CONTAINS(md.out, "# kmini input reference");
  EXPECT_CONTAINS(md.out, "| `elements` | integer, sweepable | `33554432` |");
}

TEST(Commands, InputReferenceIsCurrent) {
  const ProcessResult md = kmini({"list", "--markdown"});
  ASSERT_EQ(md.exit_code, 0);
  EXPECT_EQ(md.out, testing::read_file(kmini::testing::source_dir() + "/docs/inputs.md"))
      << "docs/inputs.md is stale: regenerate it with kmini list --markdown > docs/inputs.md";
}

// Every YAML file under inputs/, so that a new input is checked without being listed here.
TEST(Commands, ShippedInputsAreValid) {
  int checked = 0;
  const std::filesystem::path inputs =
      std::filesystem::path(kmini::testing::source_dir()) / "inputs";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(inputs)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".yaml") continue;
    // An input for N ranks (himeno's ranks: [px, py, pz], at the top or in a suite's runs, all
    // of one count) is checked as it will run, under a launcher that starts N processes: kmini
    // check reads the count from its environment.
    std::vector<std::string> command{"check", entry.path().string()};
    const std::string text = testing::read_file(entry.path().string());
    const std::regex ranks_line(R"(\n *ranks: \[(\d+), (\d+), (\d+)\])");
    int processes = 0;
    for (std::sregex_iterator m(text.begin(), text.end(), ranks_line), end; m != end; ++m) {
      const int count = std::stoi((*m)[1]) * std::stoi((*m)[2]) * std::stoi((*m)[3]);
      EXPECT_TRUE(processes == 0 || processes == count)
          << entry.path() << ": runs for " << processes << " and " << count << " ranks";
      processes = count;
    }
    if (processes > 0) {
      command = {"env", "OMPI_COMM_WORLD_SIZE=" + std::to_string(processes),
                 testing::kmini_binary(), "check", entry.path().string()};
    }
    testing::prepare_environment();
    const ProcessResult r = processes == 0 ? kmini(command) : testing::run_process(command);
    EXPECT_EQ(r.exit_code, 0) << entry.path() << ": " << r.err;
    ++checked;
  }
  EXPECT_GE(checked, 11) << "inputs/ lost its files?";
}

TEST(Commands, CheckValidatesWithoutRunning) {
  const ProcessResult r =
      kmini({"check", test_input("suite_small.yaml"), "--set", "stream.repetitions=4"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_CONTAINS(r.out, "OK, 2 run(s), 3 point(s)");
}

}  // namespace
}  // namespace kmini
