// The himeno app: the Himeno benchmark (himenoBMTxps, version 3.0) with its gosa residual reduced
// the seeds' ways, over an MPI domain decomposition.
#pragma once

#include "core/app.hpp"

namespace kmini::himeno {

AppSpec app_spec();

}  // namespace kmini::himeno
