// Where a value came from: a position in an input file, or a command-line override.
#pragma once

#include <string>

namespace kmini {

struct SourceMark {
  std::string origin;  // a file path, or "--set app.key=value"
  int line = 0;        // 1-based; 0 when the origin has no lines (--set, defaults)
  int column = 0;      // 1-based

  // "file:line:column", or just the origin when there is no position.
  std::string str() const {
    if (line <= 0) return origin;
    return origin + ":" + std::to_string(line) + ":" + std::to_string(column);
  }
};

}  // namespace kmini
