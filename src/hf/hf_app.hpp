// The hf app: restricted Hartree-Fock in Gaussian basis sets of s, p and d shells, whose cost is
// the ERI-driven G-matrix build, with the seeds' G-update variants side by side.
#pragma once

#include "core/app.hpp"

namespace kmini::hf {

AppSpec app_spec();

}  // namespace kmini::hf
