#!/usr/bin/env python3
"""The cuda preset's compiler launcher: nvcc only for the units that need it.

    nvcc_where_needed.py [LAUNCHER...] .../nvcc_wrapper ARGS...

The cuda preset compiles every unit through Kokkos' nvcc_wrapper, which runs nvcc's front end,
its device compiler and then the host compiler on each. Half of kmini's units (the core's input,
report and driver code, the tests that run kmini as a process) reach no Kokkos or CUDA header and
hold no device code: for those nvcc only doubles the time that the host compiler alone takes.
This launcher follows a unit's includes through the checkout's own files; where none reaches
Kokkos or CUDA and none holds device code, it adds nvcc_wrapper's --host-only, which compiles
with the host compiler and the same flags. Anything it cannot tell goes to nvcc as before.

The compile command may start with other launchers (ccache_launcher.sh): they run as given.
"""
import os
import re
import sys

# A header that only nvcc can compile in a CUDA build: Kokkos (its configuration enables CUDA),
# the CUDA toolkit's own, and the libraries on top of it.
DEVICE_HEADER = re.compile(r"^(Kokkos|KokkosCore|cuda|cub/|cublas|cusolver|cufft|curand|nccl|thrust/|"
                           r"nv/|cooperative_groups|mma\.h|sm_\d+)")
# Device code written in a file of the checkout itself.
DEVICE_CODE = re.compile(r"__global__|__device__|__CUDACC__|__CUDA_ARCH__|__shared__|KOKKOS_")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)


def compile_arguments(argv):
    """The source file and the -I/-isystem folders of a compile command (None: not a compile)."""
    source, folders, i = None, [], 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-I", "-isystem", "-iquote") and i + 1 < len(argv):
            folders.append(argv[i + 1])
            i += 2
            continue
        for flag in ("-I", "-isystem", "-iquote"):
            if arg.startswith(flag) and len(arg) > len(flag):
                folders.append(arg[len(flag):])
        if arg == "-c" and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            source = argv[i + 1]
        elif arg.endswith((".cpp", ".cc", ".cxx", ".cu")) and not arg.startswith("-"):
            source = arg
        i += 1
    return source, folders


def needs_nvcc(source, folders, checkout):
    """True unless every file the source reaches inside the checkout is plain host code."""
    seen, pending = set(), [os.path.abspath(source)]
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            return True
        if DEVICE_CODE.search(text):
            return True
        for kind, name in INCLUDE.findall(text):
            if DEVICE_HEADER.match(name):
                return True
            places = ([os.path.dirname(path)] if kind == '"' else []) + folders
            for folder in places:
                candidate = os.path.abspath(os.path.join(folder, name))
                if os.path.isfile(candidate):
                    # The checkout's own headers are followed; system and package headers
                    # (the standard library, yaml-cpp, MPI, GoogleTest) hold no device code.
                    if candidate.startswith(checkout):
                        pending.append(candidate)
                    break
    return False


def main(argv):
    compiler_at = next((i for i, a in enumerate(argv) if os.path.basename(a) == "nvcc_wrapper"), None)
    if compiler_at is None:
        print("nvcc_where_needed.py: no nvcc_wrapper in the command", file=sys.stderr)
        return 2
    command = argv[:]
    source, folders = compile_arguments(argv[compiler_at + 1:])
    checkout = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep
    # nvcc_wrapper's --host-only command keeps a definition's escaped quotes as backslashes: a
    # unit given a string that way stays with nvcc.
    quoted_definition = any(a.startswith("-D") and '"' in a for a in argv[compiler_at + 1:])
    if source is not None and not quoted_definition and not needs_nvcc(source, folders, checkout):
        command.append("--host-only")
    os.execvp(command[0], command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
