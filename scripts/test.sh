#!/usr/bin/env bash
# Sets up what is missing, builds, and runs the tests.
#
#   scripts/test.sh [--preset openmp|debug] [ctest arguments...]
#
# e.g. scripts/test.sh -L unit      (labels: unit, regression, mpi)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=openmp
if [ "${1:-}" = "--preset" ]; then
  [ $# -ge 2 ] || { echo "test.sh: --preset needs a value (openmp or debug)" >&2; exit 1; }
  preset=$2
  shift 2
fi
case "$preset" in
  openmp | debug) ;;
  cuda) echo "test.sh: the cuda preset builds here but its tests need a GPU; use scripts/setup.sh --preset cuda" >&2; exit 1 ;;
  *) echo "test.sh: unknown preset '$preset'; allowed: openmp, debug" >&2; exit 1 ;;
esac

"$root/scripts/setup.sh" --preset "$preset"
cd "$root"
ctest --preset "$preset" -j "$(nproc 2>/dev/null || echo 2)" "$@"
