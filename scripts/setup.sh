#!/usr/bin/env bash
# Installs what kmini needs and builds it into build/<preset>. Idempotent: a second run after a
# success only re-checks and rebuilds incrementally.
#
#   scripts/setup.sh [--preset openmp|cuda|debug] [--deps-only]
#
# Steps:
#   1. Debian packages the build needs (apt-get, non-interactive), only those missing.
#   2. Kokkos 3.4.01 under deps/<preset>/, unless Kokkos_ROOT names an installed Kokkos. The
#      source is Debian's trilinos 13.2 source package (which carries Kokkos), fetched with
#      `apt-get source` through deb-src entries derived from this machine's own apt sources,
#      patched with cmake/patches/*.patch. Each install is kept in the machine's cache
#      (KMINI_CACHE_DIR, default ~/.cache/kmini) and copied from there by a later checkout.
#   3. kmini itself: cmake --preset <preset>, then a build, through ccache when it is installed
#      (KMINI_CCACHE=off: without), so a later build on this machine compiles only what changed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=openmp
deps_only=0
. "$root/scripts/lib/private_apt.sh"

usage() {
  sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}
die() {
  echo "setup.sh: $*" >&2
  exit 1
}
say() { echo "setup.sh: $*"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --preset) [ $# -ge 2 ] || die "--preset needs a value (openmp, cuda or debug)"; preset=$2; shift 2 ;;
    --preset=*) preset=${1#--preset=}; shift ;;
    --deps-only) deps_only=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done

case "$preset" in
  openmp | debug) kokkos_flavour=openmp ;;
  cuda) kokkos_flavour=cuda ;;
  *) die "unknown preset '$preset'; allowed: openmp, cuda, debug" ;;
esac

jobs=$(nproc 2>/dev/null || echo 2)

# --------------------------------------------------------------------------------------------
# 1. Debian packages
# --------------------------------------------------------------------------------------------
# libopenblas0-openmp: OpenBLAS, on the OpenMP threads that Kokkos uses, in place of the
# reference BLAS and LAPACK (Debian's alternatives for libblas.so.3 and liblapack.so.3, so the
# build is the same): a host SCF's dgemm and dsyevd at 1,536 functions took 5.1 and 8.4 s on two
# cores with the reference libraries, each one call that a signal could not interrupt.
debian_packages=(
  cmake ninja-build g++ make patch git ca-certificates
  libopenmpi-dev openmpi-bin libyaml-cpp-dev liblapack-dev libblas-dev libopenblas0-openmp
  libgtest-dev python3 python3-matplotlib python3-yaml bsdutils ccache clang-format
)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "need root to run: $*"
  fi
}

install_debian_packages() {
  command -v dpkg-query >/dev/null 2>&1 || {
    say "no dpkg here; assuming the build tools are installed: ${debian_packages[*]}"
    return
  }
  local missing=() p
  for p in "${debian_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  say "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

find_nvcc() {
  if command -v nvcc >/dev/null 2>&1; then
    command -v nvcc
  elif [ -x /usr/local/cuda/bin/nvcc ]; then
    echo /usr/local/cuda/bin/nvcc
  fi
}

install_debian_packages

if [ "$kokkos_flavour" = cuda ]; then
  nvcc_path=$(find_nvcc)
  [ -n "$nvcc_path" ] || die "the cuda preset needs the CUDA toolkit (nvcc); install it (CUDA 13) or put nvcc on PATH"
  export PATH="$(dirname "$nvcc_path"):$PATH"
fi

# --------------------------------------------------------------------------------------------
# 2. Kokkos
# --------------------------------------------------------------------------------------------
kokkos_version=3.4.01
trilinos_upstream=13.2.0
src_dir=$root/deps/src
prefix=$root/deps/$kokkos_flavour
cache_dir=${KMINI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kmini}

patch_digest() {
  cat "$root"/cmake/patches/*.patch | sha256sum | cut -c1-16
}

# Writes deb-src entries mirroring this machine's deb entries into the folder $1.
derive_deb_src_entries() {
  local out=$1 f n=0
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822: "Types: deb" -> "Types: deb-src"; stanzas already listing deb-src stay as they are.
    sed -E 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb-src/' "$f" >"$out/$(basename "$f")"
    n=$((n + 1))
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -nE 's/^[[:space:]]*deb[[:space:]]+/deb-src /p' "$f" >"$out/kmini-$(basename "$f").list"
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || die "found no apt sources in /etc/apt to derive a deb-src entry from"
}

fetch_tmp=""
trap '[ -z "$fetch_tmp" ] || rm -rf "$fetch_tmp"' EXIT

fetch_kokkos_sources() {
  fetch_tmp=$(mktemp -d)
  local tmp=$fetch_tmp
  mkdir -p "$tmp/get"
  private_apt_init "$tmp"
  derive_deb_src_entries "$tmp/parts"
  say "fetching the trilinos $trilinos_upstream source package index (private apt lists)"
  # Entries of third-party repositories may have no sources; what matters is finding trilinos.
  apt-get "${private_apt_opts[@]}" update -qq >"$tmp/update.log" 2>&1 || true
  local version
  version=$(apt-cache "${private_apt_opts[@]}" showsrc trilinos 2>/dev/null |
    sed -n 's/^Version: //p' | grep "^$trilinos_upstream" | head -n1 || true)
  if [ -z "$version" ]; then
    cat "$tmp/update.log" >&2
    die "Debian's trilinos $trilinos_upstream source package is not reachable from this machine's apt sources.
  Install Kokkos >= 3.4 yourself and run: Kokkos_ROOT=/its/prefix scripts/setup.sh"
  fi
  say "downloading trilinos $version (source)"
  # Debian 13 serves trilinos' orig and debian tarballs but not its .dsc (404), which a plain
  # `apt-get source` needs; the orig tarball, all that is used here, comes with --tar-only.
  if ! (cd "$tmp/get" && apt-get "${private_apt_opts[@]}" source --download-only -qq "trilinos=$version") \
    >"$tmp/source.log" 2>&1; then
    say "apt-get source trilinos=$version failed ($(grep -m1 -E '^(E|Err):' "$tmp/source.log" || tail -n1 "$tmp/source.log")); trying --tar-only"
    (cd "$tmp/get" && apt-get "${private_apt_opts[@]}" source --download-only --tar-only -qq "trilinos=$version") \
      >>"$tmp/source.log" 2>&1 || { cat "$tmp/source.log" >&2; die "apt-get source trilinos=$version failed"; }
  fi
  local tarball
  tarball=$(ls "$tmp"/get/trilinos_"$trilinos_upstream".orig.tar.* 2>/dev/null | head -n1)
  [ -n "$tarball" ] || die "the trilinos source package has no orig tarball"
  say "extracting packages/kokkos"
  rm -rf "$src_dir" && mkdir -p "$src_dir"
  tar -xf "$tarball" -C "$tmp/get" --wildcards '*/packages/kokkos/*'
  mv "$tmp"/get/*/packages/kokkos "$src_dir/kokkos"
  local p
  for p in "$root"/cmake/patches/*.patch; do
    say "patching Kokkos: $(basename "$p")"
    patch -p1 -s -d "$src_dir/kokkos" <"$p" || die "patch $(basename "$p") does not apply"
  done
  grep -q "Kokkos_VERSION_MINOR 4" "$src_dir/kokkos/CMakeLists.txt" ||
    die "the trilinos source does not hold Kokkos $kokkos_version"
  patch_digest >"$src_dir/.patched"
}

kokkos_cmake_flags() {
  local flags=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
    -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON)
  if [ "$kokkos_flavour" = cuda ]; then
    flags+=(-DCMAKE_CXX_COMPILER="$src_dir/kokkos/bin/nvcc_wrapper" -DKokkos_ENABLE_CUDA=ON
      -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_HOPPER90=ON)
  fi
  printf '%s\n' "${flags[@]}"
}

# The compilers a Kokkos install was built with: part of its key in the machine's cache.
compiler_versions() {
  g++ --version | head -n1
  [ "$kokkos_flavour" != cuda ] || nvcc --version | tail -n1
}

build_kokkos() {
  local stamp_text
  stamp_text="kokkos $kokkos_version patches $(patch_digest) flags $(kokkos_cmake_flags | tr '\n' ' ')"
  local stamp=""
  [ ! -f "$prefix/.kmini-stamp" ] || stamp=$(cat "$prefix/.kmini-stamp")
  # Installs from before Kokkos Kernels was dropped list its flags after Kokkos' own: the same
  # Kokkos, kept (the Kokkos Kernels beside it is unused).
  case "$stamp" in
    "$stamp_text" | "$stamp_text -DCMAKE_BUILD_TYPE=Release -DKokkosKernels_"*) return ;;
  esac
  # The install paths inside Kokkos' CMake files are relative to the prefix, and its
  # nvcc_wrapper names no folder of its own, so a copy serves wherever it lands.
  # The stamp names this checkout's folder (the cuda flavour's compiler is its nvcc_wrapper); the
  # cache's key does not, so that a clone elsewhere finds the same install.
  local key cached
  key=$({ echo "${stamp_text//"$root"/<checkout>}"; compiler_versions; } | sha256sum | cut -c1-16)
  cached=$cache_dir/kokkos/$kokkos_flavour-$key
  if [ -f "$cached/.kmini-key" ] && [ "$(cat "$cached/.kmini-key")" = "$key" ]; then
    say "copying Kokkos $kokkos_version ($kokkos_flavour) from $cached"
    rm -rf "$prefix" && mkdir -p "$(dirname "$prefix")" && cp -a "$cached" "$prefix"
    echo "$stamp_text" >"$prefix/.kmini-stamp"
    return
  fi
  if [ ! -f "$src_dir/.patched" ] || [ "$(cat "$src_dir/.patched")" != "$(patch_digest)" ]; then
    fetch_kokkos_sources
  fi
  local work=$root/deps/build-$kokkos_flavour
  rm -rf "$work" "$prefix"
  local -a kflags
  mapfile -t kflags < <(kokkos_cmake_flags)
  say "building Kokkos $kokkos_version ($kokkos_flavour) into deps/$kokkos_flavour"
  cmake -S "$src_dir/kokkos" -B "$work/kokkos" -G Ninja -DCMAKE_INSTALL_PREFIX="$prefix" \
    "${kflags[@]}" >"$work.kokkos.log" 2>&1 || { tail -n 40 "$work.kokkos.log" >&2; die "Kokkos configure failed (log: $work.kokkos.log)"; }
  cmake --build "$work/kokkos" -j "$jobs" >>"$work.kokkos.log" 2>&1 &&
    cmake --install "$work/kokkos" >>"$work.kokkos.log" 2>&1 ||
    { tail -n 40 "$work.kokkos.log" >&2; die "Kokkos build failed (log: $work.kokkos.log)"; }
  rm -rf "$work" "$work".*.log
  echo "$stamp_text" >"$prefix/.kmini-stamp"
  # Kept for the next checkout; a cache that cannot be written only costs that one a build.
  if mkdir -p "$cache_dir/kokkos" 2>/dev/null && rm -rf "$cached.tmp" && cp -a "$prefix" "$cached.tmp" 2>/dev/null; then
    echo "$key" >"$cached.tmp/.kmini-key"
    rm -rf "$cached" && mv "$cached.tmp" "$cached"
  else
    rm -rf "$cached.tmp"
    say "could not keep Kokkos in $cache_dir/kokkos (not writable); carrying on"
  fi
}

kokkos_root_args=()
if [ -n "${Kokkos_ROOT:-}" ]; then
  ls "$Kokkos_ROOT"/lib*/cmake/Kokkos/KokkosConfig.cmake >/dev/null 2>&1 ||
    die "Kokkos_ROOT=$Kokkos_ROOT holds no lib*/cmake/Kokkos/KokkosConfig.cmake"
  say "using the Kokkos at Kokkos_ROOT=$Kokkos_ROOT"
  kokkos_root_args=(-DKokkos_ROOT="$Kokkos_ROOT")
  if [ "$kokkos_flavour" = cuda ] && [ -x "$Kokkos_ROOT/bin/nvcc_wrapper" ]; then
    kokkos_root_args+=(-DCMAKE_CXX_COMPILER="$Kokkos_ROOT/bin/nvcc_wrapper")
  fi
else
  build_kokkos
fi

[ "$deps_only" -eq 1 ] && exit 0

# --------------------------------------------------------------------------------------------
# 3. kmini
# --------------------------------------------------------------------------------------------
cd "$root"
configure_args=()
if [ "${KMINI_CCACHE:-on}" != off ] && command -v ccache >/dev/null 2>&1; then
  configure_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$root/scripts/lib/ccache_launcher.sh")
fi
# KMINI_WERROR=ON (CI sets it): a warning in kmini's own code fails the build.
[ -z "${KMINI_WERROR:-}" ] || configure_args+=(-DKMINI_WERROR="$KMINI_WERROR")
# Configured again when the presets changed since (their flags live in the cache).
if [ ! -f "build/$preset/build.ninja" ] || [ ${#kokkos_root_args[@]} -gt 0 ] ||
  [ CMakePresets.json -nt "build/$preset/CMakeCache.txt" ]; then
  say "configuring kmini (preset $preset${configure_args:+; ${configure_args[*]}})"
  cmake --preset "$preset" "${kokkos_root_args[@]}" "${configure_args[@]}" >/dev/null
fi
say "building kmini (preset $preset)"
cmake --build --preset "$preset" -j "$jobs"
say "kmini is at build/$preset/kmini"
