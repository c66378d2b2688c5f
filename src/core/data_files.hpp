// kmini's shipped data (basis sets, molecules, the Sobol table, the inputs) by its path inside a
// data folder, so that an installed tree, a moved one, or a binary copied to another machine
// finds it. The folders searched, in order:
//   1. $KMINI_DATA_DIR, when set and not empty;
//   2. share/kmini beside the executable's bin/ (an installed tree, wherever it was moved);
//   3. inputs/ beside the executable (a binary copied along with the source tree's inputs/);
//   4. the source tree's inputs/, reached from the executable by the path from the build tree
//      to it (a binary in its build tree, even if source and build trees moved together);
//   5. the install prefix's share/kmini, as configured (an installed binary copied alone).
#pragma once

#include <string>
#include <vector>

namespace kmini {

struct DataFolder {
  std::string path;
  std::string origin;  // why it is searched, for messages: "KMINI_DATA_DIR", ...
};

// The folders searched, in order. Throws InputError when KMINI_DATA_DIR names no folder.
std::vector<DataFolder> data_search_path();

// `relative` ("basis/sto-3g.gbs") in the first folder of the search that holds it. Throws
// InputError saying where it looked and how to set KMINI_DATA_DIR when none does.
std::string data_file(const std::string& relative);

// The first folder of the search that exists, with its origin, or a line saying none does.
std::string data_folder_in_use();

}  // namespace kmini
