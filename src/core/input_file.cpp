#include "core/input_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <mutex>
#include <vector>

#include "core/error.hpp"
#include "core/text.hpp"

namespace kmini {

namespace {

struct ReadFile {
  dev_t device;
  ino_t inode;
  std::string path;         // as it was opened
  std::string description;  // "<what> '<path>'"
  std::uint64_t digest;     // of its contents when opened
};

std::mutex g_read_files_mutex;
std::vector<ReadFile> g_read_files;

}  // namespace

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
  struct stat status {};
  if (stat(path.c_str(), &status) == 0) {
    std::ifstream whole(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(whole)),
                            std::istreambuf_iterator<char>());
    const std::lock_guard<std::mutex> lock(g_read_files_mutex);
    const std::string article = what.rfind("the ", 0) == 0 ? "" : "the ";
    g_read_files.push_back(
        {status.st_dev, status.st_ino, path, article + what + " " + quoted(path), fnv1a(bytes)});
  }
  return in;
}

std::string read_file_at(const std::string& path) {
  struct stat status {};
  if (stat(path.c_str(), &status) != 0) return "";
  const std::lock_guard<std::mutex> lock(g_read_files_mutex);
  for (const ReadFile& file : g_read_files) {
    if (file.device != status.st_dev || file.inode != status.st_ino) continue;
    // A file read and since deleted frees its inode, which a new file (a report) may get: the
    // inode is the file read while its path still leads there, or while it holds what was read
    // (the file moved).
    struct stat now {};
    if (stat(file.path.c_str(), &now) == 0 && now.st_dev == file.device && now.st_ino == file.inode)
      return file.description;
    std::ifstream in(path, std::ios::binary);
    if (!in.is_open()) continue;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (fnv1a(bytes) == file.digest) return file.description;
  }
  return "";
}

namespace {

// Where a write to `path`, a file yet to be written, will land: the links it ends in followed
// (a report or dump is written through a link, even one whose target does not exist yet), then
// the folders' links and `..` resolved. weakly_canonical alone stops at a dangling link's own
// name. Empty where the path cannot be resolved (a loop of links, say).
std::filesystem::path landing_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::path current = fs::absolute(path, error);
  if (error) return {};
  for (int hops = 0;; ++hops) {
    struct stat status {};
    if (lstat(current.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) break;
    if (hops == 40) return {};  // as many as the kernel follows before it says ELOOP
    const fs::path target = fs::read_symlink(current, error);
    if (error) return {};
    current = target.is_absolute() ? target : current.parent_path() / target;
  }
  const fs::path resolved = fs::weakly_canonical(current, error);
  return error ? fs::path() : resolved;
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  struct stat status_a {};
  struct stat status_b {};
  const bool a_exists = stat(a.c_str(), &status_a) == 0;
  const bool b_exists = stat(b.c_str(), &status_b) == 0;
  if (a_exists != b_exists) return false;
  if (a_exists) return status_a.st_dev == status_b.st_dev && status_a.st_ino == status_b.st_ino;
  const std::filesystem::path landing_a = landing_path(a), landing_b = landing_path(b);
  return !landing_a.empty() && landing_a == landing_b;
}

bool writes_collide(const std::string& a, const std::string& b) {
  if (!same_file(a, b)) return false;
  struct stat status {};
  if (stat(a.c_str(), &status) != 0) return true;
  return !S_ISCHR(status.st_mode) && !S_ISFIFO(status.st_mode) && !S_ISSOCK(status.st_mode);
}

std::uint64_t fnv1a(const std::string& bytes, std::uint64_t digest) {
  for (const unsigned char byte : bytes) {
    digest ^= byte;
    digest *= 1099511628211ULL;
  }
  return digest;
}

std::uint64_t read_files_digest() {
  const std::lock_guard<std::mutex> lock(g_read_files_mutex);
  std::uint64_t digest = fnv1a("");
  for (const ReadFile& file : g_read_files)
    digest = fnv1a(std::to_string(file.digest), digest);
  return digest;
}

}  // namespace kmini
