#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <vector>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/text.hpp"

namespace kmini {

namespace fs = std::filesystem;

namespace {

// The temporary files of the writes under way, which a process ended in the middle of one
// removes (remove_unfinished_temporaries): a write may run in another thread than the ending.
std::mutex g_unfinished_mutex;
std::set<std::string> g_unfinished;

// Registers a temporary file for the time it lives: each path out of a write renames or removes
// it before this ends.
class Unfinished {
 public:
  explicit Unfinished(std::string path) : path_(std::move(path)) {
    const std::lock_guard<std::mutex> lock(g_unfinished_mutex);
    g_unfinished.insert(path_);
  }
  ~Unfinished() {
    const std::lock_guard<std::mutex> lock(g_unfinished_mutex);
    g_unfinished.erase(path_);
  }
  Unfinished(const Unfinished&) = delete;
  Unfinished& operator=(const Unfinished&) = delete;

 private:
  std::string path_;
};

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

// Where a write to a path lands. A path through /proc/self/fd (/dev/stdout, /dev/fd/3) names a
// descriptor the process holds: reopening it would start at offset 0 of a redirected file and
// write over what the process printed there, so the descriptor itself is written. Otherwise its
// links are followed: a link is written through to its target, never replaced by a rename.
struct WriteTarget {
  int descriptor = -1;  // >= 0: write to this descriptor
  std::string path;     // else this path, which is no link
  bool through_link = false;
  bool loops = false;  // links that lead back to themselves: no file to write
};

// As many links as the kernel follows before ELOOP.
constexpr int kMostLinks = 40;

WriteTarget write_target_of(const std::string& path) {
  const std::string own_descriptors = "/proc/" + std::to_string(getpid()) + "/fd";
  fs::path current = fs::absolute(path);
  int links = 0;
  for (; links < kMostLinks; ++links) {
    std::error_code ec;
    const fs::path folder = fs::weakly_canonical(current.parent_path(), ec);
    if (!ec) current = folder / current.filename();
    const std::string name = current.filename().string();
    if (!ec && (folder == own_descriptors || folder == "/proc/self/fd") && !name.empty() &&
        name.size() < 10 &&
        std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isdigit(c); })) {
      return {std::stoi(name), "", links > 0};
    }
    struct stat status {};
    if (lstat(current.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) break;
    const fs::path target = fs::read_symlink(current, ec);
    if (ec) break;
    current = target.is_absolute() ? target : current.parent_path() / target;
  }
  return {-1, current.string(), links > 0, links == kMostLinks};
}

// A device or FIFO takes the content as a stream: it is opened and written, where a rename would
// replace it by a regular file.
bool written_directly(const std::string& path) {
  struct stat status {};
  return stat(path.c_str(), &status) == 0 && (S_ISCHR(status.st_mode) || S_ISFIFO(status.st_mode));
}

bool write_all(int fd, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

void write_to_descriptor(int fd, const std::string& path, const std::string& text) {
  // The descriptor may be standard output: what the process printed there goes first.
  std::cout.flush();
  std::fflush(nullptr);
  if (!write_all(fd, text))
    throw RuntimeFailure("cannot write " + quoted(path) + ": " + std::strerror(errno));
}

void write_to_stream_file(const std::string& target, const std::string& path,
                          const std::string& text) {
  // Non-blocking, so that a FIFO nobody reads fails the write instead of hanging the run.
  const int fd = open(target.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const std::string reason = errno == ENXIO ? "a FIFO that nothing reads" : std::strerror(errno);
    throw RuntimeFailure("cannot open " + quoted(path) + ": " + reason);
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  const bool written = write_all(fd, text);
  const std::string reason = std::strerror(errno);
  close(fd);
  if (!written) throw RuntimeFailure("cannot write " + quoted(path) + ": " + reason);
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

  const WriteTarget target = write_target_of(path);
  if (target.loops)
    throw RuntimeFailure("cannot write " + quoted(path) + ": it is a loop of symbolic links");
  if (target.descriptor >= 0) return write_to_descriptor(target.descriptor, path, text);
  if (written_directly(target.path)) return write_to_stream_file(target.path, path, text);
  const std::string folder = folder_of(target.path);
  std::string temporary = temporary_name(target.path);
  const int fd = mkstemp(temporary.data());
  if (fd < 0) {
    throw RuntimeFailure("cannot create a temporary file in " + quoted(folder) + ": " +
                         std::strerror(errno));
  }
  const Unfinished unfinished(temporary);
  auto fail = [&](const char* step) {
    const std::string reason = std::strerror(errno);
    close(fd);
    unlink(temporary.c_str());
    throw RuntimeFailure(std::string("cannot ") + step + " " + quoted(path) + ": " + reason);
  };
  if (!write_all(fd, text)) fail("write");
  if (fsync(fd) != 0) fail("sync");
  // mkstemp creates 0600; a report is an ordinary file.
  if (fchmod(fd, 0644) != 0) fail("set permissions of");
  if (close(fd) != 0) {
    unlink(temporary.c_str());
    throw RuntimeFailure("cannot close " + quoted(path) + ": " + std::strerror(errno));
  }
  if (std::rename(temporary.c_str(), target.path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    unlink(temporary.c_str());
    throw RuntimeFailure("cannot rename the report into " + quoted(path) + ": " + reason);
  }
}

void remove_unfinished_temporaries() {
  const std::lock_guard<std::mutex> lock(g_unfinished_mutex);
  for (const std::string& path : g_unfinished)
    unlink(path.c_str());
}

void check_writable_path(const std::string& path, const std::string& what) {
  const std::string read = read_file_at(path);
  if (!read.empty()) {
    throw InputError(what + " " + quoted(path) + ": is " + read +
                     ", which the run reads and a write there would replace; name another file");
  }
  const WriteTarget target = write_target_of(path);
  if (target.descriptor >= 0) {
    const int mode = fcntl(target.descriptor, F_GETFL);
    if (mode < 0 || (mode & O_ACCMODE) == O_RDONLY) {
      throw InputError(what + " " + quoted(path) + ": is descriptor " +
                       std::to_string(target.descriptor) + ", which is not open for writing");
    }
    return;
  }
  if (target.loops) {
    throw InputError(what + " " + quoted(path) +
                     ": is a loop of symbolic links, which leads to no file (a write would "
                     "replace one of the links)");
  }
  const std::string& file = target.path;
  const std::string shown =
      quoted(path) + (target.through_link ? " (a link to " + quoted(file) + ")" : "");
  if (written_directly(file)) {
    if (access(file.c_str(), W_OK) != 0) {
      throw InputError(what + " " + shown + ": cannot be written: " + std::strerror(errno));
    }
    return;
  }
  const std::string folder = folder_of(file);
  std::error_code ec;
  if (!fs::exists(folder, ec)) {
    throw InputError(what + " " + shown + ": folder " + quoted(folder) + " does not exist");
  }
  if (!fs::is_directory(folder, ec)) {
    throw InputError(what + " " + shown + ": " + quoted(folder) + " is not a folder");
  }
  if (fs::is_directory(file, ec)) {
    throw InputError(what + " " + shown + ": is a folder, not a file name");
  }
  if (fs::exists(file, ec) && !fs::is_regular_file(file, ec)) {
    throw InputError(what + " " + shown + ": is a socket, which takes no file");
  }
  if (access(folder.c_str(), W_OK) != 0) {
    throw InputError(what + " " + shown + ": folder " + quoted(folder) + " is not writable");
  }
  remove_stale_temporaries(file);
  // Permissions are not the whole story (/proc is writable by root, yet takes no new file): a
  // file is created there and removed, as the write at the end will.
  std::string probe = temporary_name(file);
  const int fd = mkstemp(probe.data());
  if (fd < 0) {
    throw InputError(what + " " + shown + ": cannot create a file in folder " + quoted(folder) +
                     ": " + std::strerror(errno));
  }
  close(fd);
  unlink(probe.c_str());
}

namespace {

// The most numbered names a fallback tries in one folder before it gives that folder up.
constexpr int kMostNumberedNames = 1000;

// `name` in `folder`, or where a file (or a link, even a dangling one) already has it, the first
// free of stem-1.ext, stem-2.ext, ...: a fallback never replaces a file it was not asked for.
// "" where none is free, or the folder cannot be looked into (then no write there could work).
std::string free_name_in(const std::string& folder, const std::string& name) {
  const auto is_free = [](const std::filesystem::path& p, bool& unreadable) {
    std::error_code error;
    const std::filesystem::file_type type = std::filesystem::symlink_status(p, error).type();
    unreadable = type == std::filesystem::file_type::none;  // an error other than "no such file"
    return type == std::filesystem::file_type::not_found;
  };
  bool unreadable = false;
  const std::filesystem::path plain = std::filesystem::path(folder) / name;
  if (is_free(plain, unreadable)) return plain.string();
  const std::string stem = plain.stem().string(), extension = plain.extension().string();
  for (int n = 1; n <= kMostNumberedNames && !unreadable; ++n) {
    const std::filesystem::path numbered =
        std::filesystem::path(folder) / (stem + "-" + std::to_string(n) + extension);
    if (is_free(numbered, unreadable)) return numbered.string();
  }
  return "";
}

}  // namespace

std::string write_report_somewhere(const std::string& path,
                                   const std::function<void(std::ostream&)>& produce) {
  std::string problem;
  try {
    write_file_atomically(path, produce);
    return path;
  } catch (const RuntimeFailure& e) {
    problem = e.what();
  } catch (const std::filesystem::filesystem_error& e) {
    problem = "cannot write " + quoted(path) + ": " + e.code().message();
  }
  const std::string name = std::filesystem::path(path).filename().string();
  const char* tmpdir = std::getenv("TMPDIR");
  // A working folder removed during the run has no path: it is passed over, and so is a relative
  // TMPDIR, which would lie inside it. /tmp comes last whatever TMPDIR says.
  std::error_code no_working_folder;
  const std::filesystem::path working = std::filesystem::current_path(no_working_folder);
  const std::string temporary = tmpdir != nullptr ? tmpdir : "";
  const bool temporary_usable =
      !temporary.empty() && (std::filesystem::path(temporary).is_absolute() || !no_working_folder);
  std::vector<std::string> tried;
  for (const std::string& folder :
       {no_working_folder ? std::string() : working.string(),
        temporary_usable ? temporary : std::string(), std::string("/tmp")}) {
    if (folder.empty() || (std::filesystem::path(folder) / name).string() == path) continue;
    if (std::find(tried.begin(), tried.end(), folder) != tried.end()) continue;
    tried.push_back(folder);
    try {
      const std::string fallback = free_name_in(folder, name);
      if (fallback.empty()) {
        problem += "; no free name for it in " + quoted(folder);
        continue;
      }
      write_file_atomically(fallback, produce);
      std::cerr << "kmini: " << problem << "; the report went to " << fallback << " instead"
                << std::endl;
      return fallback;
    } catch (const RuntimeFailure& e) {
      problem += "; " + std::string(e.what());
    } catch (const std::filesystem::filesystem_error& e) {
      problem += "; " + quoted(folder) + ": " + e.code().message();
    }
  }
  std::cerr << "kmini: " << problem << "; no report was written" << std::endl;
  return "";
}

}  // namespace kmini
