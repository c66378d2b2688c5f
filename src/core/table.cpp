#include "core/table.hpp"

#include <algorithm>
#include <stdexcept>

namespace kmini {

namespace {

bool looks_numeric(const std::string& cell) {
  if (cell.empty()) return false;
  const char first = cell[0];
  return (first >= '0' && first <= '9') || first == '-' || first == '+' || first == '.';
}

}  // namespace

Table::Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != headers_.size()) throw std::logic_error("Table: row width mismatch");
  rows_.push_back(std::move(cells));
}

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> widths;
  for (const auto& h : headers_)
    widths.push_back(h.size());
  for (const auto& row : rows_) {
    for (std::size_t c = 0; c < row.size(); ++c)
      widths[c] = std::max(widths[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells, bool header) {
    std::string text;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(widths[c] - cells[c].size(), ' ');
      if (c > 0) text += "  ";
      text += (!header && looks_numeric(cells[c])) ? pad + cells[c] : cells[c] + pad;
    }
    while (!text.empty() && text.back() == ' ')
      text.pop_back();
    out << text << "\n";
  };
  line(headers_, true);
  std::vector<std::string> rule;
  for (const auto w : widths)
    rule.emplace_back(w, '-');
  line(rule, true);
  for (const auto& row : rows_)
    line(row, false);
}

}  // namespace kmini
