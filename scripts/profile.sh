#!/usr/bin/env bash
# kmini's access-pattern report (seed 002): runs kmini under Nsight Compute and tables, per
# kernel, how well its global loads and stores coalesce, with advice and thread -> address
# pictures. See usage() below, or run with --help.
set -euo pipefail

prog=profile.sh
here=${BASH_SOURCE[0]%/*}
[ "$here" != "${BASH_SOURCE[0]}" ] || here=.
root=$(cd "$here/.." && pwd)

usage() {
  printf '%s\n' \
    "usage: scripts/profile.sh INPUT [options] [-- kmini run options...]" \
    "" \
    "Runs 'kmini run INPUT' under Nsight Compute (ncu), then scripts/access_report.py on what it" \
    "measured. Per kernel: launches, mean time, DRAM GB/s and % of peak, global load and store" \
    "sectors per request beside the index model's prediction, L2 hit rate, achieved occupancy," \
    "registers, local-memory (spill) sectors, and a line of advice where one is far from ideal." \
    "" \
    "options:" \
    "  --out DIR           where everything goes (default: results/profile-<input>-<UTC time>)" \
    "  --kernel REGEX      profile only kernels whose demangled name matches REGEX" \
    "                      (e.g. PathGenerator, SharedSweep|MDRangeSweep)" \
    "  --max-launches N    profile at most N kernel launches (default 200); later ones run" \
    "                      unprofiled. ncu replays every profiled launch, so keep runs short:" \
    "                      -- --set bridge.repetitions=1 --set bridge.warmup=0" \
    "  --min-us T          leave kernels shorter than T microseconds out of the table (default 5)" \
    "  --ncu-arg ARG       pass ARG to ncu (repeat for several, e.g. --ncu-arg --clock-control" \
    "                      --ncu-arg none to profile at the GPU's own clocks, not ncu's base ones)" \
    "  -h, --help          this text" \
    "" \
    "environment:" \
    "  KMINI    the kmini binary (default: build/cuda/kmini)" \
    "  NCU      the ncu binary (default: ncu on the PATH)" \
    "  PYTHON   a python3 with matplotlib and PyYAML (default: python3, then /usr/bin/python3)" \
    "" \
    "It runs, with METRICS from 'scripts/access_report.py metrics':" \
    "  ncu --csv --page raw --log-file DIR/ncu-raw.csv --kernel-name-base demangled" \
    "      [--kernel-name regex:REGEX] --launch-count N --print-units base" \
    "      --print-kernel-base demangled --metrics METRICS" \
    "      KMINI run INPUT --ceiling-elements 0 --report DIR/report.yaml [kmini run options]" \
    "and, should this ncu reject a --print-* option or a metric, again without them and with" \
    "the core metrics only ('scripts/access_report.py metrics --core')." \
    "DIR then holds ncu-raw.csv, ncu-console.log, report.yaml, access-report.md and .yaml," \
    "and access-bridge.png / access-himeno.png for bridge and himeno runs." \
    "" \
    "Exit status: 0 done, 2 bad usage or a missing tool or file, 4 ncu profiled nothing."
}

fail() {
  printf '%s: error: %s\n' "$prog" "$*" >&2
  exit 2
}

say() {
  printf '%s: %s\n' "$prog" "$*" >&2
}

# The value of option $1, or a clear error when it has none ($2 is the next argument, if any).
value_of() {
  [ $# -ge 2 ] || fail "$1 needs a value (see --help)"
  printf '%s' "$2"
}

input=
out=
kernel=
max_launches=200
min_us=5
ncu_extra=()
kmini_extra=()
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --out) out=$(value_of "$@"); shift 2 ;;
    --kernel) kernel=$(value_of "$@"); shift 2 ;;
    --max-launches) max_launches=$(value_of "$@"); shift 2 ;;
    --min-us) min_us=$(value_of "$@"); shift 2 ;;
    --ncu-arg) ncu_extra+=("$(value_of "$@")"); shift 2 ;;
    --) shift; kmini_extra=("$@"); break ;;
    -*) fail "unknown option $1 (see --help)" ;;
    *)
      [ -z "$input" ] || fail "one INPUT only, got '$input' and '$1' (kmini's options go after --)"
      input=$1
      shift
      ;;
  esac
done

[ -n "$input" ] || fail "no INPUT given; usage: profile.sh INPUT [options] [-- kmini run options]"
[[ $max_launches =~ ^[1-9][0-9]*$ ]] ||
  fail "--max-launches: expected a positive integer, got '$max_launches'"
[[ $min_us =~ ^[0-9]+([.][0-9]+)?$ ]] ||
  fail "--min-us: expected a number of microseconds, got '$min_us'"
for arg in ${kmini_extra[@]+"${kmini_extra[@]}"}; do
  [ "${arg%%=*}" != --report ] ||
    fail "profile.sh gives kmini --report DIR/report.yaml itself; drop '$arg'"
done
[ -f "$input" ] || fail "$input: no such input file"
kmini=${KMINI:-$root/build/cuda/kmini}
if [ ! -f "$kmini" ] || [ ! -x "$kmini" ]; then
  fail "$kmini: no kmini binary there; build it (scripts/setup.sh --preset cuda) or set KMINI=path"
fi

if [ -n "${NCU:-}" ]; then
  if [ ! -f "$NCU" ] || [ ! -x "$NCU" ]; then
    fail "NCU=$NCU is not an executable file"
  fi
  ncu=$NCU
else
  ncu=$(command -v ncu) || fail "ncu (Nsight Compute) is not on the PATH;" \
    "add its folder (often /usr/local/cuda/bin) to PATH or set NCU=/path/to/ncu"
fi

# A python with what access_report.py needs.
. "$root/scripts/lib/plot_python.sh"
python=$(plot_python) || python=
[ -n "$python" ] || fail "no python3 with matplotlib and PyYAML" \
  "(apt-get install python3-matplotlib python3-yaml, or set PYTHON)"
report_py=$root/scripts/access_report.py

if [ -z "$out" ]; then
  stem=${input##*/}
  out=$root/results/profile-${stem%.*}-$(date -u +%Y%m%d-%H%M%S)
fi
mkdir -p "$out" || fail "$out: cannot create the output folder"
csv=$out/ncu-raw.csv
console=$out/ncu-console.log

ncu_args=(--csv --page raw --log-file "$csv" --kernel-name-base demangled
  --launch-count "$max_launches")
[ -z "$kernel" ] || ncu_args+=(--kernel-name "regex:$kernel")
ncu_args+=(${ncu_extra[@]+"${ncu_extra[@]}"})
kmini_cmd=("$kmini" run "$input" --ceiling-elements 0 --report "$out/report.yaml"
  ${kmini_extra[@]+"${kmini_extra[@]}"})

# Runs ncu with the given trailing ncu arguments, its output and kmini's on the terminal and in
# the console log; returns ncu's exit status (kmini's, when kmini fails).
run_ncu() {
  rm -f "$csv"
  say "$ncu ${ncu_args[*]} $* ${kmini_cmd[*]}"
  set +e
  "$ncu" "${ncu_args[@]}" "$@" "${kmini_cmd[@]}" 2>&1 | tee "$console"
  local status=${PIPESTATUS[0]}
  set -e
  return "$status"
}

# Whether ncu wrote a table (a header row naming the kernel column).
profiled() {
  [ -s "$csv" ] && grep -q '"Kernel Name"' "$csv"
}

# Whether ncu's complaint was about an option or metric this version lacks.
rejected_request() {
  local complaint='unrecogni[sz]ed option|unknown option|invalid (option|value|metric)'
  complaint+='|failed to find metric|metric.*(not found|not available|invalid)'
  grep -Eqi "$complaint" "$console" "$csv" 2>/dev/null
}

status=0
all_metrics=$("$python" "$report_py" metrics)
run_ncu --print-units base --print-kernel-base demangled --metrics "$all_metrics" || status=$?
if ! profiled && [ "$status" -ne 0 ] && rejected_request; then
  say "ncu rejected a metric or a --print-* option; again with the core metrics only"
  status=0
  run_ncu --metrics "$("$python" "$report_py" metrics --core)" || status=$?
fi
if ! profiled; then
  if grep -q ERR_NVGPUCTRPERM "$console" "$csv" 2>/dev/null; then
    say "the GPU's performance counters need root" \
      "(or the driver option NVreg_RestrictProfilingToAdminUsers=0)"
  fi
  say "error: ncu profiled no kernel (exit status $status); see $console"
  exit 4
fi
if [ "$status" -ne 0 ]; then
  say "warning: ncu or kmini exited with status $status (see $console);" \
    "the table covers the launches ncu profiled"
fi

report_args=(report "$csv" --out "$out" --min-us "$min_us")
[ ! -f "$out/report.yaml" ] || report_args+=(--kmini-report "$out/report.yaml")
"$python" "$report_py" "${report_args[@]}"
