// Writing a file so that it is either complete or absent: the content goes to a temporary file
// in the same folder, which is then renamed over the target.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace kmini {

// Calls `produce` to generate the whole content first; only then creates the temporary file,
// writes, syncs and renames it. If `produce` throws, nothing is created and the exception
// propagates; if writing fails, the temporary file is removed and RuntimeFailure is thrown. A
// `path` that names a file the process read (read_file_at) is refused with RuntimeFailure.
void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& produce);

// Throws InputError unless `path` can be written: its folder exists and takes a new file (one is
// created there and removed), and the path is not a folder nor any other file that is not a
// regular one (a device or FIFO would be replaced by the rename), nor a file the process read. Also
// removes the temporary files a killed write to `path` left. Called before any run, so a long run
// never ends unable to write.
void check_writable_path(const std::string& path, const std::string& what);

}  // namespace kmini
