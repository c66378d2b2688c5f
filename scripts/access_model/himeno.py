"""The Himeno sweeps' global accesses, from their index arithmetic.

Each function below mirrors a piece of C++ and says which; change them together. The arrays are
LayoutRight Views (src/himeno/fields.hpp): p and wrk2 are (i, j, k) over a rank's local extents,
coef is (c, i, j, k), k contiguous; every array starts 128-byte aligned (Kokkos' allocation
header), so addresses are offsets from the array's start.

Which lane computes which point:
  - MDRangeSweep (MDRangePolicy<Rank<3>> with tile [ti, tj, tk]): Kokkos 3.4 on CUDA numbers the
    threads of a tile with i fastest, then j, then k: ParallelFor makes the tile the block
    (threadIdx.x along i, .y along j, .z along k) and ParallelReduce takes threadIdx.y apart the
    same way (Iterate::Left, CUDA's default; DeviceIterateTile in
    core/src/impl/KokkosExp_IterateTileGPU.hpp). Lane L of warp w has thread 32 w + L.
  - MarchingSweep and SharedSweep (TeamPolicy, team of tj x tk threads, team_rank in
    threadIdx.y): thread r computes column r of the (j, k) tile, j = j0 + 1 + r / tk and
    k = k0 + 1 + r % tk (src/himeno/sweeps.hpp), so a warp runs along k when tk >= 32.
"""
from dataclasses import dataclass, replace

from .coalescing import WARP, Tally, WarpAccess, ideal_sectors

# The original's array dimensions (MIMAX, MJMAX, MKMAX) per size (named_sizes in
# src/himeno/grid.cpp).
SIZES = {"XS": (33, 33, 65), "S": (65, 65, 129), "M": (129, 129, 257), "L": (257, 257, 513),
         "XL": (513, 513, 1025)}
COEFFICIENTS = 12  # kCoefficients, src/himeno/initial_state.hpp
# The stencil's p offsets (di, dj, dk) in residual() (src/himeno/stencil.hpp); (0, 0, 0) once,
# as the compiler keeps it for wrk2 = p + omega ss.
STENCIL = ((1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0), (1, -1, 0), (-1, 1, 0), (-1, -1, 0),
           (0, 1, 1), (0, -1, 1), (0, 1, -1), (0, -1, -1), (1, 0, 1), (-1, 0, 1), (1, 0, -1),
           (-1, 0, -1), (-1, 0, 0), (0, -1, 0), (0, 0, -1), (0, 0, 0))
# Tiles sampled per axis: the models' averages settle long before every tile is visited.
SAMPLES = {"i": 3, "j": 4, "k": 16}


@dataclass
class HimenoConfig:
    """What decides a sweep's addresses."""
    element: int = 4  # sizeof(T)
    dims: tuple = SIZES["M"]  # the array dimensions (MIMAX, MJMAX, MKMAX)
    sweep: str = "shared"  # mdrange, marching or shared
    mdrange_tile: tuple = (1, 4, 64)
    marching_block: tuple = (64, 4, 64)  # planes, tj, tk
    buffered: bool = False  # host_serial / host_openmp: every point's term is stored too

    def label(self):
        return self.sweep

    @property
    def local(self):
        """One rank's array extents: the interior (dims - 3 per axis, GlobalGrid::interior)
        and a layer each side (Decomposition::local_dims, src/himeno/grid.hpp)."""
        return tuple(d - 1 for d in self.dims)

    @property
    def interior(self):
        return tuple(d - 3 for d in self.dims)


def p_index(config, i, j, k):
    """p(i, j, k) and wrk2(i, j, k): LayoutRight over the local extents."""
    _, nj, nk = config.local
    return (i * nj + j) * nk + k


def coef_index(config, c, i, j, k):
    """coef(c, i, j, k): LayoutRight (kCoefficients, local extents)."""
    ni, nj, nk = config.local
    return ((c * ni + i) * nj + j) * nk + k


def terms_index(config, i, j, k):
    """BufferedGosa's terms(i - 1, j - 1, k - 1) over the interior (src/himeno/gosa.hpp)."""
    _, nj, nk = config.interior
    return ((i - 1) * nj + (j - 1)) * nk + (k - 1)


def access(config, label, kind, points, index):
    """One warp's access at index(point) for each lane's point (None: lane inactive)."""
    return WarpAccess(label, kind, config.element,
                      [None if q is None else index(*q) * config.element for q in points])


def spread(n, count):
    """Up to `count` indices spread evenly over range(n), first and last included."""
    if n <= count:
        return list(range(n))
    return sorted({m * (n - 1) // (count - 1) for m in range(count)})


def mdrange_points(config, tile_index, warp):
    """The (i, j, k) of each lane of warp `warp` in tile `tile_index`, None where the lane is
    past the tile or the domain (DeviceIterateTile, Iterate::Left)."""
    ti, tj, tk = config.mdrange_tile
    points = []
    for lane in range(WARP):
        f = warp * WARP + lane
        local = (f % ti, (f // ti) % tj, f // (ti * tj))
        point = tuple(1 + t * size + offset
                      for t, size, offset in zip(tile_index, config.mdrange_tile, local))
        inside = f < ti * tj * tk and all(q <= n for q, n in zip(point, config.interior))
        points.append(point if inside else None)
    return points


def team_points(config, tile_j, tile_k, warp, i):
    """The (i, j, k) of each lane of warp `warp` of the team sweeping (j, k) tile (tile_j,
    tile_k), at plane i (TeamTiling::tile and the column loop of MarchingSweep / SharedSweep).
    The team has tj x tk threads, each one column, as launch_teams (src/himeno/sweep_launch.hpp) asks
    on CUDA unless the kernel's registers allow fewer."""
    _, tj, tk = config.marching_block
    _, nj, nk = config.interior
    points = []
    for lane in range(WARP):
        column = warp * WARP + lane
        j, k = tile_j * tj + 1 + column // tk, tile_k * tk + 1 + column % tk
        inside = column < tj * tk and j <= nj and k <= nk
        points.append((i, j, k) if inside else None)
    return points


def shift(points, d):
    """Each lane's point moved by the stencil offset d."""
    return [None if q is None else (q[0] + d[0], q[1] + d[1], q[2] + d[2]) for q in points]


def p_load(config, points, d):
    """One warp's load of p at offset d from each lane's point."""
    return access(config, f"p(i{d[0]:+d}, j{d[1]:+d}, k{d[2]:+d})", "ld", shift(points, d),
                  lambda i, j, k: p_index(config, i, j, k))


def point_accesses(config, points, p_offsets):
    """A point update's accesses for one warp: the 12 coefficients, p at `p_offsets`, the store
    of wrk2, and BufferedGosa's store of the term."""
    accesses = [access(config, f"coef({c}, i, j, k)", "ld", points,
                       lambda i, j, k, c=c: coef_index(config, c, i, j, k))
                for c in range(COEFFICIENTS)]
    accesses += [p_load(config, points, d) for d in p_offsets]
    accesses.append(access(config, "wrk2(i, j, k)", "st", points,
                           lambda i, j, k: p_index(config, i, j, k)))
    if config.buffered:
        accesses.append(access(config, "terms(i-1, j-1, k-1)", "st", points,
                               lambda i, j, k: terms_index(config, i, j, k)))
    return accesses


def mdrange_tally(config):
    """MDRangeSweep: every point loads its 12 coefficients and p at all 19 stencil offsets
    (ArrayPoint, src/himeno/stencil.hpp) and stores wrk2."""
    tally = Tally()
    tiles = [-(-n // t) for n, t in zip(config.interior, config.mdrange_tile)]
    warps = -(-(config.mdrange_tile[0] * config.mdrange_tile[1] * config.mdrange_tile[2]) // WARP)
    for ti in spread(tiles[0], SAMPLES["i"]):
        for tj in spread(tiles[1], SAMPLES["j"]):
            for tk in spread(tiles[2], SAMPLES["k"]):
                for warp in range(warps):
                    points = mdrange_points(config, (ti, tj, tk), warp)
                    for a in point_accesses(config, points, STENCIL):
                        tally.add(a)
    return tally


def team_tiles(config):
    """The sampled (tile_j, tile_k) of the team sweeps, and the average planes a team marches
    through (the last run along i may be shorter)."""
    planes, tj, tk = config.marching_block
    ni, nj, nk = config.interior
    runs = -(-ni // planes)
    tiles = [(a, b) for a in spread(-(-nj // tj), SAMPLES["j"])
             for b in spread(-(-nk // tk), SAMPLES["k"])]
    return tiles, ni / runs


def marching_tally(config):
    """MarchingSweep: per team two prologue loads of p (below, here), then per plane p(i+1, j, k)
    (above), the 12 coefficients, p where dj or dk is not 0 (MarchingPoint keeps the column's
    three values in registers) and the store of wrk2."""
    tally = Tally()
    tiles, planes = team_tiles(config)
    neighbours = [d for d in STENCIL if d[1:] != (0, 0)] + [(1, 0, 0)]
    warps = -(-(config.marching_block[1] * config.marching_block[2]) // WARP)
    i = 1 + config.interior[0] // 2  # planes differ only in a constant offset
    for tile_j, tile_k in tiles:
        for warp in range(warps):
            points = team_points(config, tile_j, tile_k, warp, i)
            for d in ((-1, 0, 0), (0, 0, 0)):
                tally.add(p_load(config, points, d))
            for a in point_accesses(config, points, neighbours):
                tally.add(a, planes)
    return tally


def staging_access(config, tile_j, tile_k, warp, i, rounds):
    """SharedSweep's load(i), round `rounds` of its loop: thread r copies element
    e = r + rounds * team_size of the (tj + 2) x (tk + 2) tile of plane i, halo included."""
    _, tj, tk = config.marching_block
    _, nj, nk = config.interior
    wide, team = tk + 2, tj * tk
    addresses = []
    for lane in range(WARP):
        e = warp * WARP + lane + rounds * team
        j, k = tile_j * tj + e // wide, tile_k * tk + e % wide
        inside = e < (tj + 2) * wide and j <= nj + 1 and k <= nk + 1
        addresses.append(p_index(config, i, j, k) * config.element if inside else None)
    return WarpAccess("p(i, j0 + e / wide, k0 + e % wide)", "ld", config.element, addresses)


def shared_tally(config):
    """SharedSweep: per team planes + 2 loads of a p plane into team scratch (each in rounds of
    the team size), and per plane and point the 12 coefficients and the store of wrk2."""
    tally = Tally()
    tiles, planes = team_tiles(config)
    _, tj, tk = config.marching_block
    warps = -(-(tj * tk) // WARP)
    rounds = -(-((tj + 2) * (tk + 2)) // (tj * tk))
    i = 1 + config.interior[0] // 2
    for tile_j, tile_k in tiles:
        for warp in range(warps):
            for r in range(rounds):
                tally.add(staging_access(config, tile_j, tile_k, warp, i, r), planes + 2)
            points = team_points(config, tile_j, tile_k, warp, i)
            for a in point_accesses(config, points, []):
                tally.add(a, planes)
    return tally


def kernel_tally(config):
    """The sweep's sectors and requests over the sampled tiles."""
    return {"mdrange": mdrange_tally, "marching": marching_tally,
            "shared": shared_tally}[config.sweep](config)


def showcase(config):
    """The access the picture draws, with its ideal sector count: warp 0's load of the first
    coefficient, a0(i, j, k), in the second tile along j and k and a middle one along i
    (interior ones where the grid has several)."""
    i = 1 + config.interior[0] // 2
    if config.sweep == "mdrange":
        tiles = [-(-n // t) for n, t in zip(config.interior, config.mdrange_tile)]
        points = mdrange_points(config, ((tiles[0] - 1) // 2, min(1, tiles[1] - 1),
                                         min(1, tiles[2] - 1)), 0)
    else:
        _, tj, tk = config.marching_block
        tiles = (-(-config.interior[1] // tj), -(-config.interior[2] // tk))
        points = team_points(config, min(1, tiles[0] - 1), min(1, tiles[1] - 1), 0, i)
    a0 = access(config, "a0(i, j, k) = coef(0, i, j, k)", "ld", points,
                lambda i, j, k: coef_index(config, 0, i, j, k))
    return a0, ideal_sectors(config.element)


SWEEPS = {"MDRangeSweep": "mdrange", "MarchingSweep": "marching", "SharedSweep": "shared"}


def config_from_kernel(functor, args, base):
    """A HimenoConfig for the kernel <functor><T, Space, Sink> whose template arguments (GPU
    space left out) are `args`, the rest taken from `base`."""
    if functor not in SWEEPS or not args:
        return None
    return HimenoConfig(element=8 if args[0] == "double" else 4, dims=base.dims,
                        sweep=SWEEPS[functor], mdrange_tile=base.mdrange_tile,
                        marching_block=base.marching_block,
                        buffered=len(args) > 1 and args[1].startswith("BufferedGosa"))


def configs_from_input(run_input, ranks=1):
    """[A HimenoConfig] from a kmini report's himeno run input (sweeps are lists: the first value
    is taken; the precision and the sweep are the kernel's to say). Modelled for one rank, as
    profile.sh runs it: `ranks` is not used."""
    def first(value):
        return value[0] if isinstance(value, list) else value

    grid = run_input.get("grid")
    dims = tuple(int(d) for d in grid) if grid else SIZES.get(first(run_input.get("size", "M")),
                                                             SIZES["M"])
    return [HimenoConfig(element=8 if first(run_input.get("precision")) == "double" else 4,
                         dims=dims, sweep=first(run_input.get("sweep", "shared")),
                         mdrange_tile=tuple(run_input.get("mdrange_tile", (1, 4, 64))),
                         marching_block=tuple(run_input.get("marching_block", (64, 4, 64))))]


def hint(config):
    """What to change when this sweep's accesses are strided."""
    if config.sweep == "mdrange":
        ti, tj, _ = config.mdrange_tile
        return (f"himeno's mdrange sweep: Kokkos 3.4 numbers a tile's threads i fastest, then j, "
                f"so mdrange_tile {list(config.mdrange_tile)} spreads a warp over "
                f"{min(WARP, ti * tj)} (i, j) rows; a tile [1, 1, 64] runs it along k, as does "
                f"sweep: marching or shared.")
    tk = config.marching_block[2]
    if tk < WARP:
        return (f"himeno's team sweeps: marching_block {list(config.marching_block)} gives a "
                f"warp {WARP // tk} rows of {tk} points; a tk of 32 or more runs it along k.")
    return ""


def panels(config):
    """The picture's heading and panels: the same load in the team sweeps (marching, shared)
    and in the mdrange sweep, with the input's block and tile."""
    planes, tj, tk = config.marching_block
    ti, mj, mk = config.mdrange_tile
    notes = {
        "team": (f"lane L -> column L of the {tj} x {tk} team:\n"
                 f"j = j0+1 + L/{tk}, k = k0+1 + L%{tk}\n"
                 f"coef(0, i, j, k): k contiguous"),
        "mdrange": (f"lane L -> thread L of the {ti} x {mj} x {mk} tile, i fastest:\n"
                    f"i = i0 + L%{ti}, j = j0 + (L/{ti})%{mj}, k = k0 + L/{ti * mj}\n"
                    f"coef(0, i, j, k): k contiguous"),
    }
    panels_ = []
    for sweep, name, note in (("marching", f"marching / shared, marching_block "
                               f"{[planes, tj, tk]}", notes["team"]),
                              ("mdrange", f"mdrange, mdrange_tile {[ti, mj, mk]}",
                               notes["mdrange"])):
        access, ideal = showcase(replace(config, sweep=sweep))
        panels_.append((access, ideal, name, note))
    precision = "double" if config.element == 8 else "float"
    ni, nj, nk = config.local
    heading = (f"himeno: one warp's load of a0(i, j, k) ({precision}, arrays {ni} x {nj} x {nk}, "
               f"one rank)")
    return heading, panels_
