// The G updates: how the quartets of one class, in one build, are computed and added into G.
// Each update is one row of g_updates() (g_update.cpp): the name and doc its hf variant shows,
// where it runs, and the function that builds a class's share from ClassShare's operations
// (g_build.hpp). The hf app's variants, auto's candidates and the tests derive from the table,
// so that a new update is one row and one function.
#pragma once

#include <string>
#include <vector>

#include "core/variant.hpp"

namespace kmini::hf {

class ClassShare;  // g_build.hpp

// Whether auto times an update as one of its candidates.
enum class AutoCandidate {
  never,
  always,
  host_only_builds,  // where G lives on the host: a build whose device is the host itself
};

struct GUpdateAction {
  // Computes the share's quartets and adds their contributions into G.
  void (*build)(ClassShare& share);
  AutoCandidate candidate = AutoCandidate::never;
  // G comes out the same, bit for bit, from one build of a density to the next (no atomics):
  // the hf app checks it.
  bool deterministic = false;
};

using GUpdate = VariantRow<GUpdateAction>;

const std::vector<GUpdate>& g_updates();
// The row of that name; std::invalid_argument where there is none.
const GUpdate& g_update(const std::string& name);
// The rows auto times on this build, in the table's order: its candidates whose host backend
// the build has.
std::vector<const GUpdate*> auto_candidates();

}  // namespace kmini::hf
