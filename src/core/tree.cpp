#include "core/tree.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "core/text.hpp"

namespace kmini {

Tree Tree::list() {
  Tree t;
  t.data_ = List{};
  return t;
}

Tree Tree::map() {
  Tree t;
  t.data_ = Map{};
  return t;
}

namespace {

// Member templates are not allowed in local classes, so the converter lives here.
struct ValueToTree {
  Tree operator()(std::monostate) const { return Tree(); }
  Tree operator()(bool b) const { return Tree(b); }
  Tree operator()(std::int64_t i) const { return Tree(static_cast<long long>(i)); }
  Tree operator()(double d) const { return Tree(d); }
  Tree operator()(const std::string& s) const { return Tree(s); }
  template <class T>
  Tree operator()(const std::vector<T>& items) const {
    Tree out = Tree::list();
    for (const auto& item : items)
      out.push_back((*this)(item));
    return out;
  }
};

}  // namespace

Tree Tree::from_value(const Value& value) {
  return std::visit(ValueToTree{}, value);
}

Tree& Tree::operator[](const std::string& key) {
  if (is_null()) data_ = Map{};
  auto* entries = std::get_if<Map>(&data_);
  if (entries == nullptr) throw std::logic_error("Tree: key '" + key + "' on a non-map");
  for (auto& entry : *entries) {
    if (entry.first == key) return entry.second;
  }
  entries->emplace_back(key, Tree());
  return entries->back().second;
}

const Tree* Tree::find(const std::string& key) const {
  if (!is_map()) return nullptr;
  for (const auto& entry : entries()) {
    if (entry.first == key) return &entry.second;
  }
  return nullptr;
}

Tree& Tree::push_back(Tree item) {
  if (is_null()) data_ = List{};
  auto* items = std::get_if<List>(&data_);
  if (items == nullptr) throw std::logic_error("Tree: push_back on a non-list");
  items->push_back(std::move(item));
  return items->back();
}

const Tree::List& Tree::items() const {
  static const List empty;
  const auto* items = std::get_if<List>(&data_);
  return items ? *items : empty;
}

const Tree::Map& Tree::entries() const {
  static const Map empty;
  const auto* entries = std::get_if<Map>(&data_);
  return entries ? *entries : empty;
}

namespace {

// A double-quoted string, valid in both JSON and YAML.
std::string quote_string(const std::string& s) {
  std::string out = "\"";
  for (const unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

bool is_plain_key(const std::string& key) {
  if (key.empty()) return false;
  for (const char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return !(key[0] >= '0' && key[0] <= '9') && key[0] != '-';
}

struct ScalarText {
  bool json;
  std::string operator()(std::monostate) const { return "null"; }
  std::string operator()(bool b) const { return b ? "true" : "false"; }
  std::string operator()(std::int64_t i) const { return std::to_string(i); }
  std::string operator()(double d) const {
    if (std::isnan(d)) return json ? "null" : ".nan";
    if (std::isinf(d)) return json ? "null" : (d > 0 ? ".inf" : "-.inf");
    std::string text = format_number(d);
    // Keep doubles recognisable as such when they happen to be whole.
    if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
    return text;
  }
  std::string operator()(const std::string& s) const { return quote_string(s); }
  std::string operator()(const Tree::List&) const { return "[]"; }
  std::string operator()(const Tree::Map&) const { return "{}"; }
};

std::string scalar_text(const Tree& t, bool json) {
  return t.visit(ScalarText{json});
}

bool is_flat_list(const Tree& t) {
  if (!t.is_list()) return false;
  for (const auto& item : t.items()) {
    if (!item.is_scalar()) return false;
  }
  return true;
}

// Written on the same line as its key or dash.
bool is_inline(const Tree& t) {
  return t.is_scalar() || (t.is_list() && (t.items().empty() || is_flat_list(t))) ||
         (t.is_map() && t.entries().empty());
}

std::string inline_yaml(const Tree& t) {
  if (!t.is_list() || t.items().empty()) return scalar_text(t, false);
  std::string out = "[";
  for (std::size_t i = 0; i < t.items().size(); ++i) {
    if (i > 0) out += ", ";
    out += scalar_text(t.items()[i], false);
  }
  return out + "]";
}

void yaml_block(const Tree& t, int indent, std::ostream& out);

// A list item at `indent`: "- value", or "- " followed by a block whose first line takes the
// dash's place.
void yaml_list_item(const Tree& item, int indent, std::ostream& out) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  if (is_inline(item)) {
    out << pad << "- " << inline_yaml(item) << "\n";
    return;
  }
  std::ostringstream block;
  yaml_block(item, indent + 2, block);
  std::string text = block.str();
  text.replace(0, static_cast<std::size_t>(indent + 2), pad + "- ");
  out << text;
}

void yaml_block(const Tree& t, int indent, std::ostream& out) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  if (t.is_list()) {
    for (const auto& item : t.items())
      yaml_list_item(item, indent, out);
    return;
  }
  for (const auto& [key, value] : t.entries()) {
    out << pad << (is_plain_key(key) ? key : quote_string(key)) << ":";
    if (is_inline(value)) {
      out << " " << inline_yaml(value) << "\n";
    } else {
      out << "\n";
      yaml_block(value, indent + 2, out);
    }
  }
}

void json_value(const Tree& t, int indent, std::ostream& out) {
  const std::string pad(static_cast<std::size_t>(indent + 2), ' ');
  const std::string close_pad(static_cast<std::size_t>(indent), ' ');
  if (t.is_list() && !t.items().empty()) {
    out << "[\n";
    for (std::size_t i = 0; i < t.items().size(); ++i) {
      out << pad;
      json_value(t.items()[i], indent + 2, out);
      out << (i + 1 < t.items().size() ? ",\n" : "\n");
    }
    out << close_pad << "]";
  } else if (t.is_map() && !t.entries().empty()) {
    out << "{\n";
    for (std::size_t i = 0; i < t.entries().size(); ++i) {
      const auto& [key, value] = t.entries()[i];
      out << pad << quote_string(key) << ": ";
      json_value(value, indent + 2, out);
      out << (i + 1 < t.entries().size() ? ",\n" : "\n");
    }
    out << close_pad << "}";
  } else {
    out << scalar_text(t, true);
  }
}

}  // namespace

void write_yaml(const Tree& tree, std::ostream& out) {
  if (is_inline(tree)) {
    out << inline_yaml(tree) << "\n";
  } else {
    yaml_block(tree, 0, out);
  }
}

void write_json(const Tree& tree, std::ostream& out) {
  json_value(tree, 0, out);
  out << "\n";
}

}  // namespace kmini
