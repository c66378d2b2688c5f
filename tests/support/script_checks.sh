# The harness of the tests of kmini's scripts (plot.py, plot_histogram.py, profile.sh), sourced
# after they set $scratch (a folder it empties) and $script (what `run` runs under $python).
#
#   fail MESSAGE         print FAIL and exit 1
#   check WHAT           announce a check
#   run ARGS...          $python $script ARGS; sets rc, and out / err to its output's files
#   expect_error_line STATUS PROG WHAT
#                        the last command exited STATUS with one 'PROG: error: ' line on stderr
#   is_png FILE          FILE is a non-empty PNG
#
# $python is the interpreter itself (not a pyenv shim) with matplotlib and PyYAML.

fail() { echo "FAIL: $*" >&2; exit 1; }
check() { echo "check: $*"; }

. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/plot_python.sh"
python=$(plot_python) ||
  fail "no python3 with matplotlib and PyYAML (apt-get install python3-matplotlib python3-yaml)"
python=$("$python" -c 'import sys; print(sys.executable)')
echo "python: $python"
export PYTHONDONTWRITEBYTECODE=1  # leave no __pycache__ in the source tree

rm -rf "$scratch"
mkdir -p "$scratch"

run() {
  out=$scratch/stdout err=$scratch/stderr
  "$python" "$script" "$@" >"$out" 2>"$err"
  rc=$?
}

expect_error_line() {
  local status=$1 prog=$2 what=$3
  [ "$rc" -eq "$status" ] || fail "$what: exit status $rc, expected $status; stderr: $(cat "$err")"
  [ "$(wc -l <"$err")" -eq 1 ] || fail "$what: stderr is not one line: $(cat "$err")"
  [[ "$(cat "$err")" == "$prog: error: "* ]] ||
    fail "$what: stderr lacks '$prog: error: ': $(cat "$err")"
  echo "  ok: $(cat "$err")"
}

is_png() {
  [ -s "$1" ] && [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e47 ]
}
