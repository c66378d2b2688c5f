// Converting one YAML node to a parameter value, checked against its ParamSpec.
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/param.hpp"
#include "core/source_mark.hpp"

namespace kmini {

// Where the node sits, for messages: "file:3:12: runs[0].elements: ..."
struct NodeContext {
  std::string origin;    // file path or "--set ..."
  bool has_lines;        // false for --set values, whose positions mean nothing to the user
  std::string key_path;  // "runs[0].elements"
  std::string base_dir;  // for relative paths

  SourceMark mark_of(const YAML::Node& node) const;
  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const;
};

// "'abc'", "a list", "a mapping", "nothing (an empty value)".
std::string describe_node(const YAML::Node& node);

// A value for `spec`, or a list of them when the spec is sweepable and the node is a list.
// Throws InputError naming the position, key, expectation and what was found.
std::vector<Value> parse_setting(const YAML::Node& node, const ParamSpec& spec,
                                 const NodeContext& where);

}  // namespace kmini
