#include "core/config.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/text.hpp"
#include "core/yaml_document.hpp"
#include "core/yaml_value.hpp"

namespace kmini {

namespace fs = std::filesystem;

Override parse_override(const std::string& text) {
  const std::string where = "--set " + quoted(text);
  const auto equals = text.find('=');
  if (equals == std::string::npos) {
    throw InputError(where + ": expected app.key=value (no '=' found)");
  }
  const std::string target = text.substr(0, equals);
  const auto dot = target.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == target.size()) {
    throw InputError(where + ": expected app.key=value, found no app name before the key");
  }
  return Override{text, target.substr(0, dot), target.substr(dot + 1), text.substr(equals + 1)};
}

namespace {

const std::vector<std::string> kSuiteKeys{"runs", "name", "description", "reference"};
const std::vector<std::string> kReferenceKeys{"device", "note", "figures"};

class InputParser {
 public:
  InputParser(std::string origin, std::string base_dir, const AppRegistry& registry)
      : origin_(std::move(origin)), base_dir_(std::move(base_dir)), registry_(registry) {}

  Input parse(const std::string& text) {
    const YAML::Node root = load_one_document(text, origin_);
    if (root.IsNull()) {
      throw InputError(origin_ +
                       ": the input is empty; expected a mapping with 'app:' (one run) "
                       "or 'runs:' (a suite)");
    }
    if (!root.IsMap()) {
      throw InputError(at(root).str() +
                       ": expected a mapping with 'app:' (one run) or 'runs:' "
                       "(a suite), found " +
                       describe_node(root));
    }
    Input input;
    input.name = fs::path(origin_).stem().string();
    const bool has_runs = static_cast<bool>(root["runs"]);
    const bool has_app = static_cast<bool>(root["app"]);
    if (has_runs && has_app) {
      throw InputError(at(root).str() +
                       ": a mapping has either 'app:' (one run) or 'runs:' (a "
                       "suite), not both");
    }
    if (has_runs) {
      parse_suite(root, input);
    } else if (has_app) {
      input.runs.push_back(parse_run(root, ""));
    } else {
      std::string message =
          at(root).str() + ": expected a mapping with 'app:' (one run) or 'runs:' (a suite)";
      const auto keys = keys_of(root);
      for (const auto& key : keys) {
        const std::string guess = closest_match(key, {"app", "runs"});
        if (!guess.empty()) {
          message += "; found " + quoted(key) + " (did you mean " + quoted(guess) + "?)";
          break;
        }
      }
      throw InputError(message);
    }
    return input;
  }

 private:
  SourceMark at(const YAML::Node& node) const {
    return SourceMark{origin_, node.Mark().line + 1, node.Mark().column + 1};
  }

  // The mapping's keys, rejecting non-scalar and duplicate ones.
  std::vector<std::string> keys_of(const YAML::Node& map, const std::string& key_path = "") const {
    std::vector<std::string> keys;
    std::set<std::string> seen;
    for (const auto& entry : map) {
      const YAML::Node& key = entry.first;
      if (!key.IsScalar()) {
        throw InputError(at(key).str() + ": " + (key_path.empty() ? "" : key_path + ": ") +
                         "expected a key name, found " + describe_node(key));
      }
      if (!seen.insert(key.Scalar()).second) {
        throw InputError(at(key).str() + ": " + join_key(key_path, key.Scalar()) +
                         ": duplicate key");
      }
      keys.push_back(key.Scalar());
    }
    return keys;
  }

  static std::string join_key(const std::string& prefix, const std::string& key) {
    return prefix.empty() ? key : prefix + "." + key;
  }

  [[noreturn]] void unknown_key(const YAML::Node& key_node, const std::string& key_path,
                                const std::string& what,
                                const std::vector<std::string>& allowed) const {
    std::string message = at(key_node).str() + ": " + join_key(key_path, key_node.Scalar()) +
                          ": unknown key for " + what;
    const std::string guess = closest_match(key_node.Scalar(), allowed);
    if (!guess.empty()) message += " (did you mean " + quoted(guess) + "?)";
    message += "; allowed: " + join_words(allowed, ", ");
    throw InputError(message);
  }

  void parse_suite(const YAML::Node& root, Input& input) {
    input.suite = true;
    keys_of(root);
    for (const auto& entry : root) {
      const std::string key = entry.first.Scalar();
      const YAML::Node& value = entry.second;
      if (key == "runs" || key == "reference") continue;
      if (key != "name" && key != "description")
        unknown_key(entry.first, "", "a suite", kSuiteKeys);
      if (!value.IsScalar()) {
        throw InputError(at(value).str() + ": " + key + ": expected a string, found " +
                         describe_node(value));
      }
      check_report_text(value, key);
      (key == "name" ? input.name : input.description) = value.Scalar();
    }
    const YAML::Node runs = root["runs"];
    if (!runs.IsSequence() || runs.size() == 0) {
      throw InputError(at(runs).str() +
                       ": runs: expected a list of runs (mappings with 'app:'), "
                       "found " +
                       (runs.IsSequence() ? "an empty list" : describe_node(runs)));
    }
    if (runs.size() > kMaxSuiteRuns) {
      throw InputError(at(runs).str() + ": runs: a suite holds at most " +
                       std::to_string(kMaxSuiteRuns) + " runs, found " +
                       std::to_string(runs.size()));
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::string key_path = "runs[" + std::to_string(i) + "]";
      const YAML::Node run = runs[i];
      if (!run.IsMap()) {
        throw InputError(at(run).str() + ": " + key_path +
                         ": expected a mapping with 'app:', found " + describe_node(run));
      }
      input.runs.push_back(parse_run(run, key_path));
    }
    if (const YAML::Node reference = root["reference"]) {
      input.reference = parse_reference(reference);
      check_reference_covers_runs(*input.reference, reference, input.runs);
    }
  }

  std::string scalar_string(const YAML::Node& node, const std::string& key_path) const {
    if (!node.IsScalar()) {
      throw InputError(at(node).str() + ": " + key_path + ": expected a string, found " +
                       describe_node(node));
    }
    check_report_text(node, key_path);
    return node.Scalar();
  }

  // Strings that go into the report (see yaml_value.cpp's check of the same).
  void check_report_text(const YAML::Node& node, const std::string& key_path) const {
    const std::string problem = report_text_problem(node.Scalar());
    if (!problem.empty()) {
      throw InputError(at(node).str() + ": " + key_path + ": expected text, found " + problem +
                       " (a report holds UTF-8 text without control characters)");
    }
  }

  SuiteReference parse_reference(const YAML::Node& node) const {
    if (!node.IsMap()) {
      throw InputError(at(node).str() +
                       ": reference: expected a mapping with device, note and figures, found " +
                       describe_node(node));
    }
    SuiteReference reference;
    keys_of(node, "reference");
    for (const auto& entry : node) {
      const std::string key = entry.first.Scalar();
      const std::string key_path = join_key("reference", key);
      if (key == "device") {
        reference.device = scalar_string(entry.second, key_path);
      } else if (key == "note") {
        reference.note = scalar_string(entry.second, key_path);
      } else if (key == "figures") {
        reference.figures = parse_reference_figures(entry.second);
      } else {
        unknown_key(entry.first, "reference", "a suite's reference", kReferenceKeys);
      }
    }
    for (const char* required : {"device", "figures"}) {
      if (!node[required]) {
        throw InputError(at(node).str() + ": reference: missing '" + required +
                         "'; a reference names its device and each run's figure (figures: "
                         "{LABEL: VALUE, ...})");
      }
    }
    return reference;
  }

  std::map<std::string, double> parse_reference_figures(const YAML::Node& node) const {
    if (!node.IsMap() || node.size() == 0) {
      throw InputError(at(node).str() +
                       ": reference.figures: expected a mapping of run labels to each run's "
                       "headline figure of merit, found " +
                       describe_node(node));
    }
    std::map<std::string, double> figures;
    for (const auto& label : keys_of(node, "reference.figures")) {
      const YAML::Node value = node[label];
      const std::string key_path = join_key("reference.figures", label);
      double figure = 0.0;
      bool numeric = value.IsScalar();
      if (numeric) {
        try {
          figure = value.as<double>();
        } catch (const YAML::Exception&) {
          numeric = false;
        }
      }
      if (!numeric || !(figure > 0.0) || !std::isfinite(figure)) {
        throw InputError(at(value).str() + ": " + key_path +
                         ": expected a positive number (the run's headline figure of merit on "
                         "the reference device, in its app's unit), found " +
                         describe_node(value));
      }
      figures[label] = figure;
    }
    return figures;
  }

  // A rating needs a reference figure for every run, and each figure names a run, once.
  void check_reference_covers_runs(const SuiteReference& reference, const YAML::Node& node,
                                   const std::vector<RunSpec>& runs) const {
    std::set<std::string> labels;
    for (const auto& run : runs) {
      if (!labels.insert(run.label()).second) {
        throw InputError(run.mark.str() + ": " + run.key_path + ": the label " +
                         quoted(run.label()) +
                         " is used twice; a suite with a reference needs a distinct label per "
                         "run (label: NAME)");
      }
      if (reference.figures.count(run.label()) == 0) {
        throw InputError(at(node["figures"]).str() + ": reference.figures: no figure for run " +
                         quoted(run.label()) + " (" + run.key_path + ")");
      }
    }
    for (const auto& [label, figure] : reference.figures) {
      if (labels.count(label) == 0) {
        throw InputError(at(node["figures"][label]).str() + ": reference.figures." + label +
                         ": no run has this label; the runs are " +
                         join_words(std::vector<std::string>(labels.begin(), labels.end()), ", "));
      }
    }
  }

  const AppSpec& find_app(const YAML::Node& run, const std::string& key_path) const {
    const YAML::Node app = run["app"];
    const std::string app_path = join_key(key_path, "app");
    if (!app) {
      throw InputError(at(run).str() + ": " + key_path +
                       ": missing 'app:'; allowed: " + join_words(registry_.names(), ", "));
    }
    if (!app.IsScalar()) {
      throw InputError(at(app).str() + ": " + app_path + ": expected an app name, found " +
                       describe_node(app));
    }
    const AppSpec* spec = registry_.find(app.Scalar());
    if (spec == nullptr) {
      std::string message =
          at(app).str() + ": " + app_path + ": unknown app " + quoted(app.Scalar());
      const std::string guess = closest_match(app.Scalar(), registry_.names());
      if (!guess.empty()) message += " (did you mean " + quoted(guess) + "?)";
      throw InputError(message + "; allowed: " + join_words(registry_.names(), ", "));
    }
    return *spec;
  }

  RunSpec parse_run(const YAML::Node& run, const std::string& key_path) {
    RunSpec spec;
    spec.app = &find_app(run, key_path);
    spec.key_path = key_path;
    spec.mark = at(run);
    for (const auto& param : spec.app->params) {
      spec.settings[param.name] = Setting{param.default_value, spec.mark, false};
      if (param.default_sweep.size() > 1) spec.sweeps.emplace_back(param.name, param.default_sweep);
    }
    keys_of(run, key_path);
    for (const auto& entry : run) {
      const std::string key = entry.first.Scalar();
      if (key == "app") continue;
      const ParamSpec* param = spec.app->find_param(key);
      if (param == nullptr) {
        auto allowed = spec.app->param_names();
        allowed.insert(allowed.begin(), "app");
        unknown_key(entry.first, key_path, "app " + spec.app->name, allowed);
      }
      const NodeContext where{origin_, true, join_key(key_path, key), base_dir_};
      assign(spec, *param, parse_setting(entry.second, *param, where), where.mark_of(entry.second));
    }
    return spec;
  }

 public:
  static void assign(RunSpec& run, const ParamSpec& param, std::vector<Value> values,
                     const SourceMark& mark) {
    run.settings[param.name] = Setting{values.front(), mark, true};
    run.settings_changed();
    auto& sweeps = run.sweeps;
    for (auto it = sweeps.begin(); it != sweeps.end(); ++it) {
      if (it->first == param.name) {
        sweeps.erase(it);
        break;
      }
    }
    if (values.size() > 1) {
      // Keep sweeps in schema order, so points enumerate the same way whatever the key order.
      auto position = sweeps.begin();
      for (const auto& p : run.app->params) {
        if (p.name == param.name) break;
        if (position != sweeps.end() && position->first == p.name) ++position;
      }
      sweeps.insert(position, {param.name, std::move(values)});
    }
  }

 private:
  std::string origin_;
  std::string base_dir_;
  const AppRegistry& registry_;
};

void apply_override(Input& input, const Override& override_, const AppRegistry& registry) {
  const std::string where = "--set " + quoted(override_.text);
  std::vector<RunSpec*> targets;
  std::vector<std::string> apps_in_input;
  for (auto& run : input.runs) {
    if (run.app->name == override_.app) targets.push_back(&run);
    apps_in_input.push_back(run.app->name);
  }
  if (targets.empty()) {
    std::string message = where + ": the input has no run of app " + quoted(override_.app);
    if (registry.find(override_.app) == nullptr) {
      message = where + ": unknown app " + quoted(override_.app);
      const std::string guess = closest_match(override_.app, registry.names());
      if (!guess.empty()) message += " (did you mean " + quoted(guess) + "?)";
    }
    throw InputError(message + "; the input has: " + join_words(apps_in_input, ", "));
  }
  const AppSpec& app = *targets.front()->app;
  const ParamSpec* param = app.find_param(override_.key);
  if (param == nullptr) {
    std::string message = where + ": " + override_.key + ": unknown key for app " + app.name;
    const std::string guess = closest_match(override_.key, app.param_names());
    if (!guess.empty()) message += " (did you mean " + quoted(guess) + "?)";
    throw InputError(message + "; allowed: " + join_words(app.param_names(), ", "));
  }
  YAML::Node node;
  try {
    node = YAML::Load(override_.value);
  } catch (const YAML::Exception& e) {
    throw InputError(where + ": malformed value: " + e.msg);
  }
  const NodeContext context{where, false, override_.app + "." + override_.key,
                            fs::current_path().string()};
  const auto values = parse_setting(node, *param, context);
  for (RunSpec* run : targets) {
    InputParser::assign(*run, *param, values, SourceMark{where});
  }
}

std::string read_input_file(const std::string& path) {
  std::ifstream in = open_input_file(path, "input");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError("cannot read input " + quoted(path) + ": read error");
  return text.str();
}

}  // namespace

const std::vector<Params>& RunSpec::points() const {
  if (points_) return *points_;
  std::vector<std::map<std::string, Setting>> combos{settings};
  for (const auto& [name, values] : sweeps) {
    std::vector<std::map<std::string, Setting>> next;
    for (const auto& combo : combos) {
      for (const auto& value : values) {
        auto point = combo;
        point[name].value = value;
        next.push_back(std::move(point));
      }
    }
    combos = std::move(next);
  }
  auto out = std::make_shared<std::vector<Params>>();
  for (auto& combo : combos)
    out->emplace_back(app->name, key_path, std::move(combo), &app->variants);
  points_ = std::move(out);
  return *points_;
}

std::vector<const VariantSpec*> RunSpec::variants() const {
  return select_variants(app->variants,
                         std::get<std::vector<std::string>>(settings.at(kVariantKey).value));
}

Value RunSpec::echoed(const std::string& name) const {
  for (const auto& [swept, values] : sweeps) {
    if (swept != name) continue;
    // Values of one parameter share one type; rebuild the list the user wrote.
    std::vector<std::int64_t> integers;
    std::vector<double> reals;
    std::vector<std::string> words;
    for (const auto& v : values) {
      if (const auto* i = std::get_if<std::int64_t>(&v)) integers.push_back(*i);
      if (const auto* d = std::get_if<double>(&v)) reals.push_back(*d);
      if (const auto* s = std::get_if<std::string>(&v)) words.push_back(*s);
    }
    if (!integers.empty()) return integers;
    if (!reals.empty()) return reals;
    return words;
  }
  return settings.at(name).value;
}

std::string RunSpec::label() const {
  const auto& label = std::get<std::string>(settings.at(kLabelKey).value);
  return label.empty() ? app->name : label;
}

namespace {

// Counted before the points are made: a few lists of a hundred values each make billions.
void check_point_count(const RunSpec& run) {
  double points = 1.0;
  std::string product;
  for (const auto& [name, values] : run.sweeps) {
    points *= static_cast<double>(values.size());
    product += (product.empty() ? "" : " x ") + std::to_string(values.size()) + " " + name;
  }
  if (points > static_cast<double>(kMaxRunPoints)) {
    throw InputError(run.mark.str() + ": " + (run.key_path.empty() ? "" : run.key_path + ": ") +
                     "the sweeps make " + format_significant(points, 3) + " points (" + product +
                     "); a run holds at most " + std::to_string(kMaxRunPoints));
  }
}

}  // namespace

Input load_input_text(const std::string& text, const std::string& origin,
                      const std::string& base_dir, const std::vector<Override>& overrides,
                      const AppRegistry& registry) {
  InputParser parser(origin, base_dir, registry);
  Input input = parser.parse(text);
  input.path = origin;
  for (const auto& override_ : overrides)
    apply_override(input, override_, registry);
  for (const auto& run : input.runs)
    check_point_count(run);
  for (const auto& run : input.runs) {
    if (!run.app->check) continue;
    for (const auto& point : run.points())
      run.app->check(point);
  }
  check_output_files(input);
  return input;
}

Input load_input(const std::string& path, const std::vector<Override>& overrides,
                 const AppRegistry& registry) {
  const std::string text = read_input_file(path);
  const std::string base_dir = fs::absolute(fs::path(path)).parent_path().string();
  return load_input_text(text, path, base_dir, overrides, registry);
}

}  // namespace kmini
