#!/usr/bin/env bash
# Weak and strong scaling on one node: inputs/scaling/ranks-N.yaml and the procurement suite
# under `mpirun -n N` for each N in RANKS that the node has GPUs for, one rank per GPU; then
# scripts/plot.py's scaling figures and efficiency tables from the reports.
#
#   scripts/scaling.sh [--ranks "1 2 4 8"] [--out DIR] [--inputs DIR] [--no-procurement]
#                      [-- kmini run options]
#
# DIR (default results/scaling-DATE) receives ranks-N.yaml and procurement-N.yaml per N, the
# figures and tables (plots/, tables.txt), the GPU and NIC topology (topology.txt, from
# `nvidia-smi topo -m`) and whether Open MPI was built CUDA-aware (mpi.txt). --inputs takes the
# ranks-N.yaml files from elsewhere (default inputs/scaling). KMINI_PRESET picks the build (cuda
# by default; setup.sh builds what is missing), or KMINI names a kmini binary to use as it is;
# KMINI_MPIRUN is the launcher and its options (mpirun). On a CUDA build a rank count above the
# GPUs the node shows is skipped with a note, never run with ranks sharing a GPU. Unless
# OMP_NUM_THREADS is set, each of N ranks gets the node's cores / N OpenMP threads (hf's host
# work, the validations' replays), not every core each.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=${KMINI_PRESET:-cuda}
read -ra mpirun <<< "${KMINI_MPIRUN:-mpirun}"
ranks_list="1 2 4 8"
out=$root/results/scaling-$(date +%Y%m%d-%H%M%S)
inputs_dir=$root/inputs/scaling
procurement=1
extra=()

usage() { sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() {
  echo "scaling.sh: error: $*" >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case $1 in
    --ranks) [ $# -ge 2 ] || die "--ranks needs a list, e.g. --ranks \"1 2 4\""; ranks_list=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift 2 ;;
    --inputs) [ $# -ge 2 ] || die "--inputs needs a directory"; inputs_dir=$2; shift 2 ;;
    --no-procurement) procurement=0; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
for n in $ranks_list; do
  case $n in
    1 | 2 | 4 | 8) ;;
    *) die "--ranks: '$n' is not one of 1, 2, 4, 8 (inputs/scaling/ has those)" ;;
  esac
  [ -f "$inputs_dir/ranks-$n.yaml" ] || die "no $inputs_dir/ranks-$n.yaml"
done

if [ -n "${KMINI:-}" ]; then
  kmini=$KMINI
  [ -x "$kmini" ] || die "KMINI=$kmini is not an executable"
else
  "$root/scripts/setup.sh" --preset "$preset" >&2
  kmini=$root/build/$preset/kmini
fi
needs_gpus=0
"$kmini" --version 2> /dev/null | grep -q Cuda && needs_gpus=1
mkdir -p "$out"

gpus=0
if command -v nvidia-smi > /dev/null 2>&1; then
  gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
  nvidia-smi topo -m > "$out/topology.txt" 2>&1 || true
fi
if command -v ompi_info > /dev/null 2>&1; then
  ompi_info --parsable --all 2> /dev/null | grep -E "mpi_built_with_cuda_support|accelerator" \
    > "$out/mpi.txt" || echo "ompi_info names no CUDA support" > "$out/mpi.txt"
else
  echo "no ompi_info: not Open MPI, or not on PATH" > "$out/mpi.txt"
fi

reports=()
for n in $ranks_list; do
  if [ "$needs_gpus" -eq 1 ] && [ "$n" -gt "$gpus" ]; then
    echo "scaling.sh: skipping $n ranks: this node shows $gpus GPU(s)" >&2
    continue
  fi
  inputs=("$inputs_dir/ranks-$n.yaml")
  [ "$procurement" -eq 1 ] && inputs+=("$root/inputs/suites/procurement.yaml")
  for input in "${inputs[@]}"; do
    stem=$(basename "${input%.yaml}")
    [ "$stem" = procurement ] && stem=procurement-$n
    echo "== $n rank(s): $input" >&2
    set +e
    OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(( $(nproc) / n > 0 ? $(nproc) / n : 1 ))} \
      "${mpirun[@]}" -n "$n" "$kmini" run "$input" --report "$out/$stem.yaml" "${extra[@]}"
    status=$?
    set -e
    [ "$status" -eq 0 ] || echo "scaling.sh: $stem exited with status $status" >&2
    [ -f "$out/$stem.yaml" ] && reports+=("$out/$stem.yaml")
  done
done

[ ${#reports[@]} -gt 0 ] || die "no report was written"
# shellcheck source=lib/plot_python.sh
. "$root/scripts/lib/plot_python.sh"
python=$(plot_python) || die "no python3 with matplotlib and PyYAML (scripts/setup.sh installs them)"
"$python" "$root/scripts/plot.py" "${reports[@]}" --out "$out/plots" | tee "$out/tables.txt"
echo "scaling.sh: reports, figures and tables in $out"
