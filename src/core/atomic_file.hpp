// Writing a file so that it is either complete or absent: the content goes to a temporary file
// in the same folder, which is then renamed over the target. Links are written through, and
// streams (devices, FIFOs, descriptors the process holds) are written directly.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace kmini {

// Calls `produce` to generate the whole content first; only then creates the temporary file,
// writes, syncs and renames it over the file `path` names at the end of its links, which are
// kept. A path that names a device or FIFO is opened and written instead (a FIFO that nothing
// reads fails), and one through /proc/self/fd (/dev/stdout) writes that descriptor after what
// the process printed there. If `produce` throws, nothing is created and the exception
// propagates; if writing fails, the temporary file is removed and RuntimeFailure is thrown. A
// `path` that names a file the process read (read_file_at) is refused with RuntimeFailure.
void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& produce);

// Removes the temporary files of the writes under way in this process, for a process about to
// end in the middle of one (core/last_resort.hpp): a write's target keeps its old content.
void remove_unfinished_temporaries();

// Throws InputError unless `path` can be written: a device or FIFO the process may write, a
// descriptor open for writing, or else a file whose folder (at the end of its links) exists and
// takes a new file (one is created there and removed), that is not a folder or socket, nor a
// file the process read. Also removes the temporary files a killed write to `path` left. Called
// before any run, so a long run never ends unable to write.
void check_writable_path(const std::string& path, const std::string& what);

// Writes the report to `path`; where that fails at the end of a run (the folder gone, the disk
// full), to the same name in the working folder, else in $TMPDIR or /tmp, numbered (stem-1.ext,
// ...) where that name is taken, saying so on stderr: a finished run's results are never lost
// to its report path, and no other file is replaced. Returns where it went, or "" where nothing
// could be written (said on stderr).
std::string write_report_somewhere(const std::string& path,
                                   const std::function<void(std::ostream&)>& produce);

}  // namespace kmini
