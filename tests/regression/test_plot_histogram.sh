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

fail() { echo "FAIL: $*" >&2; exit 1; }
check() { echo "check: $*"; }

. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/plot_python.sh"
python=$(plot_python) || python=
[ -n "$python" ] || fail "no python3 with matplotlib and PyYAML (apt-get install python3-matplotlib python3-yaml)"
echo "python: $(command -v "$python")"

rm -rf "$scratch"
mkdir -p "$scratch"

# Runs the script with the given arguments; sets rc, and out / err to the files holding the output.
run() {
  out=$scratch/stdout err=$scratch/stderr
  "$python" "$script" "$@" >"$out" 2>"$err"
  rc=$?
}

# The exit status is 2 and stderr is exactly one 'plot_histogram.py: error: ' line.
expect_error() {
  local what=$1
  shift
  run "$@"
  [ "$rc" -eq 2 ] || fail "$what: exit status $rc, expected 2; stderr: $(cat "$err")"
  [ "$(wc -l <"$err")" -eq 1 ] || fail "$what: stderr is not one line: $(cat "$err")"
  grep -q '^plot_histogram\.py: error: ' "$err" || fail "$what: stderr lacks the error prefix: $(cat "$err")"
  echo "  ok: $(cat "$err")"
}

check "(a) the fixture report: exit 0, both PNGs, the table with the fixture's numbers"
run "$fixture" --out "$scratch/plots"
[ "$rc" -eq 0 ] || fail "exit status $rc; stderr: $(cat "$err")"
for bin_type in int double; do
  png=$scratch/plots/histogram-$bin_type.png
  [ -s "$png" ] || fail "$png is missing or empty"
  [ "$(head -c 4 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] || fail "$png is not a PNG"
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
cat >"$scratch/stream-only.yaml" <<'EOF'
kmini_report: 1
meta:
  device:
    name: "AMD EPYC"
runs:
  - app: "stream"
    input:
      elements: 1000
    results:
      - point: {}
        variant: "copy"
        status: "ran"
        time_s:
          min: 0.001
          median: 0.001
          mean: 0.001
          max: 0.001
EOF
expect_error "no histogram run" "$scratch/stream-only.yaml" --out "$scratch/plots3"

echo "PASS: plot_histogram.py"
