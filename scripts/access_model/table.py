"""The per-kernel table: ncu's launches grouped by kernel, the models' predictions beside them,
and a line of advice where a number is far from what the hardware can do."""
from dataclasses import dataclass

from . import bridge, himeno
from .coalescing import ideal_sectors
from .kernel_names import LAUNCH, is_kokkos_internal, kernel_name, template_args

# A kernel is flagged when its sectors/request exceed this multiple of the ideal.
FLAG_RATIO = 2.0
# ... when its local-memory sectors exceed this fraction of its global ones.
LOCAL_FRACTION = 0.01
# ... when its achieved occupancy (% of the SM's warp slots) is below this.
LOW_OCCUPANCY = 25.0
# A model whose prediction is further than this (relative) from ncu's measurement is reported.
MODEL_TOLERANCE = 0.25

LD_SECTORS, LD_REQUESTS = ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")
ST_SECTORS, ST_REQUESTS = ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")
LOCAL = ("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
         "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum")


@dataclass
class Prediction:
    """A model's sectors/request for loads and stores, under the configuration `label` names
    (a layout, where the run sweeps it; "" otherwise)."""
    label: str
    ld: float
    st: float
    hint: str  # what to change where the access is strided


# The apps with an index model, by the name kmini's report gives them.
MODELS = {"bridge": bridge, "himeno": himeno}


def configs_from_report(report):
    """Per app with a model, the configurations its first run in kmini's report lists (a bridge
    run sweeping the layout has one per layout); {} without a report."""
    configs = {}
    ranks = (((report or {}).get("meta") or {}).get("mpi") or {}).get("ranks", 1) or 1
    for run in (report or {}).get("runs") or []:
        app = run.get("app")
        if app in MODELS and app not in configs:
            configs[app] = MODELS[app].configs_from_input(run.get("input") or {}, ranks)
    return configs


def predictions(name, configs):
    """The models' predictions for the kernel `name` (a KernelName), [] where no model covers it
    or the report did not run its app."""
    head, args = name.functor.last(), template_args(name.functor)
    found = []
    for app, model in MODELS.items():
        listed = configs.get(app, [])
        for base in listed:
            config = model.config_from_kernel(head, args, base)
            if config:
                tally = model.kernel_tally(config)
                found.append(Prediction(config.label() if len(listed) > 1 else "",
                                        tally.per_request("ld"), tally.per_request("st"),
                                        model.hint(config)))
    return found


def lane_bytes(name):
    """Bytes per lane of the kernel's main accesses, read from its template arguments: a Pack's
    16, 8 for double, else 4 (assumed where the name says nothing)."""
    args = template_args(name.functor)
    if any(a.startswith("Pack<") for a in args):
        return 16
    return 8 if "double" in args else 4


class KernelStats:
    """One kernel's launches and the table's numbers for them."""

    def __init__(self, name, launches):
        self.name = name
        self.launches = launches
        self.predictions = []
        self.advice = []

    def values(self, metric):
        return [v for v in (launch.get(metric) for launch in self.launches) if v is not None]

    def total(self, metric):
        values = self.values(metric)
        return sum(values) if values else None

    def mean(self, metric):
        values = self.values(metric)
        return sum(values) / len(values) if values else None

    def ratio(self, numerator, denominator):
        top, bottom = self.total(numerator), self.total(denominator)
        return top / bottom if top is not None and bottom else None

    def row(self):
        """The table's numbers, None where ncu gave none."""
        seconds = self.total("gpu__time_duration.sum")
        read, written = self.total("dram__bytes_read.sum"), self.total("dram__bytes_write.sum")
        local = [v for v in (self.total(m) for m in LOCAL) if v is not None]
        registers = self.values("launch__registers_per_thread")
        return {
            "launches": len(self.launches),
            "mean_time_us": seconds / len(self.launches) * 1e6 if seconds else None,
            "dram_GBps": (read + written) / seconds / 1e9
            if seconds and read is not None and written is not None else None,
            "dram_pct_of_peak": self.mean("dram__throughput.avg.pct_of_peak_sustained_elapsed"),
            "ld_sectors_per_request": self.ratio(LD_SECTORS, LD_REQUESTS),
            "st_sectors_per_request": self.ratio(ST_SECTORS, ST_REQUESTS),
            "l2_hit_pct": self.mean("lts__t_sector_hit_rate.pct"),
            "achieved_occupancy_pct": self.mean(
                "sm__warps_active.avg.pct_of_peak_sustained_active"),
            "theoretical_occupancy_pct": self.mean("sm__maximum_warps_per_active_cycle_pct"),
            "registers": max(registers) if registers else None,
            "local_sectors_per_launch": sum(local) / len(self.launches) if local else None,
            "global_sectors_per_launch": sum(self.total(m) or 0 for m in (LD_SECTORS, ST_SECTORS))
            / len(self.launches),
            "ld_bytes_used_per_sector_pct": self.mean(
                "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"),
            "st_bytes_used_per_sector_pct": self.mean(
                "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"),
        }


def group(launches):
    """KernelStats per kernel (by demangled name), in order of first launch; kernels whose short
    names coincide (their differences elided) are told apart by a ' #2', ' #3', ..."""
    by_name = {}
    for launch in launches:
        by_name.setdefault(launch.name, []).append(launch)
    kernels, seen = [], {}
    for full, kernel_launches in by_name.items():
        name = kernel_name(full)
        seen[name.short] = seen.get(name.short, 0) + 1
        if seen[name.short] > 1:
            name.short += f" #{seen[name.short]}"
        kernels.append(KernelStats(name, kernel_launches))
    return kernels


def split_kept(kernels, min_us):
    """(kept, omitted): Kokkos' start-up kernels and kernels whose mean time is under min_us are
    left out, each omitted one with the reason; the kept ones longest total time first."""
    kept, omitted = [], []
    for kernel in kernels:
        mean = kernel.row()["mean_time_us"]
        if is_kokkos_internal(kernel.name.full):
            omitted.append((kernel, "Kokkos start-up kernel"))
        elif mean is not None and mean < min_us:
            omitted.append((kernel, f"mean time {mean:.1f} us < {min_us:g} us"))
        else:
            kept.append(kernel)
    kept.sort(key=lambda k: -(k.total("gpu__time_duration.sum") or 0.0))
    return kept, omitted


def coalescing_advice(kernel, row, flag_ratio):
    """The advice line for loads or stores far from ideal, or None."""
    width = lane_bytes(kernel.name)
    ideal = ideal_sectors(width)
    flagged = [f"{what} at {row[f'{kind}_sectors_per_request']:.1f}"
               for kind, what in (("ld", "loads"), ("st", "stores"))
               if (row[f"{kind}_sectors_per_request"] or 0) > flag_ratio * ideal]
    if not flagged:
        return None
    hint = next((p.hint for p in kernel.predictions if p.hint), "")
    return (f"global {' and '.join(flagged)} sectors/request, over {flag_ratio:g}x the ideal "
            f"{ideal} ({width}-byte lanes, full warp): the lanes of a warp touch addresses far "
            f"apart (seed 002's uncoalesced access); make the lane index the fastest-varying "
            f"index of the array.{(' ' + hint) if hint else ''}")


def local_memory_advice(kernel, row):
    """The advice line for local-memory traffic (spills or run-time-indexed thread arrays)."""
    local, global_ = row["local_sectors_per_launch"], row["global_sectors_per_launch"]
    if not local or local <= LOCAL_FRACTION * max(global_, 1.0):
        return None
    registers = row["registers"]
    used = f" at {registers:.0f} registers/thread" if registers is not None else ""
    return (f"{local:,.0f} local-memory sectors per launch, {100 * local / max(global_, 1.0):.0f}% "
            f"of its global ones{used}: registers spilled, or a thread-local array indexed "
            f"at run time (as bridge's LocalStack). Keep such arrays in registers (indices known "
            f"at compile time) or in team scratch; for spills, keep fewer values live (capping "
            f"registers with Kokkos::LaunchBounds for occupancy spills more).")


def occupancy_advice(row):
    """The advice line for a very low achieved occupancy."""
    achieved = row["achieved_occupancy_pct"]
    if achieved is None or achieved >= LOW_OCCUPANCY:
        return None
    theoretical = row["theoretical_occupancy_pct"]
    limit = (f" (theoretical {theoretical:.0f}%: registers, team scratch or the block size "
             f"limit it)" if theoretical is not None and theoretical < 2 * LOW_OCCUPANCY else
             " (the theoretical occupancy is higher: too few blocks for the GPU, or a long tail)")
    return (f"achieved occupancy {achieved:.0f}%{limit}; fewer registers or less scratch per "
            f"thread, or more work items per launch, put more warps on each SM to hide latency.")


def model_check(kernel, row):
    """The line saying the model and ncu disagree, or None."""
    lines = []
    for kind in ("ld", "st"):
        measured = row[f"{kind}_sectors_per_request"]
        predicted = [getattr(p, kind) for p in kernel.predictions if getattr(p, kind)]
        if measured is None or not predicted:
            continue
        low, high = min(predicted), max(predicted)
        if measured < low * (1 - MODEL_TOLERANCE) or measured > high * (1 + MODEL_TOLERANCE):
            lines.append(f"{'loads' if kind == 'ld' else 'stores'}: model "
                         f"{' / '.join(f'{v:.2f}' for v in predicted)}, ncu {measured:.2f}")
    if not lines:
        return None
    return ("the index model disagrees with ncu (" + "; ".join(lines) + "): the kernel's "
            "index arithmetic, its launch shape or the compiler's load merging changed since "
            "scripts/access_model was written; compare and update the model.")


def name_advice(kernel):
    """The line saying ncu printed Kokkos' launch template without its functor, or None."""
    if kernel.name.pattern or not LAUNCH.search(kernel.name.functor.head):
        return None
    return ("ncu printed function names only, so all Kokkos kernels look alike: profile with "
            "--ncu-arg --print-kernel-base --ncu-arg demangled.")


def analyse(kernels, configs, flag_ratio=FLAG_RATIO):
    """Fills each kernel's predictions (from the models' `configs`, per app) and advice."""
    for kernel in kernels:
        kernel.predictions = predictions(kernel.name, configs)
        row = kernel.row()
        advice = [name_advice(kernel), coalescing_advice(kernel, row, flag_ratio),
                  local_memory_advice(kernel, row), occupancy_advice(row),
                  model_check(kernel, row)]
        kernel.advice = [line for line in advice if line]
