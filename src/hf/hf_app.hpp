// The hf app: restricted Hartree-Fock in s/p Gaussian basis sets, whose cost is the ERI-driven
// G-matrix build, with the seeds' G-update variants side by side.
#pragma once

#include "core/app.hpp"

namespace kmini::hf {

AppSpec app_spec();

}  // namespace kmini::hf
