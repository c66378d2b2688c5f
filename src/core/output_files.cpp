// The files an input's runs write, against every file the input reads and each other
// (config.hpp).
#include <filesystem>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/config.hpp"
#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/text.hpp"

namespace kmini {

namespace fs = std::filesystem;

namespace {

bool names_file_read(const ParamSpec& param) {
  return param.type == ParamType::path || param.type == ParamType::name_or_path ||
         param.type == ParamType::integers_or_name;
}

// Which run's parameter names `path` as a file it reads, as "runs[1].order (file:line:column)",
// or "" where none does (the input itself, a shipped file a run reads by default).
std::string reader_of(const Input& input, const std::string& path) {
  for (const auto& run : input.runs) {
    for (const auto& param : run.app->params) {
      if (!names_file_read(param)) continue;
      for (const auto& point : run.points()) {
        const auto* named = std::get_if<std::string>(&point.value(param.name));
        // Files are resolved to absolute paths; a shipped name (basis: sto-3g) is no path.
        if (named == nullptr || !fs::path(*named).is_absolute() || !same_file(*named, path))
          continue;
        return point.key_path(param.name) + " (" + point.mark(param.name).str() + ")";
      }
    }
  }
  return "";
}

}  // namespace

std::vector<OutputFile> output_files(const Input& input) {
  std::vector<OutputFile> outputs;
  for (const auto& run : input.runs) {
    for (const auto& param : run.app->params) {
      if (!param.output) continue;
      std::set<std::string> written_by_run;
      for (const auto& point : run.points()) {
        if (!point.has(param.name)) continue;
        const std::string& path = point.string(param.name);
        if (!written_by_run.insert(path).second) continue;
        outputs.push_back({path, param.name, point.key_path(param.name), point.mark(param.name)});
      }
    }
  }
  return outputs;
}

void check_output_files(const Input& input) {
  const std::vector<OutputFile> outputs = output_files(input);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const OutputFile& output = outputs[i];
    const auto refuse = [&](const std::string& why) {
      throw InputError(output.mark.str() + ": " + output.key_path + ": " + quoted(output.path) +
                       " " + why + "; name another file");
    };
    const std::string read = read_file_at(output.path);
    if (!read.empty()) {
      const std::string reader = reader_of(input, output.path);
      refuse("is " + read + ", which " + (reader.empty() ? "kmini" : reader) +
             " reads: the write would replace it");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (writes_collide(outputs[j].path, output.path)) {
        refuse("is the file " + outputs[j].key_path + " (" + outputs[j].mark.str() +
               ") writes too: one would replace the other");
      }
    }
    try {
      check_writable_path(output.path, output.name);
    } catch (const InputError& e) {
      throw InputError(output.mark.str() + ": " + output.key_path + ": " + e.what());
    }
  }
}

}  // namespace kmini
