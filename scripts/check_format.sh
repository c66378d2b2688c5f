#!/usr/bin/env bash
# Checks that kmini's C++ files are formatted with the repository's .clang-format.
#
#   scripts/check_format.sh [BASE]
#
# With BASE (a commit, e.g. origin/main), the C++ files that changed since it, as a change's
# author checks them; without, every tracked C++ file, as CI does. Lists each file that
# clang-format would change, with `clang-format -i FILE` as the mend.
#
# Exit status: 0 when every file checked is formatted, 1 when one is not or clang-format is
# missing (scripts/setup.sh installs it), 2 on bad usage.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
[ $# -le 1 ] || { echo "usage: $0 [BASE]" >&2; exit 2; }
command -v clang-format >/dev/null 2>&1 ||
  { echo "check_format.sh: clang-format is not installed (scripts/setup.sh installs it)" >&2; exit 1; }

patterns=('*.cpp' '*.hpp' '*.h' '*.cu')
if [ $# -eq 1 ]; then
  git rev-parse --verify -q "$1^{commit}" >/dev/null || { echo "check_format.sh: no commit '$1'" >&2; exit 2; }
  mapfile -t files < <(git diff --name-only --diff-filter=ACMR "$1" -- "${patterns[@]}")
  scope="changed since $1"
else
  mapfile -t files < <(git ls-files -- "${patterns[@]}")
  scope="tracked"
fi
unformatted=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  printf 'check_format.sh: not formatted (clang-format -i FILE): %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "check_format.sh: ${#files[@]} $scope C++ files formatted ($(clang-format --version | head -n1))"
