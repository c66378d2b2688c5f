#!/usr/bin/env bash
# Sets up what is missing, then runs kmini on an input (the quick suite by default) and says
# where the report went.
#
#   scripts/run.sh [INPUT.yaml] [kmini run options...]
#   KMINI_PRESET=cuda scripts/run.sh inputs/suites/quick.yaml
#
# Reports go to results/ unless --report is given.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=${KMINI_PRESET:-openmp}
input=$root/inputs/suites/quick.yaml
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  input=$1
  shift
fi

"$root/scripts/setup.sh" --preset "$preset" >&2

report_args=()
case " $* " in
  *" --report "* | *" --report="*) ;;
  *)
    mkdir -p "$root/results"
    stem=$(basename "${input%.*}")
    report_args=(--report "$root/results/kmini-$stem-$(date +%Y%m%d-%H%M%S).yaml")
    ;;
esac

# OpenMP threads pinned and spread, as a benchmark run wants them, unless the caller chose.
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread}
export OMP_PLACES=${OMP_PLACES:-threads}

set +e
"$root/build/$preset/kmini" run "$input" "${report_args[@]}" "$@"
status=$?
set -e
exit $status
