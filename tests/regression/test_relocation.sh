#!/usr/bin/env bash
# An installed kmini is relocatable: `cmake --install` into a prefix, the prefix moved, and kmini
# run from another working folder finds its data in the moved share/kmini, not in the build or
# source tree; a binary copied beside an inputs/ folder finds that; KMINI_DATA_DIR comes first,
# and one that names no folder is refused with exit 2, naming the variable.
#
#   tests/regression/test_relocation.sh CMAKE BUILD_DIR SCRATCH_DIR
set -uo pipefail

[ $# -eq 3 ] || { echo "usage: $0 CMAKE BUILD_DIR SCRATCH_DIR" >&2; exit 1; }
cmake=$1
build=$(realpath "$2")
scratch=$(realpath -m "$3")

fail() { echo "FAIL: $*" >&2; exit 1; }
check() { echo "check: $*"; }

rm -rf "$scratch"
mkdir -p "$scratch/elsewhere" "$scratch/moved"
export ASAN_OPTIONS=${ASAN_OPTIONS-detect_leaks=0}  # Open MPI leaks at exit
export OMP_PROC_BIND=${OMP_PROC_BIND-false}
unset KMINI_DATA_DIR

"$cmake" --install "$build" --prefix "$scratch/installed" >"$scratch/install.log" 2>&1 ||
  fail "cmake --install: $(tail -n 20 "$scratch/install.log")"
mv "$scratch/installed" "$scratch/moved/prefix"
prefix=$scratch/moved/prefix
kmini=$prefix/bin/kmini
[ -x "$kmini" ] || fail "no bin/kmini in the installed tree"
for f in basis/sto-3g.gbs molecules/water-001.xyz sobol/new-joe-kuo-6.21201 hf/water-001-sto-3g.yaml \
  suites/quick.yaml; do
  [ -f "$prefix/share/kmini/$f" ] || fail "share/kmini/$f was not installed"
done

cat >"$scratch/elsewhere/bridge.yaml" <<'YAML'
app: bridge
paths: 256
steps: 16
normals: sobol
variant: cpu_serial
repetitions: 1
YAML

# kmini ARGS... from the other working folder; sets rc, out and err.
run() {
  (cd "$scratch/elsewhere" && "$@" >"$scratch/stdout" 2>"$scratch/stderr")
  rc=$?
  out=$(cat "$scratch/stdout")
  err=$(cat "$scratch/stderr")
}
# A run that exits 0 with a validated report.
expect_valid_run() {
  local what=$1 input=$2
  shift 2
  rm -f "$scratch/elsewhere/report.yaml"
  run "$@" run "$input" --ceiling-elements 0 --report report.yaml
  [ "$rc" -eq 0 ] || fail "$what: exit $rc; $err $out"
  grep -q '^VALID' <<<"$out" || fail "$what: no VALID line: $out"
  grep -q 'status: "\?PASS' "$scratch/elsewhere/report.yaml" || fail "$what: the report has no PASS"
  echo "  ok"
}
# Exit 2, one line on stderr, containing each of the further arguments.
expect_refused() {
  local what=$1
  shift
  [ "$rc" -eq 2 ] || fail "$what: exit $rc, expected 2; $err"
  [ "$(wc -l <"$scratch/stderr")" -eq 1 ] || fail "$what: not one line on stderr: $err"
  local word
  for word in "$@"; do
    [[ "$err" == *"$word"* ]] || fail "$what: stderr lacks '$word': $err"
  done
  echo "  ok: $err"
}

check "--version names the moved tree's data folder"
run "$kmini" --version
[ "$rc" -eq 0 ] || fail "--version: exit $rc; $err"
[[ "$out" == *"data: $prefix/share/kmini (the installed tree)"* ]] || fail "--version: $out"
echo "  ok"

check "hf and bridge inputs of the moved tree run from another folder"
expect_valid_run "hf" "$prefix/share/kmini/hf/water-001-sto-3g.yaml" "$kmini" \
  --set hf.variant=cpu --set hf.repetitions=1
expect_valid_run "bridge" bridge.yaml "$kmini"

check "a data file missing from the moved tree is not taken from the build or source tree"
mv "$prefix/share/kmini/sobol" "$scratch/sobol"
run "$kmini" check bridge.yaml
expect_refused "missing Sobol table" "sobol/new-joe-kuo-6.21201 was not found" \
  "$prefix/share/kmini (the installed tree)" "KMINI_DATA_DIR (unset)"

mv "$prefix/share/kmini/basis" "$scratch/basis"
run "$kmini" check "$prefix/share/kmini/hf/water-001-sto-3g.yaml"
expect_refused "missing basis set" "basis: kmini's data file basis/sto-3g.gbs was not found" \
  "$prefix/share/kmini (the installed tree)"
mv "$scratch/basis" "$prefix/share/kmini/basis"

check "KMINI_DATA_DIR is searched first"
mkdir -p "$scratch/data" && mv "$scratch/sobol" "$scratch/data/sobol"
expect_valid_run "bridge from KMINI_DATA_DIR" bridge.yaml env KMINI_DATA_DIR="$scratch/data" "$kmini"
run env KMINI_DATA_DIR="$scratch/data" "$kmini" --version
[[ "$out" == *"data: $scratch/data (KMINI_DATA_DIR)"* ]] || fail "--version: $out"

check "a binary copied beside an inputs/ folder"
mkdir -p "$scratch/copied"
cp "$kmini" "$scratch/copied/kmini"
cp -r "$prefix/share/kmini" "$scratch/copied/inputs"
cp -r "$scratch/data/sobol" "$scratch/copied/inputs/sobol"
expect_valid_run "copied binary" bridge.yaml "$scratch/copied/kmini"

check "KMINI_DATA_DIR naming no folder, or a file, is refused with exit 2, writing nothing"
rm -f "$scratch/elsewhere/report.yaml"
for command in --version "check bridge.yaml" "run bridge.yaml"; do
  # shellcheck disable=SC2086  # the command's words
  run env KMINI_DATA_DIR="$scratch/no-such-folder" "$kmini" $command
  expect_refused "missing folder, $command" "KMINI_DATA_DIR" "no such folder"
done
run env KMINI_DATA_DIR="$scratch/elsewhere/bridge.yaml" "$kmini" check bridge.yaml
expect_refused "a file" "KMINI_DATA_DIR" "not a folder"
[ "$(ls "$scratch/elsewhere")" = bridge.yaml ] ||
  fail "a refused run left files behind: $(ls "$scratch/elsewhere")"

echo "PASS"
