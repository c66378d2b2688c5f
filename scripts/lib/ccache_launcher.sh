#!/bin/sh
# The compiler launcher (CMAKE_CXX_COMPILER_LAUNCHER) that scripts/setup.sh gives kmini's builds
# when ccache is installed: the cache lives outside the checkout (ccache's own folder,
# ~/.cache/ccache unless CCACHE_DIR says otherwise), so a later build on the same machine, in this
# checkout or in a fresh clone elsewhere, compiles only what changed.
#
# Paths under the checkout are hashed relative to it (CCACHE_BASEDIR), and so is the build
# folder of a -g build (CCACHE_NOHASHDIR): a clone at another path hits the same entries. The
# compiler is known by what it runs (compiler_identity.sh), not by its file's time: the cuda
# preset's compiler is Kokkos' nvcc_wrapper, a script behind which nvcc and g++ can change.
# A user's own CCACHE_* settings win.
lib=$(cd "$(dirname "$0")" && pwd)
: "${CCACHE_BASEDIR:=$(cd "$lib/../.." && pwd)}"
: "${CCACHE_NOHASHDIR:=true}"
: "${CCACHE_COMPILERCHECK:=$lib/compiler_identity.sh %compiler%}"
export CCACHE_BASEDIR CCACHE_NOHASHDIR CCACHE_COMPILERCHECK
exec ccache "$@"
