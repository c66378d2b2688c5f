// Files kmini reads (the input itself, and the molecules, basis sets, orders and Sobol tables it
// names) are opened only when they are regular files: open() on a FIFO waits for a writer
// forever, and a device such as /dev/zero reads until memory runs out.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

namespace kmini {

// Why `path` cannot be read as an input file ("no such file", "it is a directory", "it is not a
// regular file (a FIFO, socket or device)"), or "" when it is a regular file.
std::string input_file_problem(const std::string& path);

// `path` open for reading; otherwise InputError "cannot read <what> '<path>': <why>". The file
// is remembered, by identity, as one this process reads (read_file_at).
std::ifstream open_input_file(const std::string& path, const std::string& what);

// The file this process opened with open_input_file that `path` names, as "<what> '<path it was
// read by>'", or "" when `path` names none of them or nothing. Files are compared by identity,
// device and inode with links followed, so that no other name of an input (a link, a path
// through "..", a hard link) passes for a new file: a report or dump written there would replace
// what the run reads. An inode counts while the path it was read by still leads to it, or while
// it holds what was read: a file deleted since frees its inode for new files.
std::string read_file_at(const std::string& path);

// Whether `a` and `b` name one file: by device and inode, links followed, where both exist; by
// their absolute paths with links and ".." resolved where neither does yet.
bool same_file(const std::string& a, const std::string& b);

// Whether a file written at `a` would replace one written at `b`: they are the same file, and it
// is a regular file or none yet. A stream (a device such as /dev/null, a FIFO, a socket) takes
// each write in turn, so two outputs may both name it.
bool writes_collide(const std::string& a, const std::string& b);

// A digest (FNV-1a, 64 bits) of the contents of every file open_input_file opened, in the order
// they were opened: ranks that parsed the same input from the same files agree on it.
std::uint64_t read_files_digest();

// FNV-1a of `bytes`, continuing from `digest`.
std::uint64_t fnv1a(const std::string& bytes, std::uint64_t digest = 14695981039346656037ULL);

}  // namespace kmini
