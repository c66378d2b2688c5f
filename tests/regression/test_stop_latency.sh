#!/usr/bin/env bash
# scripts/stop_latency.py, which docs/notes/stop-latency.md's figures come from: a run signalled
# at each delay exits 128 + n, said in one line with its time and verdict; a run that ends first
# is said to have; bad arguments exit 2.
#
#   tests/regression/test_stop_latency.sh PATH/TO/stop_latency.py PATH/TO/kmini SCRATCH_DIR
set -uo pipefail

[ $# -eq 3 ] || { echo "usage: $0 STOP_LATENCY_PY KMINI SCRATCH_DIR" >&2; exit 1; }
script=$1
kmini=$2
scratch=$3

fail() { echo "FAIL: $*" >&2; exit 1; }
check() { echo "check: $*"; }

rm -rf "$scratch"
mkdir -p "$scratch"
# As tests/support/kmini_binary.hpp does: in sanitizer builds, no leak check, since Open MPI
# leaks at exit.
export ASAN_OPTIONS=${ASAN_OPTIONS-detect_leaks=0}
export OMP_PROC_BIND=${OMP_PROC_BIND-false}  # Kokkos warns at every start without it
printf 'app: stream\nvariant: [copy]\nrepetitions: 100000\nelements: 100000\n' >"$scratch/long.yaml"
printf 'app: stream\nvariant: [copy]\nrepetitions: 1\nelements: 1000\n' >"$scratch/short.yaml"

check "SIGTERM and SIGINT at two delays: exit 143 and 130, the time and INTERRUPTED said"
python3 "$script" --kmini "$kmini" --delays 0.5,1 -- "$scratch/long.yaml" --ceiling-elements 0 \
  >"$scratch/term.txt" 2>&1 || fail "stop_latency.py failed: $(cat "$scratch/term.txt")"
[ "$(grep -cE '^(0.5|1) s: SIGTERM, exit 143 [0-9.]+ s later \| INTERRUPTED' "$scratch/term.txt")" -eq 2 ] ||
  fail "expected two lines of exit 143: $(cat "$scratch/term.txt")"
python3 "$script" --kmini "$kmini" --signal INT --delays 0.5 -- "$scratch/long.yaml" \
  --ceiling-elements 0 >"$scratch/int.txt" 2>&1 || fail "stop_latency.py failed: $(cat "$scratch/int.txt")"
grep -qE '^0.5 s: SIGINT, exit 130 ' "$scratch/int.txt" || fail "expected exit 130: $(cat "$scratch/int.txt")"
echo "  ok"

check "a run over before its signal"
python3 "$script" --kmini "$kmini" --delays 8 -- "$scratch/short.yaml" --ceiling-elements 0 \
  >"$scratch/short.txt" 2>&1 || fail "stop_latency.py failed: $(cat "$scratch/short.txt")"
grep -qE '^8 s: ended before the signal, exit 0 \| VALID' "$scratch/short.txt" ||
  fail "expected the run over, VALID: $(cat "$scratch/short.txt")"
echo "  ok"

check "bad arguments: exit 2, one error line"
for args in "--delays x -- $scratch/long.yaml" "--delays 1 -- $scratch/missing.yaml" \
  "--kmini $scratch/no-kmini --delays 0 -- $scratch/long.yaml" \
  "--report $scratch/long.yaml --delays 0 -- $scratch/long.yaml"; do
  # shellcheck disable=SC2086  # the arguments are split on purpose
  python3 "$script" $args >"$scratch/bad.txt" 2>&1
  status=$?
  [ $status -eq 2 ] || fail "$args: exit $status, expected 2: $(cat "$scratch/bad.txt")"
  grep -q '^stop_latency.py: error: ' "$scratch/bad.txt" || fail "$args: no error line: $(cat "$scratch/bad.txt")"
done
echo "  ok"

echo "PASS: stop_latency"
