#!/usr/bin/env bash
# Compiles every translation unit of the openmp preset (kmini and its tests), syntax only,
# against the headers of the newest Kokkos Debian ships (libkokkos-dev, 5.x): the code that
# builds with the Kokkos 3.4.01 of setup.sh must build with Kokkos 5 too.
#
#   scripts/check_kokkos_compat.sh [SUBSTRING]   (only the files whose path contains it)
#
# The package is built for a newer glibc than most machines have, so it is not installed:
# `apt-get download` through package lists of its own, then `dpkg -x` into a temporary folder.
# Its KokkosCore_config.h enables one host backend (OpenMP); a private copy enables Serial too,
# as the openmp preset does. The compile commands come from configuring the openmp preset in
# build/kokkos-compat (no build), so setup.sh's deps/openmp must exist.
#
# The package is unpacked into the machine's cache (KMINI_CACHE_DIR, default ~/.cache/kmini), and
# the compiles go through ccache when it is installed (scripts/lib/ccache_launcher.sh;
# KMINI_CCACHE=off: without): a later check of the same package on this machine downloads nothing
# and checks only the units that changed.
#
# Exit status: 0 when every file compiled, or when the package could not be reached (the check
# is then skipped, and says so); 1 when a file did not compile or the check itself failed; 2 on
# bad usage.
# KMINI_DEBIAN_MIRROR overrides the archive (default http://deb.debian.org/debian).
set -euo pipefail

only=${1:-}
[ $# -le 1 ] || { echo "usage: $0 [SUBSTRING]" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib/private_apt.sh"
mirror=${KMINI_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
jobs=$(nproc 2>/dev/null || echo 2)
cache_dir=${KMINI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kmini}
start=$(date +%s)

say() { echo "check_kokkos_compat.sh: $*"; }
die() {
  echo "check_kokkos_compat.sh: error: $*" >&2
  exit 1
}
skip() {
  say "SKIPPED: $*"
  exit 0
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --------------------------------------------------------------------------------------------
# The package, from Debian's unstable and experimental suites
# --------------------------------------------------------------------------------------------
[ -f "$keyring" ] || skip "no Debian archive keyring at $keyring to check packages with (apt-get install debian-archive-keyring)"
private_apt_init "$work/apt"
cat >"$work/apt/parts/kmini-kokkos-compat.sources" <<EOF
Types: deb
URIs: $mirror
Suites: sid experimental
Components: main
Signed-By: $keyring
EOF
# apt-get update exits 0 when a list could not be fetched, only warning.
if ! apt-get "${private_apt_opts[@]}" update -qq >"$work/update.log" 2>&1 ||
  grep -qE '^(Err:|[WE]: Failed to fetch)' "$work/update.log"; then
  skip "Debian's package lists at $mirror are not reachable: $(grep -m1 -E '^(Err|E|W):' "$work/update.log" || tail -n1 "$work/update.log")"
fi

# The newest version of package $1 that apt knows, or nothing.
newest() {
  apt-cache "${private_apt_opts[@]}" madison "$1" 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}' |
    sort -V | tail -n1
}
# Downloads package $1 at version $2 and unpacks it into the folder $3, unless an earlier check
# left it there whole.
fetch() {
  [ ! -f "$3/.unpacked" ] || return 0
  mkdir -p "$work/debs"
  (cd "$work/debs" && apt-get "${private_apt_opts[@]}" download -qq "$1=$2") >"$work/download.log" 2>&1 ||
    return 1
  rm -rf "$3" && mkdir -p "$3"
  dpkg -x "$work/debs/$1_${2#*:}_"*.deb "$3" && touch "$3/.unpacked"
}
# KOKKOS_VERSION (as 50202) from the config header $1.
version_in() {
  sed -nE 's/^#define KOKKOS_VERSION ([0-9]+)$/\1/p' "$1" | head -n1
}

kokkos_package=libkokkos-dev
kokkos_version=$(newest "$kokkos_package")
[ -n "$kokkos_version" ] || skip "Debian's $kokkos_package is not in the package lists of $mirror"
# A stable folder per version, so that the compile commands, and with them ccache's keys, are the
# same from one check to the next. An unwritable cache leaves the package in the temporary folder.
unpacked=$cache_dir/kokkos-compat/$kokkos_package-${kokkos_version//[^A-Za-z0-9.+~-]/_}
mkdir -p "$unpacked" 2>/dev/null && [ -w "$unpacked" ] || unpacked=$work/x/$kokkos_package
fetch "$kokkos_package" "$kokkos_version" "$unpacked" ||
  skip "$kokkos_package $kokkos_version could not be downloaded: $(tail -n1 "$work/download.log")"
kokkos_include=$unpacked/usr/include/kokkos
[ -f "$kokkos_include/KokkosCore_config.h" ] || die "$kokkos_package $kokkos_version has no kokkos/KokkosCore_config.h"
[ "$(version_in "$kokkos_include/KokkosCore_config.h")" -ge 50000 ] ||
  skip "Debian's newest $kokkos_package is $kokkos_version, not 5.x"

# --------------------------------------------------------------------------------------------
# A private configuration header: Serial and OpenMP, as the openmp preset has
# --------------------------------------------------------------------------------------------
# Copies the configuration of the Kokkos headers in $1 into $2 with both host backends enabled.
host_backends_config() {
  local from=$1 to=$2 backend
  mkdir -p "$to"
  cp "$from/KokkosCore_config.h" "$from/KokkosCore_Config_DeclareBackend.hpp" \
    "$from/KokkosCore_Config_FwdBackend.hpp" "$to/"
  # A Serial-only Kokkos may bypass atomics, which Kokkos refuses beside a parallel backend.
  sed -i 's|^#define KOKKOS_ENABLE_ATOMICS_BYPASS$|/* #undef KOKKOS_ENABLE_ATOMICS_BYPASS */|' "$to/KokkosCore_config.h"
  for backend in SERIAL OPENMP; do
    sed -i "s|^/\* #undef KOKKOS_ENABLE_$backend \*/|#define KOKKOS_ENABLE_$backend|" "$to/KokkosCore_config.h"
    grep -q "^#define KOKKOS_ENABLE_$backend\$" "$to/KokkosCore_config.h" ||
      die "cannot enable $backend in $from/KokkosCore_config.h"
    grep -q "Kokkos_Declare_$backend.hpp" "$to/KokkosCore_Config_DeclareBackend.hpp" ||
      sed -i "0,/^#include/s||#include <decl/Kokkos_Declare_$backend.hpp>\n#include|" "$to/KokkosCore_Config_DeclareBackend.hpp"
    grep -q "Kokkos_Fwd_$backend.hpp" "$to/KokkosCore_Config_FwdBackend.hpp" ||
      sed -i "0,/^#include/s||#include <fwd/Kokkos_Fwd_$backend.hpp>\n#include|" "$to/KokkosCore_Config_FwdBackend.hpp"
  done
}
# Written anew each time, but copied to its stable folder only where it changed: ccache trusts no
# header written moments before a compile.
host_backends_config "$kokkos_include" "$work/config"
config_dir=$unpacked/host-backends-config
mkdir -p "$config_dir"
for f in "$work"/config/*; do
  cmp -s "$f" "$config_dir/$(basename "$f")" || cp "$f" "$config_dir/"
done

# --------------------------------------------------------------------------------------------
# The openmp preset's compile commands, pointed at the new headers
# --------------------------------------------------------------------------------------------
commands_dir=$root/build/kokkos-compat
cmake --preset openmp -B "$commands_dir" -DKMINI_PRESET=kokkos-compat -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  >"$work/configure.log" 2>&1 ||
  { tail -n 20 "$work/configure.log" >&2; die "configuring the openmp preset failed; run scripts/setup.sh first"; }

# One script per translation unit in $work/tu/, each compiling it with -fsyntax-only and C++20
# (Kokkos 5 requires it), the Kokkos include folder of setup.sh's Kokkos replaced by the new
# headers. The private configuration folder's path is the mark of a file that includes Kokkos.
mkdir -p "$work/tu"
launcher=
if [ "${KMINI_CCACHE:-on}" != off ] && command -v ccache >/dev/null 2>&1; then
  launcher=$root/scripts/lib/ccache_launcher.sh
fi
python3 - "$commands_dir/compile_commands.json" "$work" "$root/deps" "$config_dir" "$kokkos_include" \
  "$only" "$launcher" <<'EOF'
import json, re, shlex, sys

commands, work, deps, config, kokkos, only, launcher = sys.argv[1:8]
for n, entry in enumerate(json.load(open(commands))):
    source = entry["file"]
    if only not in source:
        continue
    args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
    kept, i = [args[0]], 1
    while i < len(args):
        a = args[i]
        if a in ("-o", "-c"):
            i += 2 if a == "-o" else 1
            continue
        if a == source or a.startswith("-std="):
            i += 1
            continue
        if a in ("-isystem", "-I") and args[i + 1].startswith(deps):
            i += 2
            continue
        joined = re.match(r"-(isystem|I)(.+)", a)
        if joined and joined.group(2).startswith(deps):
            i += 1
            continue
        kept.append(a)
        i += 1
    includes = ["-isystem", config, "-isystem", kokkos]
    line = shlex.join([kept[0]] + includes + kept[1:] + ["-std=c++20", source])
    # Half of kmini's files never include Kokkos: their dependencies (-M) say so in a fraction
    # of a syntax check's time, and they are marked instead of compiled.
    with open(f"{work}/tu/{n:04d}.sh", "w") as f:
        f.write(f"cd {shlex.quote(entry['directory'])} || exit 1\n"
                f"{line} -M >{work}/tu/{n:04d}.deps || exit 1\n"
                f"grep -qF {shlex.quote(config)} {work}/tu/{n:04d}.deps || "
                f"{{ touch {work}/tu/{n:04d}.unaffected; exit 0; }}\n"
                f"{shlex.quote(launcher) + ' ' if launcher else ''}{line} -fsyntax-only\n")
    with open(f"{work}/tu/{n:04d}.source", "w") as f:
        f.write(source + "\n")
EOF

count=$(find "$work/tu" -name '*.sh' | wc -l)
[ "$count" -gt 0 ] || die "no translation unit of the openmp preset has '$only' in its path"
say "Kokkos $kokkos_version ($kokkos_package) for $count translation units, $jobs at a time"
# Each compile leaves its output beside its script, and a .failed mark when it fails.
# shellcheck disable=SC2016  # the inner script's own $1
find "$work/tu" -name '*.sh' -print0 | xargs -0 -P "$jobs" -I{} sh -c '
  sh "$1" >"${1%.sh}.log" 2>&1 || touch "${1%.sh}.failed"' _ {}

failed=0
for mark in "$work"/tu/*.failed; do
  [ -e "$mark" ] || continue
  failed=$((failed + 1))
  echo "== $(cat "${mark%.failed}.source")" >&2
  grep -E 'error|required from here' "${mark%.failed}.log" | head -n 20 >&2
done
seconds=$(($(date +%s) - start))
unaffected=$(find "$work/tu" -name '*.unaffected' | wc -l)
checked=$((count - unaffected))
if [ "$failed" -gt 0 ]; then
  die "$failed of the $checked translation units that include Kokkos do not compile against Kokkos $kokkos_version (${seconds} s)"
fi
say "all $checked translation units that include Kokkos compile against Kokkos $kokkos_version; $unaffected include no Kokkos header (${seconds} s)"
