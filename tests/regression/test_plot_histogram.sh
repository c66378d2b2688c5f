#!/usr/bin/env bash
# scripts/plot_histogram.py on the fixture report, and its errors on bad input.
#
#   tests/regression/test_plot_histogram.sh PATH/TO/plot_histogram.py SCRATCH_DIR
#
# Prints each check; exits 1 on the first that fails. The script runs under the first of $PYTHON,
# python3 and /usr/bin/python3 that has matplotlib and PyYAML (a pyenv python3 on PATH may lack
# them while Debian's python3-matplotlib sits in /usr/bin/python3).
set -uo pipefail

[ $# -eq 2 ] || { echo "usage: $0 PLOT_HISTOGRAM_PY SCRATCH_DIR" >&2; exit 1; }
script=$1
scratch=$2
fixture=$(cd "$(dirname "${BASH_SOURCE[0]}")/../inputs" && pwd)/histogram_report_fixture.yaml

. "$(dirname "${BASH_SOURCE[0]}")/../support/script_checks.sh"

# The exit status is 2 and stderr is exactly one 'plot_histogram.py: error: ' line.
expect_error() {
  local what=$1
  shift
  run "$@"
  expect_error_line 2 plot_histogram.py "$what"
}

check "(a) the fixture report: exit 0, both PNGs, the table with the fixture's numbers"
run "$fixture" --out "$scratch/plots"
[ "$rc" -eq 0 ] || fail "exit status $rc; stderr: $(cat "$err")"
for bin_type in int double; do
  png=$scratch/plots/histogram-$bin_type.png
  is_png "$png" || fail "$png is missing, empty or not a PNG"
  grep -qxF "wrote $png" "$out" || fail "stdout lacks 'wrote $png'"
done
# bins 1, plain_atomic 5.912 ms, warp_match 0.2134 ms, cub 0.04120 ms (median 4.12e-05 s).
grep -qE '^ +1 +5\.912 +0\.2134 +0\.04120$' "$out" || fail "no int row for bins 1; stdout: $(cat "$out")"
# double bins: cub is not applicable, so '-'.
grep -qE '^1000 +0\.03360 +0\.07410 +-$' "$out" || fail "no double row for bins 1000; stdout: $(cat "$out")"
grep -qE '^bins +plain_atomic +warp_match +cub$' "$out" || fail "no table header; stdout: $(cat "$out")"
echo "  ok"

check "(a') the fixture and a JSON copy from another device: labels name the device"
"$python" -c "import json, sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
doc['meta']['device']['name'] = 'NVIDIA H200'
json.dump(doc, open(sys.argv[2], 'w'))" "$fixture" "$scratch/h200.json" || fail "cannot write the JSON copy"
run "$fixture" "$scratch/h200.json" --out "$scratch/plots2"
[ "$rc" -eq 0 ] || fail "exit status $rc; stderr: $(cat "$err")"
grep -q 'plain_atomic (NVIDIA H200)' "$out" || fail "no 'plain_atomic (NVIDIA H200)' column; stdout: $(cat "$out")"
grep -q 'plain_atomic (NVIDIA H100 80GB HBM3)' "$out" || fail "no H100 column; stdout: $(cat "$out")"
echo "  ok"

check "(b) a missing file"
expect_error "missing file" "$scratch/no-such-report.yaml" --out "$scratch/plots3"

check "(c) a YAML file that is not a kmini report"
echo 'a: 1' >"$scratch/not-a-report.yaml"
expect_error "not a report" "$scratch/not-a-report.yaml" --out "$scratch/plots3"

check "(c') a file that is not YAML at all"
printf 'a: [1,\n' >"$scratch/broken.yaml"
expect_error "broken YAML" "$scratch/broken.yaml" --out "$scratch/plots3"

check "(d) a kmini report without a histogram run"
expect_error "no histogram run" "$(dirname "$fixture")/stream_only_report.yaml" --out "$scratch/plots3"

echo "PASS: plot_histogram.py"
