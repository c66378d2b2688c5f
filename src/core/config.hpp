// YAML input -> checked runs. Everything a user can get wrong in an input is caught here, before
// anything runs, with file:line:column, the key path, what was expected and what was found.
//
// An input is either one run, a mapping with `app: NAME` and that app's parameters, or a suite,
// a mapping with `runs:`, a list of such runs (and optionally `name:`, `description:` and
// `reference:`, the figures a reference machine reached, from which a suite run is rated).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/app.hpp"
#include "core/params.hpp"
#include "core/registry.hpp"

namespace kmini {

// One `--set app.key=value`.
struct Override {
  std::string text;  // as given, for messages
  std::string app;
  std::string key;
  std::string value;  // YAML text
};

// Splits "app.key=value"; throws InputError when it is not of that shape.
Override parse_override(const std::string& text);

// One entry of an input, checked and with defaults filled in.
// What one input may ask for, checked before anything is expanded: each point and run is at least
// one measurement, and a few swept lists of a hundred values would make billions of points.
constexpr std::size_t kMaxSuiteRuns = 1000;
constexpr std::size_t kMaxRunPoints = 10000;

struct RunSpec {
  const AppSpec* app = nullptr;
  std::string key_path;  // "runs[2]", or "" for a single-run file
  SourceMark mark;       // where the run's mapping starts
  std::map<std::string, Setting> settings;
  // Parameters given as lists to sweep, in schema order, each with two or more values.
  std::vector<std::pair<std::string, std::vector<Value>>> sweeps;

  // The cartesian product of the sweeps (one point when nothing is swept), made at the first
  // call and kept, so that what a point parses (Params::parsed) is parsed once for every phase.
  const std::vector<Params>& points() const;
  // The variants to run, in the app's table order for 'all', else in the order given.
  std::vector<const VariantSpec*> variants() const;
  // The value as the user wrote it: the list for a swept parameter.
  Value echoed(const std::string& name) const;
  std::string label() const;  // the run's label, or its app name

  // Forgets the points made from settings that have since changed.
  void settings_changed() { points_.reset(); }

 private:
  mutable std::shared_ptr<const std::vector<Params>> points_;
};

// A suite's reference machine: each run's headline figure of merit measured there, by run label.
// The suite's rating is the geometric mean, over its runs, of headline / reference.
struct SuiteReference {
  std::string device;                     // the reference machine, in words
  std::string note;                       // how and when its figures were measured
  std::map<std::string, double> figures;  // run label -> headline, in that run's app unit
};

struct Input {
  std::string path;
  std::string name;  // the suite's `name:`, else the file's stem
  std::string description;
  bool suite = false;
  std::vector<RunSpec> runs;
  std::optional<SuiteReference> reference;  // a suite's `reference:`, where it has one
};

// A file a run writes (a parameter declared ParamSpec::output_file), and where it was set.
struct OutputFile {
  std::string path;      // as given: relative paths are the working folder's
  std::string name;      // the parameter's: "dump"
  std::string key_path;  // "runs[0].dump"
  SourceMark mark;
};

// The files the input's runs write, each once per run.
std::vector<OutputFile> output_files(const Input& input);

// Checked once every run has read its files, so that a run that writes what a later run reads
// is refused as one that writes what an earlier run read is: each output against the files read,
// the outputs before it and its folder. Throws InputError.
void check_output_files(const Input& input);

// Reads, parses and checks an input file, applies overrides, and runs each app's own checks;
// then checks the files the runs write against every file the input reads and each other, so
// that a run's write never replaces what a later run reads or writes. Throws InputError on any
// problem.
Input load_input(const std::string& path, const std::vector<Override>& overrides,
                 const AppRegistry& registry);

// The same for YAML text; `origin` names it in messages, relative paths resolve against
// `base_dir`.
Input load_input_text(const std::string& text, const std::string& origin,
                      const std::string& base_dir, const std::vector<Override>& overrides,
                      const AppRegistry& registry);

}  // namespace kmini
