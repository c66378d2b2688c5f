"""Nsight Compute's `--csv --page raw` output: one row per profiled kernel launch.

The layout: a header row naming the columns ("ID", "Process ID", ..., "Kernel Name", ...,
"Block Size", "Grid Size", "Device", "CC", then one column per metric, e.g.
"dram__bytes_read.sum"), a row of units under it (empty for the descriptive columns), then one
row per launch. Every cell is quoted; numbers carry thousands separators ("1,234,567.5") and are
scaled to the unit of their column ("Mbyte", "usecond") unless ncu ran with `--print-units base`.
With `--log-file`, ncu's own "==PROF==" lines may come before the header; they are skipped.
"""
import csv
import re
from dataclasses import dataclass

from . import InputError

# What profile.sh asks ncu for. The core metrics are plain hardware counters every GPU since
# Volta has (the H100 included); the extra ones come from instrumenting the kernel's SASS and
# profile.sh drops them if this ncu rejects them.
CORE_METRICS = (
    "gpu__time_duration.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "lts__t_sector_hit_rate.pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "launch__registers_per_thread",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "launch__grid_size",
    "launch__block_size",
)
EXTRA_METRICS = (
    # nvprof's gld_efficiency / gst_efficiency: bytes the threads asked for per byte fetched.
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
    "sm__maximum_warps_per_active_cycle_pct",  # theoretical occupancy
)
# The metrics without which there is no table.
REQUIRED = ("gpu__time_duration.sum",)

# Unit prefixes ncu scales by (decimal, as ncu's are), and the short time units it also uses.
PREFIXES = {"n": 1e-9, "u": 1e-6, "m": 1e-3, "": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
SHORT_TIME = {"ns": "nsecond", "us": "usecond", "ms": "msecond", "s": "second"}
BASE_UNITS = ("second", "byte", "sector", "request", "inst", "warp", "cycle", "thread", "block")
UNIT = re.compile(r"^([numKMGT]?)(" + "|".join(BASE_UNITS) + r")(.*)$")


@dataclass
class Launch:
    """One profiled launch: its demangled name and its metrics in base units (seconds, bytes,
    sectors, ...; percentages as percent), None where ncu reported no value."""
    id: str
    name: str
    metrics: dict

    def get(self, metric):
        return self.metrics.get(metric)


def unit_scale(unit):
    """The factor taking a value in `unit` to its base unit ('Mbyte' -> 1e6, 'usecond' -> 1e-6);
    1 for units without a prefix ('%', 'register/thread', '')."""
    unit = SHORT_TIME.get(unit, unit)
    match = UNIT.match(unit)
    return PREFIXES[match.group(1)] if match else 1.0


def number(cell):
    """A cell's number, thousands separators removed; None for 'n/a' and empty cells."""
    text = cell.strip().replace(",", "")
    if text in ("", "n/a", "N/A", "-"):
        return None
    try:
        return float(text)
    except ValueError:
        return None


def header_index(rows):
    """The index of the header row: the first row naming both 'ID' and 'Kernel Name'."""
    for i, row in enumerate(rows):
        if "Kernel Name" in row and "ID" in row:
            return i
    return None


def read_raw_csv(path):
    """The launches in an ncu `--csv --page raw` file, in launch order.

    Raises InputError for a file that cannot be read or is not such output."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.reader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise InputError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}")
    at = header_index(rows)
    if at is None or at + 1 >= len(rows):
        raise InputError(f"{path}: not Nsight Compute's `--csv --page raw` output "
                         "(no header row with 'ID' and 'Kernel Name' followed by a units row)")
    header, units = rows[at], rows[at + 1]
    metric_columns = [i for i, name in enumerate(header) if "__" in name]
    missing = [m for m in REQUIRED if m not in header]
    if missing:
        raise InputError(f"{path}: ncu output without the metric {missing[0]}; "
                         "profile with scripts/profile.sh, which asks for it")
    id_column, name_column = header.index("ID"), header.index("Kernel Name")
    launches = []
    for row in rows[at + 2:]:
        if len(row) != len(header):
            continue  # a trailing '==PROF==' line, or a line cut short
        metrics = {}
        for i in metric_columns:
            value = number(row[i])
            unit = units[i] if i < len(units) else ""
            metrics[header[i]] = None if value is None else value * unit_scale(unit)
        launches.append(Launch(row[id_column], row[name_column], metrics))
    return launches
