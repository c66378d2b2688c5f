"""Kokkos kernel names as Nsight Compute prints them, made readable and taken apart.

Demangled (`--print-kernel-base demangled`), every Kokkos 3.4 CUDA kernel is one of a few launch
templates wrapping the functor that does the work, e.g.

    void Kokkos::Impl::cuda_parallel_launch_local_memory<Kokkos::Impl::ParallelFor<
        kmini::bridge::PathGenerator<float, Kokkos::Cuda, 1, 0, false, float>,
        Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<long>>, Kokkos::Cuda>>(T1)

of which only the pattern and the functor matter to a reader:
`ParallelFor<bridge::PathGenerator<float, 1, 0, false, float>>`. Names are parsed into a tree of
template arguments (Node) rather than cut with regular expressions, because functor arguments
nest (Pack<float, 4>, MDRange's Rank<3u, (Kokkos::Iterate)0, ...>, lambdas' parameter lists).
"""
import re
from dataclasses import dataclass

OPEN, CLOSE = "<([", ">)]"
# The launch templates (local, constant or global memory for the functor) and the patterns.
LAUNCH = re.compile(r"(^|::)cuda_parallel_launch_\w+_memory$")
PATTERNS = ("ParallelFor", "ParallelReduce", "ParallelScan", "ParallelScanWithTotal")
# Template arguments that say only "on the GPU".
SPACES = {"Cuda", "CudaSpace", "CudaUVMSpace", "CudaHostPinnedSpace"}
LAMBDA = re.compile(r"::\[lambda\(.*\) \(instance (\d+)\)\]$")
# Kokkos' own start-up kernels: nothing of kmini's in them.
KOKKOS_INTERNAL = re.compile(r"init_lock_array|query_cuda_kernel_arch")
# An integer template argument as a demangler may print it: '4', '4u', '(int)4' (an enum's
# '(Method)1' stays).
INTEGER = re.compile(r"(?:\((?:unsigned )?(?:char|short|int|long|long long)\))?(-?\d+)[uUlL]*")
# Short names longer than this lose their inner template arguments.
MAX_WIDTH = 80


@dataclass
class Node:
    """`head<args...>tail`: a (possibly qualified) name, its template arguments (None when it has
    no '<...>'), and what follows the arguments (a function's parameters, '::[lambda...]')."""
    head: str
    args: list = None
    tail: str = ""

    def last(self):
        """The head without its namespaces."""
        return self.head.rsplit("::", 1)[-1]


def split_top(text, separator=","):
    """text split at `separator` where no bracket is open."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in OPEN:
            depth += 1
        elif ch in CLOSE:
            depth -= 1
        elif ch == separator and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def matching(text, start):
    """The index of the bracket closing the one at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in OPEN:
            depth += 1
        elif text[i] in CLOSE:
            depth -= 1
            if depth == 0:
                return i
    return len(text) - 1


def parse(text):
    """The Node tree of a demangled type or function name."""
    text = text.strip()
    # The first '<' outside parentheses opens the template arguments; '(Kokkos::Iterate)0' and
    # a lambda's '(long)' hold none.
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "<" and depth == 0:
            end = matching(text, i)
            return Node(text[:i].strip(), [parse(a) for a in split_top(text[i + 1:end])],
                        text[end + 1:].strip())
    return Node(text)


def strip_signature(name):
    """The name without its return type and parameters: 'void f<...>(T1)' -> 'f<...>'."""
    name = name.strip()
    if name.startswith("void "):
        name = name[5:]
    if name.endswith(")"):
        depth = 0
        for i in range(len(name) - 1, -1, -1):
            if name[i] in CLOSE:
                depth += 1
            elif name[i] in OPEN:
                depth -= 1
                if depth == 0:
                    # Only a parameter list at the outermost level, not a lambda's inside '<>'.
                    if name[:i].count("<") == name[:i].count(">"):
                        name = name[:i]
                    break
    return name.strip()


def unqualified(head):
    """A head without namespaces: 'const ns::T' -> 'const T', '(ns::E)0' -> '(E)0'."""
    if head.startswith("(") and ")" in head:
        inner, rest = head[1:].split(")", 1)
        return f"({inner.rsplit('::', 1)[-1]}){rest}"
    return " ".join(word.rsplit("::", 1)[-1] for word in head.split(" "))


def functor_head(head):
    """The functor's own name, kmini:: (or Kokkos::Impl::) dropped: 'kmini::himeno::SharedSweep'
    -> 'himeno::SharedSweep'; a function's return type dropped too."""
    if " " in head and "::" in head.rsplit(" ", 1)[-1]:
        head = head.rsplit(" ", 1)[-1]
    for prefix in ("kmini::", "Kokkos::Impl::"):
        if head.startswith(prefix):
            return head[len(prefix):]
    return head


def render_args(args, depth, elide_from):
    """Template arguments as text, GPU-space arguments left out, those deeper than elide_from
    as '...'."""
    kept = [a for a in args if unqualified(a.head) not in SPACES]
    if not kept:
        return ""
    if depth >= elide_from:
        return "<...>"
    return "<" + ", ".join(render(a, depth + 1, elide_from) for a in kept) + ">"


def lambda_name(node, depth, elide_from):
    """'lambda#N in f<args>' for a lambda's closure type, as nvcc names it either way."""
    match = LAMBDA.search(node.tail)
    if match:
        args = render_args(node.args, depth, elide_from) if node.args else ""
        return f"lambda#{match.group(1)} in {functor_head(node.head)}{args}"
    if node.last() in ("__nv_hdl_wrapper_t", "__nv_dl_wrapper_t") and node.args:
        for arg in node.args:
            if arg.last() == "__nv_dl_tag" and arg.args and len(arg.args) >= 3:
                owner = arg.args[1]  # &the enclosing function<its template arguments>
                args = render_args(owner.args, depth, elide_from) if owner.args else ""
                number = arg.args[2].head.rstrip("u")
                return f"lambda#{number} in {functor_head(owner.head.lstrip('&'))}{args}"
    return None


def render(node, depth, elide_from):
    """A node as short text: the top level keeps its namespace (minus kmini::), deeper levels
    keep only the last name component, integers bare ('3u', '(int)3' -> '3')."""
    named_lambda = lambda_name(node, depth, elide_from)
    if named_lambda:
        return named_lambda
    head = functor_head(node.head) if depth == 0 else unqualified(node.head)
    if node.args is None:
        integer = INTEGER.fullmatch(head)
        return integer.group(1) if integer else head
    return head + render_args(node.args, depth, elide_from)


@dataclass
class KernelName:
    """A kernel's demangled name, taken apart."""
    full: str
    pattern: str = ""  # ParallelFor, ParallelReduce, ... or "" for a kernel of another kind
    functor: Node = None  # the functor (or the whole kernel when it is not a Kokkos pattern)
    policy: str = ""  # RangePolicy, MDRangePolicy, TeamPolicy
    short: str = ""


def unwrap(node):
    """The pattern node inside a launch template, and the functor inside the pattern (Kokkos 4
    wraps reducing functors in CombinedFunctorReducer)."""
    if LAUNCH.search(node.head) and node.args:
        node = node.args[0]
    if node.last() in PATTERNS and node.args:
        functor = node.args[0]
        if functor.last() == "CombinedFunctorReducer" and functor.args:
            functor = functor.args[0]
        policy = node.args[1].last() if len(node.args) > 1 else ""
        if policy == "TeamPolicyInternal":
            policy = "TeamPolicy"
        return node.last(), functor, policy
    return "", node, ""


def kernel_name(full):
    """The KernelName of a demangled kernel name, with a short form of at most MAX_WIDTH
    characters where eliding inner template arguments gets there."""
    pattern, functor, policy = unwrap(parse(strip_signature(full)))
    name = KernelName(full, pattern, functor, policy)
    for elide_from in (99, 2, 1):
        body = render(functor, 0, elide_from)
        name.short = f"{pattern}<{body}>" if pattern else body
        if len(name.short) <= MAX_WIDTH:
            break
    return name


def is_kokkos_internal(full):
    """Whether a kernel is one of Kokkos' own start-up kernels."""
    return bool(KOKKOS_INTERNAL.search(full))


def template_args(node):
    """A functor's template arguments as plain strings, GPU spaces left out, for the models to
    read their parameters from."""
    return [render(arg, 1, 99) for arg in node.args or [] if unqualified(arg.head) not in SPACES]
