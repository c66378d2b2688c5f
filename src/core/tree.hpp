// A small ordered document tree (null, booleans, numbers, strings, lists, maps) that a report is
// built as, and its two spellings: YAML and JSON. Map keys keep their insertion order.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/param.hpp"

namespace kmini {

class Tree {
 public:
  using List = std::vector<Tree>;
  using Map = std::vector<std::pair<std::string, Tree>>;

  Tree() = default;  // null
  Tree(bool value) : data_(value) {}
  Tree(int value) : data_(static_cast<std::int64_t>(value)) {}
  Tree(long value) : data_(static_cast<std::int64_t>(value)) {}
  Tree(long long value) : data_(static_cast<std::int64_t>(value)) {}
  Tree(unsigned long value) : data_(static_cast<std::int64_t>(value)) {}
  Tree(double value) : data_(value) {}
  Tree(const char* value) : data_(std::string(value)) {}
  Tree(std::string value) : data_(std::move(value)) {}

  static Tree list();
  static Tree map();
  // A parameter value as a tree: scalars as such, lists as lists.
  static Tree from_value(const Value& value);

  // Map access; inserts a null entry at the end for a new key.
  Tree& operator[](const std::string& key);
  const Tree* find(const std::string& key) const;
  Tree& push_back(Tree item);

  bool is_null() const { return std::holds_alternative<std::monostate>(data_); }
  bool is_list() const { return std::holds_alternative<List>(data_); }
  bool is_map() const { return std::holds_alternative<Map>(data_); }
  bool is_scalar() const { return !is_list() && !is_map(); }
  const List& items() const;
  const Map& entries() const;

  template <class Visitor>
  decltype(auto) visit(Visitor&& visitor) const {
    return std::visit(std::forward<Visitor>(visitor), data_);
  }

 private:
  std::variant<std::monostate, bool, std::int64_t, double, std::string, List, Map> data_;
};

// Block-style YAML: maps and lists of maps as blocks, lists of scalars inline, every string
// double-quoted (so "1.0" stays a string), numbers in shortest round-trip form.
void write_yaml(const Tree& tree, std::ostream& out);
// Indented JSON; non-finite numbers become null.
void write_json(const Tree& tree, std::ostream& out);

}  // namespace kmini
