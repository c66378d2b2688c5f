#!/usr/bin/env bash
# The shipped water clusters are what scripts/make_water_clusters.py writes and obey its distance
# rules; its check fails on a moved atom and on a missing file.
#
#   tests/regression/test_water_clusters.sh PATH/TO/make_water_clusters.py MOLECULES_DIR SCRATCH_DIR
set -uo pipefail

[ $# -eq 3 ] || { echo "usage: $0 MAKE_WATER_CLUSTERS_PY MOLECULES_DIR SCRATCH_DIR" >&2; exit 1; }
script=$1
shipped=$2
scratch=$3

fail() { echo "FAIL: $*" >&2; exit 1; }
check() { echo "check: $*"; }
python=${PYTHON:-python3}

check "the shipped clusters pass"
"$python" "$script" --check "$shipped" || fail "the shipped clusters do not match the script"

rm -rf "$scratch"
mkdir -p "$scratch"
check "a fresh write passes"
"$python" "$script" --out "$scratch" >/dev/null || fail "writing failed"
"$python" "$script" --check "$scratch" || fail "a fresh write does not pass its own check"

check "a moved atom fails"
sed -i '5s/^\(H *\)[-0-9.]*/\1 9.500000/' "$scratch/water-003.xyz"
if "$python" "$script" --check "$scratch" 2>"$scratch/err"; then fail "a moved atom passed"; fi
grep -q "water-003.xyz: not what this script writes" "$scratch/err" || fail "no message: $(cat "$scratch/err")"

check "a missing file fails"
rm "$scratch/water-064.xyz"
if "$python" "$script" --check "$scratch" 2>"$scratch/err"; then fail "a missing file passed"; fi
grep -q "water-064.xyz: missing" "$scratch/err" || fail "no message: $(cat "$scratch/err")"
echo "PASS"
