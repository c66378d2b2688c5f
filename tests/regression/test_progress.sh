#!/usr/bin/env bash
# kmini's progress line: with stderr on a terminal (a pseudo-terminal from script(1)) a run past
# its quiet period shows where it is, and erases the line before the tables; with stderr a file,
# nothing at all. KMINI_PROGRESS_AFTER_SECONDS=0 ends the quiet period at once, so a short run
# shows it on any machine.
#
#   tests/regression/test_progress.sh PATH/TO/kmini SCRATCH_DIR
set -uo pipefail

[ $# -eq 2 ] || { echo "usage: $0 KMINI SCRATCH_DIR" >&2; exit 1; }
kmini=$1
scratch=$2

fail() { echo "FAIL: $*" >&2; exit 1; }
check() { echo "check: $*"; }
command -v script >/dev/null || fail "script(1) is missing (Debian's bsdutils)"

rm -rf "$scratch"
mkdir -p "$scratch"
cat >"$scratch/in.yaml" <<'YAML'
app: himeno
size: XS
iterations: 20
repetitions: 2
variant: kokkos_reduce
YAML
run=("$kmini" run "$scratch/in.yaml" --ceiling-elements 0 --report "$scratch/r.yaml")
export KMINI_PROGRESS_AFTER_SECONDS=0
# As tests/support/kmini_binary.hpp does: in sanitizer builds, no leak check, since Open MPI
# leaks at exit.
export ASAN_OPTIONS=${ASAN_OPTIONS-detect_leaks=0}
export OMP_PROC_BIND=${OMP_PROC_BIND-false}  # Kokkos warns at every start without it

check "on a terminal: the run, variant, repetition and iteration, and the line erased"
script -qec "$(printf '%q ' "${run[@]}")" "$scratch/typescript" >/dev/null 2>&1 ||
  fail "kmini under script(1) failed: $(cat "$scratch/typescript")"
grep -qa $'himeno: kokkos_reduce, repetition [12] of 2, iteration [0-9]* of 20 ([0-9]* s)\e\[K' \
  "$scratch/typescript" || fail "no progress line in: $(cat -v "$scratch/typescript")"
grep -qa $'\r\e\[K' "$scratch/typescript" || fail "the progress line is never erased"
grep -qa 'VALID: 1 of 1 results passed validation' "$scratch/typescript" || fail "the run did not end VALID"
echo "  ok"

check "stderr to a file: no progress"
"${run[@]}" >"$scratch/stdout" 2>"$scratch/stderr" || fail "kmini failed: $(cat "$scratch/stderr")"
if grep -qa -e 'repetition [0-9]* of' -e $'\r' "$scratch/stderr" "$scratch/stdout"; then
  fail "progress written off a terminal: $(cat -v "$scratch/stderr")"
fi
echo "  ok"

echo "PASS: progress"
