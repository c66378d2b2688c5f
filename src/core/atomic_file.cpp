#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/text.hpp"

namespace kmini {

namespace fs = std::filesystem;

namespace {

std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// The template of `path`'s temporary files, for mkstemp: ".NAME.tmp-XXXXXX" beside it.
std::string temporary_name(const std::string& path) {
  return (fs::path(folder_of(path)) / ("." + fs::path(path).filename().string() + ".tmp-XXXXXX"))
      .string();
}

// A run killed while writing leaves its temporary file behind. Those of `path` older than a
// minute are removed: a write in progress (its content is produced before the file is created)
// is never that old.
void remove_stale_temporaries(const std::string& path) {
  const std::string prefix = "." + fs::path(path).filename().string() + ".tmp-";
  const auto limit = fs::file_time_type::clock::now() - std::chrono::minutes(1);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder_of(path), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() != prefix.size() + 6 || name.compare(0, prefix.size(), prefix) != 0) continue;
    std::error_code entry_ec;
    if (!entry.is_regular_file(entry_ec) || entry.last_write_time(entry_ec) > limit || entry_ec)
      continue;
    fs::remove(entry.path(), entry_ec);
  }
}

}  // namespace

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& produce) {
  const std::string read = read_file_at(path);
  if (!read.empty())
    throw RuntimeFailure("will not write " + quoted(path) + ": it is " + read +
                         ", which the run reads");
  std::ostringstream content;
  produce(content);
  const std::string text = content.str();

  const std::string folder = folder_of(path);
  std::string temporary = temporary_name(path);
  const int fd = mkstemp(temporary.data());
  if (fd < 0) {
    throw RuntimeFailure("cannot create a temporary file in " + quoted(folder) + ": " +
                         std::strerror(errno));
  }
  auto fail = [&](const char* step) {
    const std::string reason = std::strerror(errno);
    close(fd);
    unlink(temporary.c_str());
    throw RuntimeFailure(std::string("cannot ") + step + " " + quoted(path) + ": " + reason);
  };
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("write");
    written += static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0) fail("sync");
  // mkstemp creates 0600; a report is an ordinary file.
  if (fchmod(fd, 0644) != 0) fail("set permissions of");
  if (close(fd) != 0) {
    unlink(temporary.c_str());
    throw RuntimeFailure("cannot close " + quoted(path) + ": " + std::strerror(errno));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    unlink(temporary.c_str());
    throw RuntimeFailure("cannot rename the report into " + quoted(path) + ": " + reason);
  }
}

void check_writable_path(const std::string& path, const std::string& what) {
  const std::string folder = folder_of(path);
  std::error_code ec;
  if (!fs::exists(folder, ec)) {
    throw InputError(what + " " + quoted(path) + ": folder " + quoted(folder) + " does not exist");
  }
  if (!fs::is_directory(folder, ec)) {
    throw InputError(what + " " + quoted(path) + ": " + quoted(folder) + " is not a folder");
  }
  if (fs::is_directory(path, ec)) {
    throw InputError(what + " " + quoted(path) + ": is a folder, not a file name");
  }
  const std::string read = read_file_at(path);
  if (!read.empty()) {
    throw InputError(what + " " + quoted(path) + ": is " + read +
                     ", which the run reads and a write there would replace; name another file");
  }
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
    throw InputError(what + " " + quoted(path) +
                     ": exists and is not a regular file (a device, FIFO or socket), which a "
                     "report must never replace");
  }
  if (access(folder.c_str(), W_OK) != 0) {
    throw InputError(what + " " + quoted(path) + ": folder " + quoted(folder) + " is not writable");
  }
  remove_stale_temporaries(path);
  // Permissions are not the whole story (/proc is writable by root, yet takes no new file): a
  // file is created there and removed, as the write at the end will.
  std::string probe = temporary_name(path);
  const int fd = mkstemp(probe.data());
  if (fd < 0) {
    throw InputError(what + " " + quoted(path) + ": cannot create a file in folder " +
                     quoted(folder) + ": " + std::strerror(errno));
  }
  close(fd);
  unlink(probe.c_str());
}

}  // namespace kmini
