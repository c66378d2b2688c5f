#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "core/error.hpp"
#include "core/text.hpp"

namespace kmini {

namespace fs = std::filesystem;

namespace {

std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

}  // namespace

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& produce) {
  std::ostringstream content;
  produce(content);
  const std::string text = content.str();

  const std::string folder = folder_of(path);
  std::string temporary =
      (fs::path(folder) / ("." + fs::path(path).filename().string() + ".tmp-XXXXXX")).string();
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
  if (access(folder.c_str(), W_OK) != 0) {
    throw InputError(what + " " + quoted(path) + ": folder " + quoted(folder) + " is not writable");
  }
}

}  // namespace kmini
