#include "core/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/error.hpp"
#include "core/text.hpp"

namespace kmini {

std::string input_file_problem(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) return "no such file";
  if (fs::is_directory(status)) return "it is a directory";
  if (!fs::is_regular_file(status)) return "it is not a regular file (a FIFO, socket or device)";
  return "";
}

std::ifstream open_input_file(const std::string& path, const std::string& what) {
  const std::string where = "cannot read " + what + " " + quoted(path) + ": ";
  const std::string problem = input_file_problem(path);
  if (!problem.empty()) throw InputError(where + problem);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(where + std::strerror(errno));
  return in;
}

}  // namespace kmini
