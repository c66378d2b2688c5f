// Test helpers: run a program and capture its exit status and output; temporary folders.
#pragma once

#include <string>
#include <vector>

namespace kmini::testing {

struct ProcessResult {
  int exit_code = -1;  // -1 when it did not exit normally (signal)
  std::string out;
  std::string err;
};

// Runs argv[0] with the given arguments (PATH is not searched unless argv[0] has no '/').
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::string& working_dir = "");

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Writes `content` to `name` inside the folder and returns its path.
  std::string write(const std::string& name, const std::string& content) const;
  // Names of the entries in the folder, sorted.
  std::vector<std::string> entries() const;

 private:
  std::string path_;
};

std::string read_file(const std::string& path);

// Lines of `text` that are not empty.
std::vector<std::string> nonempty_lines(const std::string& text);

}  // namespace kmini::testing
