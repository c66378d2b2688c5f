#!/usr/bin/env bash
# scripts/scaling.sh without a GPU: the miniature inputs in tests/inputs/scaling at 1 and 2 ranks
# on this machine's cores, the reports, the scaling tables it prints (weak and strong, each with
# its efficiency) and the figures; then its errors on bad arguments.
#
#   tests/regression/test_scaling.sh PATH/TO/scaling.sh PATH/TO/kmini MPIEXEC SCRATCH_DIR
#
# Prints each check; exits 1 on the first that fails.
set -uo pipefail

[ $# -eq 4 ] || { echo "usage: $0 SCALING_SH KMINI MPIEXEC SCRATCH_DIR" >&2; exit 1; }
scaling=$1
kmini=$2
mpiexec=$3
scratch=$4
inputs=$(cd "$(dirname "${BASH_SOURCE[0]}")/../inputs/scaling" && pwd)

script=$scaling  # script_checks.sh expects it; this test runs the script with bash, not python
. "$(dirname "${BASH_SOURCE[0]}")/../support/script_checks.sh"

# mpirun refuses root without these, and CI runs as root; the ranks share this machine's cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_PROC_BIND=false
export ASAN_OPTIONS=${ASAN_OPTIONS-detect_leaks=0}  # Open MPI leaks at exit
export KMINI=$kmini KMINI_MPIRUN="$mpiexec --oversubscribe" PYTHON=$python

run_scaling() {
  out=$scratch/stdout err=$scratch/stderr
  bash "$scaling" "$@" >"$out" 2>"$err"
  rc=$?
}

check "(a) 1 and 2 ranks: both reports, the tables and the figures"
run_scaling --ranks "1 2" --inputs "$inputs" --no-procurement --out "$scratch/run" \
  -- --ceiling-elements 0 --kokkos-threads=1
[ "$rc" -eq 0 ] || fail "exit status $rc; stderr: $(cat "$err")"
for n in 1 2; do
  [ -s "$scratch/run/ranks-$n.yaml" ] || fail "no ranks-$n.yaml"
  grep -q "^    ranks: $n$" "$scratch/run/ranks-$n.yaml" || fail "ranks-$n.yaml did not run on $n ranks"
done
for app in himeno bridge hf; do
  is_png "$scratch/run/plots/scaling-$app.png" || fail "no scaling-$app.png"
done
[ -s "$scratch/run/mpi.txt" ] || fail "no mpi.txt"
tables=$scratch/run/tables.txt
# The weak rows double the work, the strong ones keep it; each has its efficiency.
grep -E '^ +2 .* 2\.000 +weak; inputs differ: grid, ranks ' "$tables" >/dev/null ||
  fail "no weak himeno row at 2 ranks; tables: $(cat "$tables")"
grep -E '^ +2 .* 1\.000 +strong; inputs differ: ranks ' "$tables" >/dev/null ||
  fail "no strong himeno row at 2 ranks; tables: $(cat "$tables")"
grep -E '^ +2 .* 2\.000 +weak; inputs differ: paths ' "$tables" >/dev/null ||
  fail "no weak bridge row at 2 ranks; tables: $(cat "$tables")"
grep -E '^hf-strong auto +1 ' "$tables" >/dev/null || fail "no hf row; tables: $(cat "$tables")"
echo "  ok"

# Each error: exit 2, and stderr's last line is one 'scaling.sh: error: ' line.
expect_scaling_error() {
  local what=$1
  shift
  run_scaling "$@"
  [ "$rc" -eq 2 ] || fail "$what: exit status $rc, expected 2; stderr: $(cat "$err")"
  [[ "$(tail -n 1 "$err")" == "scaling.sh: error: "* ]] ||
    fail "$what: stderr lacks 'scaling.sh: error: ': $(cat "$err")"
  echo "  ok: $(tail -n 1 "$err")"
}

check "(b) a rank count without inputs"
expect_scaling_error "--ranks 3" --ranks "1 3" --inputs "$inputs" --out "$scratch/bad"

check "(c) a rank count whose input file is missing"
expect_scaling_error "--ranks 4 in the test inputs" --ranks 4 --inputs "$inputs" --out "$scratch/bad"

check "(d) an unknown argument"
expect_scaling_error "--bogus" --bogus

check "(e) KMINI that is not a program"
KMINI=$scratch/no-such-kmini expect_scaling_error "KMINI missing" --ranks 1 --inputs "$inputs"

echo "PASS: scaling.sh"
