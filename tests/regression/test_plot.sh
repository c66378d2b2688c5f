#!/usr/bin/env bash
# scripts/plot.py on the fixture reports: every figure kind, the numbers in its tables, FAIL and
# not applicable results, and its errors on bad input.
#
#   tests/regression/test_plot.sh PATH/TO/plot.py SCRATCH_DIR
#
# Prints each check; exits 1 on the first that fails. The script runs under the first of $PYTHON,
# python3 and /usr/bin/python3 that has matplotlib and PyYAML (a pyenv python3 on PATH may lack
# them while Debian's python3-matplotlib sits in /usr/bin/python3). The expected numbers are
# worked out by hand from the fixtures' median times, given beside each check.
set -uo pipefail

[ $# -eq 2 ] || { echo "usage: $0 PLOT_PY SCRATCH_DIR" >&2; exit 1; }
script=$1
scratch=$2
inputs=$(cd "$(dirname "${BASH_SOURCE[0]}")/../inputs" && pwd)
fixture=$inputs/plot_report_fixture.yaml
histogram_fixture=$inputs/histogram_report_fixture.yaml
one_rank=$inputs/plot_scaling_1rank.yaml
two_ranks=$inputs/plot_scaling_2ranks.yaml
. "$(dirname "${BASH_SOURCE[0]}")/../support/script_checks.sh"

expect_success() {
  run "$@"
  [ "$rc" -eq 0 ] || fail "exit status $rc; stderr: $(cat "$err")"
}

# stdout has a line matching the extended regular expression.
expect_line() {
  grep -qE -- "$1" "$out" || fail "no line matching '$1'; stdout: $(cat "$out")"
}

# DIR/NAME.png exists, is a PNG, and stdout says it was written.
expect_png() {
  local png=$1/$2.png
  is_png "$png" || fail "$png is missing, empty or not a PNG"
  grep -qxF "wrote $png" "$out" || fail "stdout lacks 'wrote $png'"
}

# The exit status is 2 and stderr is exactly one 'plot.py: error: ' line.
expect_error() {
  local what=$1
  shift
  run "$@"
  expect_error_line 2 plot.py "$what"
}

# A copy of the fixture as JSON, changed by a Python statement on `doc` (e.g. a result set to FAIL).
derived() {
  "$python" -c "import json, sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
$2
json.dump(doc, open(sys.argv[3], 'w'))" "$1" unused "$3" || fail "cannot write $3"
}

check "(a) the fixture and the histogram fixture: a PNG per figure kind, the scaling one skipped"
plots=$scratch/plots
expect_success "$fixture" "$histogram_fixture" --out "$plots"
for name in histogram-int histogram-double himeno-speedup hf-speedup bridge-table1; do
  expect_png "$plots" "$name"
done
expect_line '^note: no scaling figure: it needs reports at different rank counts \(all ran on 1\)$'
echo "  ok"

check "(b) histogram: the table of the histogram fixture (as scripts/plot_histogram.py prints it)"
# bins 1: plain_atomic 5.912 ms, warp_match 0.2134 ms, cub 0.04120 ms; double bins: cub n/a.
expect_line '^ +1 +5\.912 +0\.2134 +0\.04120$'
expect_line '^1000 +0\.03360 +0\.07410 +-$'
echo "  ok"

check "(c) himeno: speed-ups over cpu_serial, and a point without cpu_serial"
# XS: cpu_serial 0.75188373 s / kokkos_reduce 0.036406725 s = 20.65, / plain_atomic 0.07021231 s
# = 10.71; L: 14.540227195 s / 0.019454108 s = 747.4.
expect_line '^size XS +cpu_serial +751\.9 +20\.65 +10\.71 '
expect_line '^size L +cpu_serial +14540 +747\.4 '
# The benchmark run at L (copy-back) has kokkos_reduce alone.
expect_line '^size L update=copy_back +cpu_serial did not run: no bars$'
echo "  ok"

check "(d) hf: speed-ups over the cpu baseline of another run, and over a baseline that FAILS"
# water-014 sto-3g: cpu 0.615018808 s / atomic 0.004778593 s = 128.7, / auto 0.004616456 s =
# 133.2, / host_update 0.015566994 s = 39.51.
expect_line '^water-014 sto-3g +cpu \(baseline\) +615\.0 +128\.7 +119\.8 +118\.2 +133\.2 +39\.51 +1\.000$'
# water-064 6-31g: cpu's one-build run failed validation: 62.365631526 s / atomic 0.492955324 s
# = 126.5, / auto 0.424696483 s = 146.8.
expect_line '^water-064 6-31g +cpu \(baseline, FAIL\) +62366 +126\.5 +146\.8 +1\.000 FAIL$'
expect_line "^  water-064 6-31g: from several runs: atomic, auto in 'water-064-6-31g' .*; cpu in 'water-064-6-31g-cpu-one-build'"
echo "  ok"

check "(e) bridge: GB/s and % of the 2961 GB/s copy ceiling; not applicable as '-'"
# shared_vector at time_major: 2553.4 GB/s / 2961.18 GB/s = 86.2%; path_major: not applicable.
expect_line 'copy ceiling: 2961 GB/s'
expect_line '^output=paths precision=float layout=time_major +1960 \(66\.2%\) +2098 \(70\.9%\) .* 2553 \(86\.2%\) '
expect_line '^output=paths precision=float layout=path_major +98\.79 \(3\.3%\) .* 198\.8 \(6\.7%\) +- +- +1\.193 '
echo "  ok"

check "(f) a result that failed validation is marked FAIL (a JSON copy with bridge naive failed)"
derived "$fixture" "
run = next(r for r in doc['runs'] if r['app'] == 'bridge')
run['results'][0]['validation']['status'] = 'FAIL'" "$scratch/bridge-fail.json"
expect_success "$scratch/bridge-fail.json" --out "$scratch/plots-fail"
expect_png "$scratch/plots-fail" bridge-table1
expect_line '^output=paths precision=float layout=time_major +1960 \(66\.2%\) FAIL +2098 \(70\.9%\) '
echo "  ok"

check "(g) a run that did not complete is noted"
derived "$fixture" "
run = next(r for r in doc['runs'] if r['app'] == 'bridge')
run['status'], run['error'] = 'error', 'out of device memory'" "$scratch/bridge-error.json"
expect_success "$scratch/bridge-error.json" --out "$scratch/plots-error"
expect_line "^note: run 'table1' \(bridge\) in .*bridge-error\.json did not complete: out of device memory$"
echo "  ok"

check "(h) scaling: 1 and 2 ranks, himeno weak and hf strong"
expect_success "$one_rank" "$two_ranks" --out "$scratch/scaling"
for name in scaling-himeno scaling-hf hf-speedup; do
  expect_png "$scratch/scaling" "$name"
done
# himeno copy-back: 2 ranks with twice the work (items 53164440000 / 26582220000): weak;
# 2800047 / 1531836 MFLOPS = 1.828, / 2 ranks = 91.4% (= 590.0 ms / 645.6 ms).
expect_line '^update=copy_back kokkos_reduce +1 +590\.0 +1531836 +1\.000 +100\.0% +1\.000 +plot_scaling_1rank\.yaml$'
expect_line '^ +2 +645\.6 +2800047 +1\.828 +91\.4% +2\.000 +weak; inputs differ: grid, ranks, size +plot_scaling_2ranks\.yaml$'
# hf atomic: the same work (382507858 quartets): strong; 1387.2 / 791.4 = 1.753, / 2 = 87.6%.
expect_line '^ +2 +275\.7 +1387 +1\.753 +87\.6% +1\.000 +strong +plot_scaling_2ranks\.yaml$'
# No baseline ran in these hf runs: relative to atomic, and the device and ranks tell groups apart.
expect_line '^water-064 6-31g \(NVIDIA H200, 2 ranks\) +atomic \(no baseline ran\) +275\.7 +1\.000 +1\.231$'
expect_line '^note: no himeno figure: it needs himeno runs where cpu_serial ran \(none did\)$'
# The phases, in ms, from the fixtures' metrics: a row where a result has them (himeno's swap
# result and hf's atomic have none, and no row), '-' for none of the app's list. hf auto's
# scf_outside_g_seconds is there at 1 rank too; its rank_build_imbalance is a ratio, printed as
# it is: 0.2102 s / 0.2050 s = 1.025 (not 1025, as it would read in ms).
expect_line '^himeno over ranks, where the time went \[ms\]'
expect_line '^update=copy_back kokkos_reduce +2 +0\.4200 +0\.3100 +6\.100 +6\.300$'
expect_line '^hf over ranks, where the time went \[ms\].*rank_build_imbalance: .*, no unit$'
expect_line '^water-064-6-31g auto +1( +-){6} +640\.0$'
expect_line '^ +2 +198\.5 +205\.0 +210\.2 +1\.025 +1\.100 +12\.80 +610\.0$'
if sed -n '/^himeno over ranks/,/^$/p' "$out" | grep -q '^update=swap'; then
  fail "a phase row for himeno's swap result, which has no phase metrics"
fi
echo "  ok"

check "(i) scaling-hf-speedup: speed-up and efficiency of hf's G build and whole SCF"
# Still (h)'s output. G build from the median times, SCF from scf_seconds; efficiency = speed-up /
# 2 ranks. auto: G 414.649983 ms / 223.986988 ms = 1.851, 92.6%; SCF 5.48011872 s / 3.087917052 s
# = 1.775, 88.7%. atomic: G 483.31908 / 275.734221 = 1.753, 87.6%; SCF 6.115543474 / 3.56802093
# = 1.714, 85.7%.
expect_png "$scratch/scaling" scaling-hf-speedup
expect_line '^water-064-6-31g auto +1 +414\.6 +1\.000 +100\.0% +5\.480 +1\.000 +100\.0%$'
expect_line '^ +2 +224\.0 +1\.851 +92\.6% +3\.088 +1\.775 +88\.7%$'
expect_line '^ +2 +275\.7 +1\.753 +87\.6% +3\.568 +1\.714 +85\.7%$'
# himeno's series scale weakly: no speed-up to draw.
[ ! -e "$scratch/scaling/scaling-himeno-speedup.png" ] ||
  fail "a speed-up figure for himeno's weak scaling"
# A 2-rank copy with auto failed and atomic lacking scf_seconds (as an older report): FAIL after
# auto's speed-ups, '-' for atomic's SCF, its G build as before.
derived "$two_ranks" "
run = next(r for r in doc['runs'] if r['app'] == 'hf')
run['results'][1]['validation']['status'] = 'FAIL'
del run['results'][0]['metrics']['scf_seconds']" "$scratch/hf-2ranks-fail.json"
expect_success "$one_rank" "$scratch/hf-2ranks-fail.json" --out "$scratch/scaling-fail"
expect_png "$scratch/scaling-fail" scaling-hf-speedup
expect_line '^ +2 +224\.0 +1\.851 FAIL +92\.6% +3\.088 +1\.775 FAIL +88\.7%$'
expect_line '^ +2 +275\.7 +1\.753 +87\.6% +- +- +-$'
echo "  ok"

check "(j) --help lists the figures"
expect_success --help
for name in histogram- himeno-speedup hf-speedup bridge- scaling- scaling-hf-speedup; do
  grep -q -- "$name" "$out" || fail "--help does not mention $name; stdout: $(cat "$out")"
done
echo "  ok"

check "(k) a missing file"
expect_error "missing file" "$scratch/no-such-report.yaml" --out "$scratch/plots-bad"

check "(l) a file that is not YAML or JSON"
printf 'a: [1,\n' >"$scratch/broken.yaml"
expect_error "broken YAML" "$scratch/broken.yaml" --out "$scratch/plots-bad"

check "(m) a YAML file that is not a kmini report"
echo 'a: 1' >"$scratch/not-a-report.yaml"
expect_error "not a report" "$scratch/not-a-report.yaml" --out "$scratch/plots-bad"

check "(n) a kmini report without runs"
printf 'kmini_report: 1\nmeta: {}\n' >"$scratch/no-runs.yaml"
expect_error "no runs" "$scratch/no-runs.yaml" --out "$scratch/plots-bad"

check "(o) reports with nothing to draw: the error names the apps found and what the figures need"
expect_error "nothing to draw" "$inputs/stream_only_report.yaml" --out "$scratch/plots-bad"
grep -q 'runs of stream' "$err" || fail "the error does not name the app found: $(cat "$err")"
grep -q 'the himeno figure needs himeno runs' "$err" || fail "the error does not say what himeno needs: $(cat "$err")"
[ ! -e "$scratch/plots-bad" ] || fail "an error left $scratch/plots-bad behind"

check "(p) --out missing"
expect_error "no --out" "$fixture"

echo "PASS: plot.py"
