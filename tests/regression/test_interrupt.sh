#!/usr/bin/env bash
# A run stopped by SIGTERM or SIGINT: it stops at its next safe point, writes the report with
# what finished (summary INTERRUPTED, never VALID, never rated), has already shown those rows on
# standard output (a file here, so block-buffered unless flushed), and exits 128 + the signal.
#
#   tests/regression/test_interrupt.sh PATH/TO/kmini SCRATCH_DIR
set -uo pipefail
# Job control: a background job of a script otherwise ignores SIGINT, and kmini keeps a signal
# its caller ignores.
set -m

[ $# -eq 2 ] || { echo "usage: $0 KMINI SCRATCH_DIR" >&2; exit 1; }
kmini=$1
scratch=$2

fail() { echo "FAIL: $*" >&2; exit 1; }
check() { echo "check: $*"; }

rm -rf "$scratch"
mkdir -p "$scratch"
# 400 points of two variants: minutes, were it not stopped.
{
  printf 'app: stream\nrepetitions: 20\nvariant: [copy, triad]\nelements: ['
  for i in $(seq 1 399); do printf '%d, ' $((200000 + i)); done
  printf '200400]\n'
} >"$scratch/in.yaml"
export ASAN_OPTIONS=${ASAN_OPTIONS-detect_leaks=0}  # Open MPI leaks at exit
export OMP_PROC_BIND=${OMP_PROC_BIND-false}

for signal in TERM INT; do
  case $signal in TERM) code=143 ;; INT) code=130 ;; esac
  check "SIG$signal after the first point: exit $code, the rows shown, the report INTERRUPTED"
  out=$scratch/out-$signal.txt
  report=$scratch/r-$signal.yaml
  "$kmini" run "$scratch/in.yaml" --ceiling-elements 0 --report "$report" >"$out" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    grep -q 'elements=200001' "$out" 2>/dev/null && break
    kill -0 $pid 2>/dev/null || fail "kmini ended before the signal: $(cat "$out")"
    sleep 0.1
  done
  grep -q 'elements=200001' "$out" || fail "no row on standard output after 60 s: $(cat "$out")"
  kill -$signal $pid
  wait $pid
  status=$?
  [ $status -eq $code ] || fail "exit $status, expected $code: $(cat "$out")"
  grep -q "INTERRUPTED: [0-9]* of [0-9]* results passed validation before SIG$signal stopped it" \
    "$out" || fail "no INTERRUPTED line in: $(cat "$out")"
  [ -f "$report" ] || fail "no report"
  grep -q '^  status: "INTERRUPTED"$' "$report" || fail "the report's status: $(grep status: "$report")"
  grep -q 'status: "interrupted"' "$report" || fail "the run is not marked interrupted"
  grep -q 'elements: 200001' "$report" || fail "the first point is not in the report"
  ! grep -q 'elements: 200400' "$report" || fail "the last point ran: the signal came too late"
  [ -z "$(ls -A "$scratch" | grep '\.tmp-')" ] || fail "a temporary file was left"
done
echo "PASS"
