// A plain-text table for the terminal: columns sized to their contents, numbers right-aligned.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace kmini {

class Table {
 public:
  explicit Table(std::vector<std::string> headers);
  void add_row(std::vector<std::string> cells);
  void print(std::ostream& out) const;
  bool empty() const { return rows_.empty(); }

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace kmini
