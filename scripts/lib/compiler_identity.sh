#!/bin/sh
# compiler_identity.sh COMPILER: what ccache hashes as the compiler's identity (its
# compiler_check command, set by ccache_launcher.sh): the compiler file's contents, its version
# and, for Kokkos' nvcc_wrapper, the version of the host compiler that nvcc runs.
compiler=$1
sha256sum <"$(command -v "$compiler")" || exit
"$compiler" --version || exit
case "$(basename "$compiler")" in
  nvcc_wrapper) "$compiler" --host-version ;;
esac
