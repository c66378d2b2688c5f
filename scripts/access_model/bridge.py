"""The bridge generators' global accesses, from their index arithmetic.

Each function below mirrors a piece of C++ and says which; change them together.

Which lane builds which path: every generator gives thread t the paths t*lanes .. t*lanes +
lanes-1 (PathGenerator::operator() in src/bridge/generators.hpp, both overloads; lanes is 1, or
16 bytes' worth for the Pack value types of shared_vector and fused_vector). Kokkos 3.4 on CUDA
puts a RangePolicy's index in threadIdx.y with blockDim.x = 1, and a TeamPolicy's team_rank in
threadIdx.y with a vector length of 1, so in both cases lane L of warp w is thread 32 w + L.

Which addresses a lane touches: step k reads the normals of its point and writes the point, at
PathLayout::index(path, step, c) (src/bridge/path_layout.hpp):
    time_major: (step * dim + c) * paths + path    -> a warp reads 32 neighbouring elements
    path_major: (path * steps + step) * dim + c    -> lanes steps * dim elements apart
Besides those, every lane of a warp reads the same step table entry and coefficients (uniform
loads: one sector each), which is why a kernel's average sectors/request sits below the strided
access's own.
"""
import re
from dataclasses import dataclass, replace

from .coalescing import WARP, Tally, WarpAccess, ideal_sectors, uniform_access

# The defaults of `kmini list bridge` (seed 004's problem), for pictures drawn without a report.
DEFAULT_PATHS = 1439744
DEFAULT_STEPS = 64
# The value type of the vector generators, Pack<T, Lanes>.
PACK = re.compile(r"Pack<\w+, (\d+)>")
# Warps sampled along the paths: addresses repeat with the warp unless paths * element size is
# not a multiple of 32 bytes, which a few warps show as well as all of them.
SAMPLED_WARPS = 8


@dataclass
class BridgeConfig:
    """What decides a generator's addresses."""
    element: int = 4  # sizeof(T)
    lanes: int = 1  # paths per thread: 1, or 16 / sizeof(T) for the Pack value types
    dim: int = 1
    steps: int = DEFAULT_STEPS
    paths: int = DEFAULT_PATHS  # this rank's paths
    time_major: bool = True
    prefetch: bool = False  # the prefetching generators read the step table twice per step
    increments: bool = False  # output: increments reads a scale per written value

    @property
    def width(self):
        """Bytes a lane moves per normal or output access: one T, or one Pack."""
        return self.element * self.lanes

    def label(self):
        """The layout: what tells a sweep's configurations apart."""
        return "time_major" if self.time_major else "path_major"


def layout_index(config, path, step, c):
    """PathLayout::index (src/bridge/path_layout.hpp)."""
    if config.time_major:
        return (step * config.dim + c) * config.paths + path
    return (path * config.steps + step) * config.dim + c


def lane_paths(config, warp):
    """The first path of each lane of warp `warp`, None past the last path: thread t builds
    paths t*lanes.. (PathGenerator::operator(), src/bridge/generators.hpp)."""
    first = []
    for lane in range(WARP):
        path = (warp * WARP + lane) * config.lanes
        first.append(path if path < config.paths else None)
    return first


def normal_access(config, warp, step, c, kind="ld", array="normals"):
    """One warp's load of the normals (or store of the output) of `step`, component c:
    load_value / store_value at layout.index(path, step, c) (PathGenerator::load_normal and
    PathGenerator::step, src/bridge/generators.hpp). Arrays start 128-byte aligned (Kokkos'
    allocation header), so addresses are offsets from the array's start."""
    addresses = [None if p is None else layout_index(config, p, step, c) * config.element
                 for p in lane_paths(config, warp)]
    return WarpAccess(f"{array}[index(path, step, c)]", kind, config.width, addresses)


def uniform_loads_per_step(config):
    """The warp-uniform loads of one generation step (PathGenerator::step and load_normal): the
    packed step word, then its coefficients (left, right, sigma: one 16-byte load for float, two
    for double, assuming the compiler uses the widest aligned loads), a second step word in the
    prefetching generators (the step k + Prefetch whose normal they load), and the increment's
    scale where the output is increments (on average one per step: each increment is written
    once). The compiler may merge or split these; the model's prediction then drifts."""
    loads = [uniform_access("steps(k)", 8)]
    coefficient_bytes = 3 * config.element
    loads += [uniform_access("coefficients(k)", 16)] * -(-coefficient_bytes // 16)
    if config.prefetch:
        loads.append(uniform_access("steps(k + Prefetch)", 8))
    if config.increments:
        loads.append(uniform_access("increment_scales(k, ...)", config.element))
    return loads


def prologue_loads(config):
    """What a thread reads once before its first step: x0 (d values) and the factor C (d x d)
    (PathGenerator::generate)."""
    return [uniform_access("x0(c) / factor(c, j)", config.element)] * (config.dim + config.dim ** 2)


def sampled_warps(config):
    """Up to SAMPLED_WARPS warps spread over the paths, the last (perhaps partial) one included."""
    warps = -(-config.paths // (WARP * config.lanes))
    if warps <= SAMPLED_WARPS:
        return list(range(warps))
    return sorted({w * (warps - 1) // (SAMPLED_WARPS - 1) for w in range(SAMPLED_WARPS)})


def kernel_tally(config):
    """Sectors and requests of a generator's whole run over the sampled warps: per thread the
    prologue, then per step and component one normal load and one output store (for paths; for
    increments the same count of stores), plus the step's uniform loads. The construction order
    only permutes the steps, so every step index is visited once."""
    tally = Tally()
    for warp in sampled_warps(config):
        for access in prologue_loads(config):
            tally.add(access)
        for step in range(config.steps):
            for access in uniform_loads_per_step(config):
                tally.add(access)
            for c in range(config.dim):
                tally.add(normal_access(config, warp, step, c))
                tally.add(normal_access(config, warp, step, c, "st", "output"))
    return tally


def showcase(config):
    """The access the picture draws, with its ideal sector count: a middle sampled warp's load
    of the normals of step 1, component 0."""
    warps = sampled_warps(config)
    access = normal_access(config, warps[len(warps) // 2], 1, 0)
    return access, ideal_sectors(config.width)


def config_from_kernel(functor, args, base):
    """A BridgeConfig for the kernel PathGenerator<T, Space, MaxDim, Prefetch, Fused, V> whose
    template arguments (GPU space left out) are `args`, the rest taken from `base`; None for
    another functor."""
    if functor != "PathGenerator" or len(args) < 5:
        return None
    pack = PACK.match(args[4])
    lanes = int(pack.group(1)) if pack else 1
    if lanes > 1 and not base.time_major:
        return None  # the vector generators run in time_major only
    return BridgeConfig(element=8 if args[0] == "double" else 4, lanes=lanes,
                        dim=1 if args[1] == "1" else base.dim, steps=base.steps,
                        paths=base.paths, time_major=base.time_major, prefetch=args[2] != "0",
                        increments=base.increments)


def configs_from_input(run_input, ranks=1):
    """One BridgeConfig per layout a kmini report's bridge run input lists (sweeps are lists),
    with its paths shared among `ranks` ranks. The precision is the kernel's to say."""
    def first(value):
        return value[0] if isinstance(value, list) else value

    def listed(value):
        return value if isinstance(value, list) else [value]

    times = run_input.get("times")
    steps = len(times) if times else int(first(run_input.get("steps", DEFAULT_STEPS)))
    paths = -(-int(first(run_input.get("paths", DEFAULT_PATHS))) // max(1, ranks))
    element = 8 if first(run_input.get("precision", "float")) == "double" else 4
    increments = first(run_input.get("output", "paths")) == "increments"
    return [BridgeConfig(element=element, dim=int(run_input.get("dimension", 1)), steps=steps,
                         paths=paths, time_major=layout == "time_major", increments=increments)
            for layout in listed(run_input.get("layout", "time_major"))]


def hint(config):
    """What to change when this generator's accesses are strided."""
    if config.time_major:
        return ""
    return ("bridge: layout: time_major stores consecutive paths, which consecutive lanes "
            "build, next to each other (PathLayout::index).")


def panels(config):
    """The picture's heading and panels: the same load under time_major and path_major."""
    panels_ = []
    for time_major in (True, False):
        layout = replace(config, time_major=time_major)
        access, ideal = showcase(layout)
        stride = access.addresses[1] - access.addresses[0]
        formula = ("(step*dim + c)*paths + path" if time_major else "(path*steps + step)*dim + c")
        paths = "path p0 + L" if config.lanes == 1 else f"paths p0 + {config.lanes}L.."
        note = (f"lane L builds {paths} (thread 32w + L: Kokkos 3.4\n"
                f"puts the index in threadIdx.y); normals[{formula}]:\n"
                f"lanes {stride} bytes apart")
        panels_.append((access, ideal, f"layout: {layout.label()}", note))
    precision = "double" if config.element == 8 else "float"
    heading = (f"bridge: one warp's load of the normals of one step ({precision}, "
               f"{config.paths} paths x {config.steps} steps, dimension {config.dim})")
    return heading, panels_
