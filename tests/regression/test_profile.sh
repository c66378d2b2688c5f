#!/usr/bin/env bash
# shellcheck disable=SC2016  # the expected markdown's backquotes are literal text
# scripts/profile.sh and scripts/access_report.py without a GPU: profile.sh's checks and its
# ncu command line (with a stand-in ncu), the report on a fixture of ncu output, the pictures,
# and the errors on bad input.
#
#   tests/regression/test_profile.sh PATH/TO/profile.sh PATH/TO/access_report.py SCRATCH_DIR
#
# tests/inputs/ncu_raw_fixture.csv is a hand-made file in the exact form of
# `ncu --csv --page raw` output (header row, units row, one row per launch, every cell quoted,
# thousands separators, units scaled as ncu scales them): a Kokkos start-up kernel, two
# launches of bridge's naive generator in path_major layout (strided loads and stores, local
# memory), a 3 us ViewFill, and three launches of himeno's shared sweep (coalesced).
#
# Prints each check; exits 1 on the first that fails. The scripts run under the first of
# $PYTHON, python3 and /usr/bin/python3 that has matplotlib and PyYAML.
set -uo pipefail

[ $# -eq 3 ] || { echo "usage: $0 PROFILE_SH ACCESS_REPORT_PY SCRATCH_DIR" >&2; exit 1; }
profile=$1
report_py=$2
scratch=$3
inputs=$(cd "$(dirname "${BASH_SOURCE[0]}")/../inputs" && pwd)
fixture=$inputs/ncu_raw_fixture.csv
kmini_input=$inputs/stream_small.yaml  # any input file: the stand-in kmini does not read it

script=$report_py
. "$(dirname "${BASH_SOURCE[0]}")/../support/script_checks.sh"
mkdir -p "$scratch/bin" "$scratch/fake"

# A PATH with the tools profile.sh uses and no ncu: symlinks in one folder.
for tool in bash mkdir date tee grep rm cat cp; do
  ln -s "$(command -v "$tool")" "$scratch/bin/$tool" || fail "cannot link $tool"
done
ln -s "$python" "$scratch/bin/python3"
bin=$scratch/bin

# A stand-in kmini: writes a kmini report with a bridge run (both layouts) and a himeno run.
cat >"$scratch/fake/kmini" <<EOF
#!$BASH
report=
while [ \$# -gt 0 ]; do
  [ "\$1" = --report ] && report=\$2
  shift
done
printf '%s\n' 'kmini_report: 1' 'meta: {mpi: {ranks: 1}}' 'runs:' \
  '  - app: bridge' \
  '    input: {paths: 1439744, steps: 64, times: null, dimension: 1, output: paths,' \
  '            precision: [float], layout: [path_major, time_major]}' \
  '  - app: himeno' \
  '    input: {size: L, grid: null, precision: float, sweep: [shared],' \
  '            mdrange_tile: [1, 4, 64], marching_block: [64, 4, 64]}' >"\$report"
echo "stand-in kmini ran"
EOF
# A stand-in ncu: records its arguments, runs the command after its options, and leaves the
# fixture where --log-file says. FAKE_NCU_REJECT=1: refuses --print-units as an old ncu would;
# FAKE_NCU_FAIL=1: profiles nothing.
cat >"$scratch/fake/ncu" <<EOF
#!$BASH
printf '%s\n' "\$*" >>"$scratch/ncu-calls"
log=
while [ \$# -gt 0 ]; do
  case \$1 in
    --csv) shift ;;
    --print-units)
      if [ "\${FAKE_NCU_REJECT:-}" = 1 ]; then echo "==ERROR== unrecognised option '--print-units'"; exit 1; fi
      shift 2 ;;
    --log-file) log=\$2; shift 2 ;;
    --*) shift 2 ;;
    *) break ;;
  esac
done
"\$@" || exit \$?
[ "\${FAKE_NCU_FAIL:-}" = 1 ] && { echo "==ERROR== no kernels were profiled"; exit 1; }
cp "$fixture" "\$log"
EOF
chmod +x "$scratch/fake/kmini" "$scratch/fake/ncu"

# Runs a command with PATH=$path (and no NCU, KMINI or PYTHON unless given as VAR=value
# arguments before it); sets rc, and out / err to the files holding its output.
path=$bin
run_clean() {
  out=$scratch/stdout err=$scratch/stderr
  env -i HOME="$scratch" PATH="$path" "$@" >"$out" 2>"$err"
  rc=$?
}

check "(a) profile.sh without ncu on the PATH: exit 2, one line naming ncu"
PATH=$bin command -v ncu >/dev/null && fail "the stripped PATH has an ncu"
run_clean KMINI="$scratch/fake/kmini" "$BASH" "$profile" "$kmini_input"
expect_error_line 2 profile.sh "no ncu"
grep -qxF "profile.sh: error: ncu (Nsight Compute) is not on the PATH; add its folder (often /usr/local/cuda/bin) to PATH or set NCU=/path/to/ncu" "$err" ||
  fail "not the ncu message: $(cat "$err")"

path=$bin:$scratch/fake
check "(a') profile.sh with a missing INPUT, a missing kmini, a bad option"
run_clean KMINI="$scratch/fake/kmini" "$BASH" "$profile" "$scratch/no-such-input.yaml"
expect_error_line 2 profile.sh "missing input"
grep -q "no such input file" "$err" || fail "missing input: $(cat "$err")"
run_clean KMINI="$scratch/no-such-kmini" "$BASH" "$profile" "$kmini_input"
expect_error_line 2 profile.sh "missing kmini"
grep -q "no kmini binary there" "$err" || fail "missing kmini: $(cat "$err")"
run_clean KMINI="$scratch/fake/kmini" "$BASH" "$profile" "$kmini_input" --max-launches 0
expect_error_line 2 profile.sh "bad --max-launches"
[ ! -e "$scratch/ncu-calls" ] || fail "ncu ran despite the bad input"

check "(b) access_report.py on the fixture: the table's numbers, computed by hand, and the advice"
run report "$fixture" --out "$scratch/report-b"
[ "$rc" -eq 0 ] || fail "exit status $rc; stderr: $(cat "$err")"
# himeno shared sweep, 3 launches: mean (837 + 839 + 841) / 3 = 839.0 us; DRAM 3 x (1790 + 130)
# MB = 5760 MB in 2517 us = 2288.4 GB/s; (68.5 + 68.6 + 68.7) / 3 = 68.6 % of peak; loads
# 61,250,000 / 12,500,000 = 4.90 sectors/request, stores 4,937,500 / 1,000,000 = 4.94; ideal 4
# (float); L2 48.0 %, occupancy 95.0 %, 32 registers, no local memory.
row_himeno='| `ParallelReduce<himeno::SharedSweep<float, TreeGosa>>` | 3 | 839.0 | 2288.4 | 68.6 | 4.90 | - | 4.94 | - | 4 | 48.0 | 95.0 | 32 | 0 |'
# bridge naive, 2 launches: mean (600 + 620) / 2 = 610.0 us; DRAM (380.5 + 369 + 379.5 + 371) MB
# = 1500 MB in 1220 us = 1229.5 GB/s; 40.0 % of peak; loads 2 x 97,992,576 / 2 x 8,728,448 =
# 11.23, stores 92,143,616 / 2,879,488 = 32.00; L2 (52 + 54) / 2 = 53.0 %, occupancy 89.0 %, 40
# registers, local (5,760,000 + 2,880,000) = 8,640,000 sectors per launch.
row_bridge='| `ParallelFor<bridge::PathGenerator<float, 1, 0, false, float>>` | 2 | 610.0 | 1229.5 | 40.0 | 11.23 | - | 32.00 | - | 4 | 53.0 | 89.0 | 40 | 8,640,000 |'
for row in "$row_himeno" "$row_bridge"; do
  grep -qxF "$row" "$out" || fail "no row $row; stdout: $(cat "$out")"
done
# The longer-running kernel first.
[ "$(grep -n 'SharedSweep' "$out" | head -1 | cut -d: -f1)" -lt "$(grep -n 'PathGenerator' "$out" | head -1 | cut -d: -f1)" ] ||
  fail "the himeno sweep (2517 us in all) is not above the bridge generator (1220 us)"
# Advice: loads 11.23 and stores 32.00 exceed 2 x 4; local 8,640,000 of 190,136,192 global
# sectors is 5% > 1%; none for the himeno sweep.
grep -qF -- '- `ParallelFor<bridge::PathGenerator<float, 1, 0, false, float>>`: global loads at 11.2 and stores at 32.0 sectors/request, over 2x the ideal 4 (4-byte lanes, full warp)' "$out" ||
  fail "no coalescing advice for the bridge generator; stdout: $(cat "$out")"
grep -qF -- '- `ParallelFor<bridge::PathGenerator<float, 1, 0, false, float>>`: 8,640,000 local-memory sectors per launch, 5% of its global ones at 40 registers/thread' "$out" ||
  fail "no local-memory advice for the bridge generator; stdout: $(cat "$out")"
grep -q -- '^- `ParallelReduce<himeno' "$out" && fail "advice for the coalesced himeno sweep; stdout: $(cat "$out")"
grep -qF -- '- `init_lock_array_kernel_atomic` (launches: 1): Kokkos start-up kernel' "$out" ||
  fail "the Kokkos start-up kernel is not left out; stdout: $(cat "$out")"
grep -qF -- '- `ParallelFor<ViewFill<View<...>, LayoutRight, 1, long>>` (launches: 1): mean time 3.1 us < 5 us' "$out" ||
  fail "the 3 us ViewFill is not left out; stdout: $(cat "$out")"
grep -qxF "$row_bridge" "$scratch/report-b/access-report.md" || fail "access-report.md lacks the bridge row"
"$python" - "$scratch/report-b/access-report.yaml" <<'EOF' || fail "access-report.yaml is not as expected"
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
kernels = {k["kernel"]: k for k in doc["kernels"]}
bridge = kernels["ParallelFor<bridge::PathGenerator<float, 1, 0, false, float>>"]
assert abs(bridge["dram_GBps"] - 1500e6 / 1220e-6 / 1e9) < 1e-9, bridge["dram_GBps"]
assert abs(bridge["ld_sectors_per_request"] - 97992576 / 8728448) < 1e-12
assert bridge["local_sectors_per_launch"] == 8640000 and len(bridge["advice"]) == 2
assert len(doc["kernels"]) == 2 and len(doc["omitted"]) == 2
EOF
echo "  ok"

check "(b') the fixture behind a '==PROF==' line, as ncu's --log-file writes it: the same table"
{ echo '==PROF== Connected to process 31337 (kmini)'; cat "$fixture"; } >"$scratch/with-prof.csv"
run report "$scratch/with-prof.csv" --out "$scratch/report-b2"
[ "$rc" -eq 0 ] || fail "exit status $rc; stderr: $(cat "$err")"
grep -qxF "$row_bridge" "$out" || fail "no bridge row; stdout: $(cat "$out")"
echo "  ok"

check "(c) the picture command writes PNGs, without ncu"
for app in bridge himeno; do
  run picture "$app" --out "$scratch/$app.png"
  [ "$rc" -eq 0 ] || fail "picture $app: exit status $rc; stderr: $(cat "$err")"
  is_png "$scratch/$app.png" || fail "$scratch/$app.png is not a PNG"
  grep -qxF "wrote $scratch/$app.png" "$out" || fail "stdout lacks 'wrote $scratch/$app.png'"
done
run picture himeno --out "$scratch/himeno-tiles.png" --size S --mdrange-tile 32,1,1 --marching-block 8,8,32
[ "$rc" -eq 0 ] || fail "picture himeno with options: exit status $rc; stderr: $(cat "$err")"
is_png "$scratch/himeno-tiles.png" || fail "$scratch/himeno-tiles.png is not a PNG"
echo "  ok"

check "(d) a CSV that is not ncu output, a missing file, a bad option: exit 2, one line"
printf 'name,value\nx,1\n' >"$scratch/not-ncu.csv"
run report "$scratch/not-ncu.csv"
expect_error_line 2 access_report.py "not ncu output"
grep -q "not Nsight Compute's \`--csv --page raw\` output" "$err" || fail "not ncu output: $(cat "$err")"
run report "$scratch/no-such.csv"
expect_error_line 2 access_report.py "missing file"
run picture bridge --out "$scratch/x.png" --steps zero
expect_error_line 2 access_report.py "bad option"

check "(e) profile.sh with a stand-in ncu: its command line, and the report with the models"
rm -f "$scratch/ncu-calls"
run_clean KMINI="$scratch/fake/kmini" "$BASH" "$profile" "$kmini_input" --out "$scratch/run-e" \
  --kernel 'PathGenerator|Sweep' -- --set bridge.repetitions=1
[ "$rc" -eq 0 ] || fail "exit status $rc; stderr: $(cat "$err"); stdout: $(cat "$out")"
metrics=$("$python" "$report_py" metrics)
expected="--csv --page raw --log-file $scratch/run-e/ncu-raw.csv --kernel-name-base demangled --launch-count 200 --kernel-name regex:PathGenerator|Sweep --print-units base --print-kernel-base demangled --metrics $metrics $scratch/fake/kmini run $kmini_input --ceiling-elements 0 --report $scratch/run-e/report.yaml --set bridge.repetitions=1"
[ "$(cat "$scratch/ncu-calls")" = "$expected" ] ||
  fail "ncu's arguments: $(cat "$scratch/ncu-calls"); expected: $expected"
for f in ncu-raw.csv ncu-console.log report.yaml access-report.md access-report.yaml; do
  [ -s "$scratch/run-e/$f" ] || fail "$scratch/run-e/$f is missing"
done
for app in bridge himeno; do
  is_png "$scratch/run-e/access-$app.png" || fail "no access-$app.png"
done
grep -q "stand-in kmini ran" "$scratch/run-e/ncu-console.log" || fail "kmini's output is not in the console log"
# The bridge model, by hand, per warp (float, 64 steps, d = 1): path_major loads, per step, a
# normal 256 bytes from its neighbour's (32 sectors) and the step word and coefficients (1 each),
# after 2 prologue loads: (64 x 34 + 2) / (64 x 3 + 2) = 11.23; time_major (64 x 6 + 2) / 194 =
# 1.99. Stores: 32 and 4 sectors.
grep -qF '| `ParallelFor<bridge::PathGenerator<float, 1, 0, false, float>>` | 2 | 610.0 | 1229.5 | 40.0 | 11.23 | 11.23 / 1.99 | 32.00 | 32.00 / 4.00 | 4 |' "$out" ||
  fail "no bridge row with the model; stdout: $(cat "$out")"
# The himeno model, partly by hand (float, size L: rows of 512 floats, k from 1): a warp's 32
# k-neighbours start 4 bytes past a sector boundary, 5 sectors, but the row's last warp in the
# last tile along k (k up to 510) touches 4; stores (7 x 8 x 5 + 4 x 5 + 4 x 4) / 64 = 4.94.
# Loads also stage p's planes with their halo; 4.91 is the model's own figure.
grep -qE '^\| `ParallelReduce<himeno::SharedSweep<float, TreeGosa>>` \| 3 \| 839\.0 \| 2288\.4 \| 68\.6 \| 4\.90 \| 4\.91 \| 4\.94 \| 4\.94 \|' "$out" ||
  fail "no himeno row with the model; stdout: $(cat "$out")"
grep -q 'model disagrees' "$out" && fail "a model disagrees with the fixture; stdout: $(cat "$out")"
echo "  ok"

check "(e') an ncu that rejects --print-units: profile.sh asks again with the core metrics"
rm -f "$scratch/ncu-calls"
run_clean KMINI="$scratch/fake/kmini" FAKE_NCU_REJECT=1 "$BASH" "$profile" "$kmini_input" --out "$scratch/run-e2"
[ "$rc" -eq 0 ] || fail "exit status $rc; stderr: $(cat "$err")"
[ "$(wc -l <"$scratch/ncu-calls")" -eq 2 ] || fail "ncu ran $(wc -l <"$scratch/ncu-calls") times, expected 2"
second=$(tail -1 "$scratch/ncu-calls")
case $second in
  *--print-* | *smsp__sass*) fail "the second try still asks for extras: $second" ;;
  *"--metrics $("$python" "$report_py" metrics --core) "*) ;;
  *) fail "the second try lacks the core metrics: $second" ;;
esac
grep -q "again with the core metrics only" "$err" || fail "no word of the retry: $(cat "$err")"
echo "  ok"

check "(e'') an ncu that profiles nothing: exit 4"
run_clean KMINI="$scratch/fake/kmini" FAKE_NCU_FAIL=1 "$BASH" "$profile" "$kmini_input" --out "$scratch/run-e3"
[ "$rc" -eq 4 ] || fail "exit status $rc, expected 4; stderr: $(cat "$err")"
grep -q "^profile.sh: error: ncu profiled no kernel" "$err" || fail "stderr: $(cat "$err")"
echo "  ok"

echo "PASS: profile.sh and access_report.py"
