"""The table as markdown (for people) and YAML (for scripts)."""
import yaml

from .coalescing import ideal_sectors
from .table import LOCAL_FRACTION, LOW_OCCUPANCY, lane_bytes

COLUMNS = (  # (heading, row key or None for the model, format)
    ("launches", "launches", "{:.0f}"),
    ("mean us", "mean_time_us", "{:.1f}"),
    ("DRAM GB/s", "dram_GBps", "{:.1f}"),
    ("DRAM % peak", "dram_pct_of_peak", "{:.1f}"),
    ("ld sect/req", "ld_sectors_per_request", "{:.2f}"),
    ("ld model", "ld", "{:.2f}"),
    ("st sect/req", "st_sectors_per_request", "{:.2f}"),
    ("st model", "st", "{:.2f}"),
    ("ideal", None, "{}"),
    ("L2 hit %", "l2_hit_pct", "{:.1f}"),
    ("occupancy %", "achieved_occupancy_pct", "{:.1f}"),
    ("regs", "registers", "{:.0f}"),
    ("local sect/launch", "local_sectors_per_launch", "{:,.0f}"),
)


def cell(value, form):
    return "-" if value is None else form.format(value)


def model_cell(kernel, kind):
    """The predictions for loads or stores, '/'-separated where the run sweeps the layout."""
    values = [getattr(p, kind) for p in kernel.predictions]
    return "-" if not values or None in values else " / ".join(f"{v:.2f}" for v in values)


def table_row(kernel):
    row = kernel.row()
    cells = [f"`{kernel.name.short}`"]
    for _, key, form in COLUMNS:
        if key in ("ld", "st"):
            cells.append(model_cell(kernel, key))
        elif key is None:
            cells.append(str(ideal_sectors(lane_bytes(kernel.name))))
        else:
            cells.append(cell(row[key], form))
    return "| " + " | ".join(cells) + " |"


def markdown(kept, omitted, source, flag_ratio):
    """The report as markdown: the table, what it means, the advice, what was left out."""
    lines = [f"# Access-pattern report: {source}", "",
             "| kernel | " + " | ".join(h for h, _, _ in COLUMNS) + " |",
             "|---|" + "---:|" * len(COLUMNS)]
    lines += [table_row(k) for k in kept]
    labels = sorted({p.label for k in kept for p in k.predictions if p.label})
    lines += ["", "Sectors/request: 32-byte sectors per warp-wide global load (ld) or store (st) "
              "instruction; ideal is a full warp of consecutive lanes (4 for 4-byte, 8 for "
              "8-byte, 16 for 16-byte lanes). 'model' is the index model's prediction "
              "(scripts/access_model)" + (f", for {' / '.join(labels)}" if labels else "") +
              "; '-' where no model covers the kernel or kmini's report was not given.",
              f"Flagged: sectors/request above {flag_ratio:g}x ideal, local-memory sectors above "
              f"{100 * LOCAL_FRACTION:g}% of the global ones, achieved occupancy below "
              f"{LOW_OCCUPANCY:g}%.", ""]
    advised = [k for k in kept if k.advice]
    if advised:
        lines += ["## Advice", ""]
        for kernel in advised:
            lines += [f"- `{kernel.name.short}`: {line}" for line in kernel.advice]
        lines.append("")
    if omitted:
        lines += ["## Left out", ""]
        lines += [f"- `{k.name.short}` (launches: {len(k.launches)}): {why}" for k, why in omitted]
        lines.append("")
    return "\n".join(lines)


def as_yaml(kept, omitted, source, kmini_report, flag_ratio):
    """The report as a YAML document."""
    def entry(kernel):
        data = {"kernel": kernel.name.short, "demangled": kernel.name.full,
                "policy": kernel.name.policy or None}
        data.update(kernel.row())
        data["ideal_sectors_per_request"] = ideal_sectors(lane_bytes(kernel.name))
        data["model"] = [{"configuration": p.label or None, "ld_sectors_per_request": p.ld,
                          "st_sectors_per_request": p.st} for p in kernel.predictions]
        data["advice"] = kernel.advice
        return data

    document = {
        "access_report": 1,
        "source": source,
        "kmini_report": kmini_report,
        "flag_ratio": flag_ratio,
        "kernels": [entry(k) for k in kept],
        "omitted": [{"kernel": k.name.short, "launches": len(k.launches), "why": why}
                    for k, why in omitted],
    }
    return yaml.safe_dump(document, sort_keys=False, width=100)
