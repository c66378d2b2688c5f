#!/bin/sh
# A compiler launcher (CMAKE_CXX_COMPILER_LAUNCHER) for builds that only check that the code
# compiles: it runs the compile command it is given with -fsyntax-only, which still parses
# and instantiates every template but generates no code (a sixth of an -O3 compile's time),
# and then leaves an empty file where the object was to go, so that ninja can tell it ran.
# Only object files can be built this way: archives and executables of them cannot link.
out=
prev=
for arg in "$@"; do
  [ "$prev" = "-o" ] && out=$arg
  prev=$arg
done
# Through the compiler cache when setup.sh would use one (ccache_launcher.sh): a unit whose
# sources did not change is not checked again.
if [ "${KMINI_CCACHE:-on}" != off ] && command -v ccache >/dev/null 2>&1; then
  set -- "$(dirname "$0")/ccache_launcher.sh" "$@"
fi
"$@" -fsyntax-only || exit
[ -z "$out" ] || : >"$out"
