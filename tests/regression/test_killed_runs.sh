#!/usr/bin/env bash
# Runs that do not end as planned keep what they finished:
#   - stopped by SIGTERM, SIGINT or SIGHUP, a run stops at its next safe point, writes the report
#     with what finished (summary INTERRUPTED, never VALID, never rated), has already shown those
#     rows on standard output (a file here, so block-buffered unless flushed), and exits 128 +
#     signal; the safe points come between repetitions and himeno's iterations too, so that a
#     signal during a run's only variant is neither lost nor kept waiting for the variant's end;
#     inside one long launch, which no safe point cuts, the last resort writes the same report
#     0.6 s after the signal and ends the process with the same status, with the variants of the
#     point under way that finished before the launch;
#   - whose standard output is a closed pipe or a full disk, a run still writes its report, says
#     so on stderr, and exits 4;
#   - whose report folder vanished while it ran, a run writes the report to the working folder
#     instead, says where, still prints its summary, and exits 4; where a file there has the
#     name (the input itself, for a run from the input's folder with its report named as the
#     input), under the first free numbered name beside it; where the working folder itself
#     vanished, with the report named relative to it, to TMPDIR.
#
#   - under mpirun, a SIGTERM to mpirun's process group (as GNU timeout sends it, to mpirun and
#     then its group) leaves the finished results in rank 0's report.
#
#   tests/regression/test_killed_runs.sh PATH/TO/kmini SCRATCH_DIR [MPIRUN]
set -uo pipefail
# Job control: a background job of a script otherwise ignores SIGINT, and kmini keeps a signal
# its caller ignores.
set -m

[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: $0 KMINI SCRATCH_DIR [MPIRUN]" >&2; exit 1; }
kmini=$(realpath "$1")
source_root=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(realpath -m "$2")
mpirun=${3-}

fail() { echo "FAIL: $*" >&2; exit 1; }
check() { echo "check: $*"; }

rm -rf "$scratch"
mkdir -p "$scratch/work"
# POINTS points of two variants of stream; 400 take minutes.
write_input() {
  {
    printf 'app: stream\nrepetitions: 20\nvariant: [copy, triad]\nelements: ['
    for i in $(seq 1 $(($2 - 1))); do printf '%d, ' $((200000 + i)); done
    printf '%d]\n' $((200000 + $2))
  } >"$1"
}
export ASAN_OPTIONS=${ASAN_OPTIONS-detect_leaks=0}  # Open MPI leaks at exit
export OMP_PROC_BIND=${OMP_PROC_BIND-false}

# kmini run INPUT --report REPORT in the background, its output in OUT; returns once the first
# point's row is on OUT, with the process id in $pid.
start_and_wait_for_first_row() {
  "$kmini" run "$1" --ceiling-elements 0 --report "$2" >"$3" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    grep -q 'elements=200001' "$3" 2>/dev/null && return
    kill -0 $pid 2>/dev/null || fail "kmini ended before its first row was seen: $(cat "$3")"
    sleep 0.1
  done
  fail "no row on standard output after 60 s: $(cat "$3")"
}

# Waits for $pid to end within $1 seconds (else kills it and fails); its exit status in $status.
wait_within() {
  for _ in $(seq 1 $(($1 * 10))); do
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 $pid 2>/dev/null; then
    kill -KILL $pid
    fail "still running $1 s after the signal"
  fi
  wait $pid
  status=$?
}

write_input "$scratch/long.yaml" 400
for signal in TERM INT HUP; do
  case $signal in TERM) code=143 ;; INT) code=130 ;; HUP) code=129 ;; esac
  check "SIG$signal after the first point: exit $code, the rows shown, the report INTERRUPTED"
  out=$scratch/out-$signal.txt
  report=$scratch/r-$signal.yaml
  start_and_wait_for_first_row "$scratch/long.yaml" "$report" "$out"
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

check "SIGTERM twice at once, as GNU timeout sends it (to the process, then its group): one request"
start_and_wait_for_first_row "$scratch/long.yaml" "$scratch/r-twice.yaml" "$scratch/out-twice.txt"
kill -TERM $pid
# Two signals that arrive together merge into one: send the second once the first is delivered
# (no longer pending: bit 14 of ShdPnd), as a machine with a core to spare delivers timeout's.
# (Here the run may have written its report before the second arrives; the handler's rule itself
# is held by tests/unit/test_interrupt.cpp.)
for _ in $(seq 1 1000); do
  pending=$(awk '/^ShdPnd:/ {print $2}' /proc/$pid/status 2>/dev/null)
  [ -n "$pending" ] && [ $(((16#$pending >> 14) & 1)) -eq 0 ] && break
done
kill -TERM $pid
wait $pid
status=$?
[ $status -eq 143 ] || fail "exit $status, expected 143: $(cat "$scratch/out-twice.txt")"
grep -q '^  status: "INTERRUPTED"$' "$scratch/r-twice.yaml" || fail "no INTERRUPTED report"
grep -q "INTERRUPTED: " "$scratch/out-twice.txt" || fail "no summary: $(cat "$scratch/out-twice.txt")"

check "the report's folder removed mid-run: the report in the working folder, exit 4"
write_input "$scratch/short.yaml" 200
mkdir -p "$scratch/gone"
cd "$scratch/work" || fail "no working folder"
start_and_wait_for_first_row "$scratch/short.yaml" "$scratch/gone/r.yaml" "$scratch/out-gone.txt"
rm -rf "$scratch/gone"
wait $pid
status=$?
[ $status -eq 4 ] || fail "exit $status, expected 4: $(cat "$scratch/out-gone.txt")"
grep -q "the report went to .*/r.yaml instead" "$scratch/out-gone.txt" ||
  fail "no word of where the report went: $(cat "$scratch/out-gone.txt")"
grep -q "^VALID: 400 of 400 results passed validation" "$scratch/out-gone.txt" ||
  fail "no summary line: $(cat "$scratch/out-gone.txt")"
grep -q '^  status: "VALID"$' "$scratch/work/r.yaml" || fail "no whole report in the working folder"

check "the same with that name taken in the working folder: the report beside it, numbered"
printf 'precious\n' >"$scratch/work/r.yaml"
mkdir -p "$scratch/gone"
start_and_wait_for_first_row "$scratch/short.yaml" "$scratch/gone/r.yaml" "$scratch/out-taken.txt"
rm -rf "$scratch/gone"
wait $pid
status=$?
[ $status -eq 4 ] || fail "exit $status, expected 4: $(cat "$scratch/out-taken.txt")"
[ "$(cat "$scratch/work/r.yaml")" = precious ] || fail "the working folder's r.yaml was replaced"
grep -q "the report went to .*/r-1.yaml instead" "$scratch/out-taken.txt" ||
  fail "no word of the numbered report: $(cat "$scratch/out-taken.txt")"
grep -q '^  status: "VALID"$' "$scratch/work/r-1.yaml" || fail "no whole report in r-1.yaml"

check "the same, run from the input's folder with the input's name: never over the input, numbered"
write_input "$scratch/mid.yaml" 60
cp "$scratch/mid.yaml" "$scratch/mid-copy.yaml"
mkdir -p "$scratch/gone" "$scratch/tmp"
cd "$scratch" || fail "no scratch folder"
export TMPDIR=$scratch/tmp
start_and_wait_for_first_row mid.yaml gone/mid.yaml "$scratch/out-mid.txt"
rm -rf "$scratch/gone"
wait $pid
status=$?
[ $status -eq 4 ] || fail "exit $status, expected 4: $(cat "$scratch/out-mid.txt")"
cmp -s "$scratch/mid.yaml" "$scratch/mid-copy.yaml" || fail "the input was replaced"
grep -q "the report went to .*/mid-1.yaml instead" "$scratch/out-mid.txt" ||
  fail "no word of the numbered report: $(cat "$scratch/out-mid.txt")"
grep -q '^  status: "VALID"$' "$scratch/mid-1.yaml" || fail "no whole report in mid-1.yaml"

# Runs mid.yaml from a working folder that is removed after the first row, the report named
# $1 relative to it; expects exit 4 and the whole report at $2, said on the output ($3).
expect_report_past_removed_working_folder() {
  mkdir -p "$scratch/cwd-gone"
  cd "$scratch/cwd-gone" || fail "no working folder"
  start_and_wait_for_first_row "$scratch/mid.yaml" "$1" "$3"
  cd "$scratch" || fail "no scratch folder"
  rm -rf "$scratch/cwd-gone"
  wait $pid
  status=$?
  [ $status -eq 4 ] || fail "exit $status, expected 4: $(cat "$3")"
  grep -q "the report went to $2 instead" "$3" || fail "no word of the report at $2: $(cat "$3")"
  grep -q '^  status: "VALID"$' "$2" || fail "no whole report at $2"
}

check "the working folder itself removed mid-run, the report named relative to it: in TMPDIR"
expect_report_past_removed_working_folder relative.yaml "$scratch/tmp/relative.yaml" \
  "$scratch/out-cwd-gone.txt"
unset TMPDIR

check "the same with a relative TMPDIR, which lay inside the working folder: the report in /tmp"
# The fallback into such a TMPDIR threw "cannot make absolute path", and no report was written.
name="kmini-killed-runs-$$.yaml"
export TMPDIR=relative/tmp
expect_report_past_removed_working_folder "$name" "/tmp/$name" "$scratch/out-relative-tmp.txt"
unset TMPDIR
rm -f "/tmp/$name"

check "the report's folder removed, then SIGTERM: the report in the working folder, exit 143"
# The fallback's exit 4 hid the signal's status, which says that the run was cut short.
mkdir -p "$scratch/gone"
cd "$scratch" || fail "no scratch folder"
start_and_wait_for_first_row mid.yaml gone/signalled.yaml "$scratch/out-signalled.txt"
rm -rf "$scratch/gone"
kill -TERM $pid
wait_within 10
[ $status -eq 143 ] || fail "exit $status, expected 143: $(cat "$scratch/out-signalled.txt")"
grep -q "the report went to $scratch/signalled.yaml instead" "$scratch/out-signalled.txt" ||
  fail "no word of the fallback: $(cat "$scratch/out-signalled.txt")"
grep -q '^  status: "INTERRUPTED"$' "$scratch/signalled.yaml" || fail "no INTERRUPTED report"

# Runs NAME's input (its YAML in $2) in the background, with a bandwidth probe of $4 elements
# (none by default), sends SIGTERM after $3 seconds, and expects exit 143 within $5 seconds (10
# by default) with an INTERRUPTED report.
expect_prompt_stop() {
  printf "$2" >"$scratch/$1.yaml"
  "$kmini" run "$scratch/$1.yaml" --ceiling-elements "${4-0}" --report "$scratch/r-$1.yaml" \
    >"$scratch/out-$1.txt" 2>&1 &
  pid=$!
  # A signal before kmini catches it would end the process with no report: wait for its handler
  # (SIGTERM, 15, is bit 14 of the caught mask), however slowly a sanitized build starts.
  for _ in $(seq 1 600); do
    mask=$(awk '/^SigCgt:/ {print $2}' /proc/$pid/status 2>/dev/null)
    [ -n "$mask" ] && [ $(((16#$mask >> 14) & 1)) -eq 1 ] && break
    kill -0 $pid 2>/dev/null || fail "kmini ended before it caught SIGTERM: $(cat "$scratch/out-$1.txt")"
    sleep 0.1
  done
  sleep "$3"
  kill -TERM $pid
  wait_within "${5-10}"
  [ $status -eq 143 ] || fail "exit $status, expected 143: $(cat "$scratch/out-$1.txt")"
  grep -q '^  status: "INTERRUPTED"$' "$scratch/r-$1.yaml" || fail "no INTERRUPTED report"
}

check "SIGTERM during a run's only variant, between its repetitions: exit 143 within seconds"
expect_prompt_stop one 'app: stream\nvariant: [copy]\nrepetitions: 100000\nelements: 4000000\n' 1
check "SIGTERM inside himeno's iterations: exit 143 within seconds"
expect_prompt_stop himeno 'app: himeno\nsize: S\niterations: 100000000\nvalidate: first\n' 2

check "SIGTERM while bridge draws its normals on the host: exit 143 within 3 s"
# 64 million normals: seconds on two cores, in one launch before they were drawn in timed chunks.
expect_prompt_stop normals 'app: bridge\npaths: 1000000\nsteps: 64\nvariant: [cpu_serial]\nrepetitions: 1\n' 1 0 3

check "SIGTERM while histogram draws and counts its samples: exit 143 within 3 s"
# 10^8 samples into 2^26 bins: seconds of drawing and of the host's reference count on two cores,
# in one call and one loop before they went in slices.
expect_prompt_stop samples 'app: histogram\nsamples: 100000000\nbins: 67108864\nvariant: [plain_atomic]\nrepetitions: 1\n' 1 0 3

check "SIGTERM during the bandwidth probe: exit 143, the report INTERRUPTED, no ceiling"
# 4e7 elements: seconds of probing on two cores, well past the signal.
expect_prompt_stop probe 'app: stream\nvariant: [copy]\nelements: 100000\nrepetitions: 1\n' 0.3 40000000
grep -q 'reason: "stopped by SIGTERM during the probe"' "$scratch/r-probe.yaml" ||
  fail "the probe is not said to be stopped: $(grep -A2 'copy:' "$scratch/r-probe.yaml")"

check "SIGTERM inside one long launch: exit 143 within 3 s, the first point in the report"
# One atomic per value into one sum, over 2^27 values: seconds in one launch on two cores, which
# no safe point cuts; the last resort (core/last_resort.hpp) ends the run 0.6 s after the signal.
expect_prompt_stop launch 'app: reduce\nvariant: [atomic_each]\nelements: [1000, 134217728]\nrepetitions: 2\n' 2.5 0 3
grep -q 'elements: 1000$' "$scratch/r-launch.yaml" || fail "the finished point is not in the report"
grep -q 'status: "interrupted"' "$scratch/r-launch.yaml" || fail "the run is not marked interrupted"
grep -q "INTERRUPTED: 1 of 1 results passed validation before SIGTERM stopped it" \
  "$scratch/out-launch.txt" || fail "no INTERRUPTED line: $(cat "$scratch/out-launch.txt")"

check "SIGTERM inside a long launch after another variant of the same point: that variant kept"
# kokkos_reduce over 2^27 values, then atomic_each's warm-up launch over them, which no safe point
# cuts (seconds on two cores, and longer in a sanitized build). The signal comes after the time a
# run of kokkos_reduce alone takes here; where the machine's load made the run slower and a safe
# point before the launch caught the signal, the next try waits a second longer.
printf 'app: reduce\nvariant: [kokkos_reduce]\nelements: [134217728]\nrepetitions: 1\n' \
  >"$scratch/first-alone.yaml"
started=$(date +%s.%N)
"$kmini" run "$scratch/first-alone.yaml" --ceiling-elements 0 --report "$scratch/r-first-alone.yaml" \
  >/dev/null 2>&1 || fail "kokkos_reduce alone did not pass"
delay=$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s + 0.3 }')
for try in 1 2 3 4; do
  expect_prompt_stop point 'app: reduce\nvariant: [kokkos_reduce, atomic_each]\nelements: [134217728]\nrepetitions: 1\n' "$delay" 0 "$(awk -v s="$delay" 'BEGIN { print int(s) + 5 }')"
  grep -q "found no safe point" "$scratch/out-point.txt" && break
  [ "$try" -lt 4 ] || fail "the signal never came inside the launch: $(cat "$scratch/out-point.txt")"
  delay=$(awk -v s="$delay" 'BEGIN { print s + 1 }')
done
grep -q 'variant: "kokkos_reduce"' "$scratch/r-point.yaml" ||
  fail "the point's finished variant is not in the last resort's report"
grep -q "INTERRUPTED: 1 of 1 results passed validation before SIGTERM stopped it" \
  "$scratch/out-point.txt" || fail "no INTERRUPTED line: $(cat "$scratch/out-point.txt")"

# kmini run NAME.yaml in the background, stdout and stderr apart (out-NAME.txt, err-NAME.txt),
# the process id in $pid; returns once PATTERN is on its stdout, or after SECONDS.
start_and_wait_for() {
  "$kmini" run "$scratch/$1.yaml" --ceiling-elements 0 --report "$scratch/r-$1.yaml" \
    >"$scratch/out-$1.txt" 2>"$scratch/err-$1.txt" &
  pid=$!
  for _ in $(seq 1 $(($3 * 10))); do
    grep -q "$2" "$scratch/out-$1.txt" 2>/dev/null && return
    sleep 0.1
  done
}

check "stdout a file: the header out before the first point ends"
# A file block-buffers stdout: the banner and the run's heading waited in the buffer until the
# first point's rows, and a run killed before then had shown nothing.
printf 'app: himeno\nsize: S\niterations: 100000000\nvalidate: first\n' >"$scratch/header.yaml"
start_and_wait_for header '^== himeno' 30
# A failed check here would leave the run going for ever: it is ended first.
grep -q '^kmini: 1 run(s) from ' "$scratch/out-header.txt" ||
  { kill -KILL $pid; fail "no banner on stdout while it runs"; }
grep -q '^== himeno' "$scratch/out-header.txt" ||
  { kill -KILL $pid; fail "no run heading on stdout while it runs"; }
kill -TERM $pid
wait_within 10
[ $status -eq 143 ] || fail "exit $status, expected 143"

check "a run that fails at runtime says so on stderr too: exit 4"
# The Sobol table that a suite's second run reads, gone after its first run's first point: the
# error went to stdout alone, which a user who sends stdout elsewhere does not see.
cp "$source_root/inputs/sobol/new-joe-kuo-6.21201" "$scratch/sobol.txt"
{
  printf 'runs:\n  - app: stream\n    repetitions: 20\n    variant: [copy]\n    elements: ['
  for i in $(seq 1 29); do printf '%d, ' $((2000000 + i)); done
  printf '2000030]\n'
  printf '  - app: bridge\n    paths: 64\n    normals: sobol\n    sobol_table: %s\n' "$scratch/sobol.txt"
} >"$scratch/suite.yaml"
start_and_wait_for suite 'elements=2000001' 60
rm -f "$scratch/sobol.txt"
wait_within 120
[ $status -eq 4 ] || fail "exit $status, expected 4: $(cat "$scratch/out-suite.txt" "$scratch/err-suite.txt")"
grep -q 'kmini: error: .*Sobol' "$scratch/err-suite.txt" ||
  fail "the run's error is not on stderr: $(cat "$scratch/err-suite.txt")"

check "standard output a full disk, then a closed pipe: the report written, exit 4"
printf 'app: stream\nelements: 100000\nrepetitions: 3\n' >"$scratch/small.yaml"
"$kmini" run "$scratch/small.yaml" --ceiling-elements 0 --report "$scratch/r-full.yaml" \
  >/dev/full 2>"$scratch/err-full.txt"
status=$?
[ $status -eq 4 ] || fail "exit $status to /dev/full, expected 4: $(cat "$scratch/err-full.txt")"
grep -q "standard output could not be written" "$scratch/err-full.txt" || fail "no word on stderr"
grep -q '^  status: "VALID"$' "$scratch/r-full.yaml" || fail "no report with /dev/full as stdout"
"$kmini" run "$scratch/small.yaml" --ceiling-elements 0 --report "$scratch/r-pipe.yaml" \
  2>"$scratch/err-pipe.txt" | true
status=${PIPESTATUS[0]}
[ $status -eq 4 ] || fail "exit $status into a closed pipe, expected 4: $(cat "$scratch/err-pipe.txt")"
grep -q '^  status: "VALID"$' "$scratch/r-pipe.yaml" || fail "no report with a closed pipe"

check "standard output a full disk for the commands whose answer is what they print: exit 4"
# check, list, --version and a dry run exited 0 with their whole answer lost.
for command in "check $scratch/small.yaml" "list" "--version" \
  "run $scratch/small.yaml --dry-run --ceiling-elements 0"; do
  # shellcheck disable=SC2086 # the command's words
  "$kmini" $command >/dev/full 2>"$scratch/err-answer.txt"
  status=$?
  [ $status -eq 4 ] || fail "kmini $command exit $status to /dev/full, expected 4"
  grep -q "standard output could not be written" "$scratch/err-answer.txt" ||
    fail "kmini $command to /dev/full: no word on stderr"
done

check "SIGTERM after the last safe point, while the report is written: exit 143, every result kept"
# The report goes into a FIFO of one page whose reader holds off: kmini is then inside the
# report's write, past every run, when the signal comes; the reader takes the report after it.
mkfifo "$scratch/report.fifo"
python3 - "$kmini" "$scratch" <<'EOF' || fail "a signal while the report was written"
import array, fcntl, os, signal, subprocess, sys, termios, time

kmini, scratch = sys.argv[1:3]
fifo = f"{scratch}/report.fifo"
F_SETPIPE_SZ = 1031
reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader before kmini looks for one
fcntl.fcntl(reader, F_SETPIPE_SZ, 4096)
with open(f"{scratch}/out-late.txt", "w") as out, open(f"{scratch}/err-late.txt", "w") as err:
    run = subprocess.Popen([kmini, "run", f"{scratch}/small.yaml", "--ceiling-elements", "0",
                            "--report", fifo], stdout=out, stderr=err)
    waiting = array.array("i", [0])
    deadline = time.monotonic() + 300
    while waiting[0] < 4096:  # a full pipe: kmini waits inside the report's write
        if run.poll() is not None:
            sys.exit(f"kmini ended ({run.returncode}) before the report filled the FIFO")
        if time.monotonic() > deadline:
            run.kill()
            sys.exit("the report never filled the FIFO")
        time.sleep(0.05)
        fcntl.ioctl(reader, termios.FIONREAD, waiting)
    run.send_signal(signal.SIGTERM)
    time.sleep(0.5)
    os.set_blocking(reader, True)
    report = b""
    while chunk := os.read(reader, 65536):
        report += chunk
    status = run.wait(timeout=60)
report = report.decode()
errors = open(f"{scratch}/err-late.txt").read()
if status != 143:
    sys.exit(f"exit {status}, expected 143: {errors}")
if "SIGTERM came after every run had finished" not in errors:
    sys.exit(f"no word of the late signal on stderr: {errors}")
if "\nsummary:" not in report or '\n  status: "VALID"\n' not in report:
    sys.exit(f"the report is not whole: {report[-300:]}")
EOF
if [ -n "$mpirun" ]; then
  check "SIGTERM to mpirun's process group after the first row (as timeout sends it): rank 0's report INTERRUPTED"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
  sed 's/^repetitions: 20$/repetitions: 400/' "$scratch/long.yaml" >"$scratch/mpi-long.yaml"
  # A job of its own (set -m): mpirun leads its process group.
  "$mpirun" -np 2 --oversubscribe "$kmini" run "$scratch/mpi-long.yaml" --ceiling-elements 0 \
    --report "$scratch/r-mpi.yaml" >"$scratch/out-mpi.txt" 2>&1 &
  pid=$!
  for _ in $(seq 1 1200); do
    grep -q 'elements=200001' "$scratch/out-mpi.txt" 2>/dev/null && break
    kill -0 $pid 2>/dev/null || fail "mpirun ended before its first row: $(tail -5 "$scratch/out-mpi.txt")"
    sleep 0.1
  done
  kill -TERM -- -$pid
  wait_within 60
  [ $status -ne 0 ] || fail "exit 0 after SIGTERM: $(tail -5 "$scratch/out-mpi.txt")"
  grep -q '^  status: "INTERRUPTED"$' "$scratch/r-mpi.yaml" ||
    fail "no INTERRUPTED report from mpirun: $(tail -5 "$scratch/out-mpi.txt")"
  grep -q 'elements: 200001' "$scratch/r-mpi.yaml" || fail "the first point is not in the report"
fi
echo "PASS"
