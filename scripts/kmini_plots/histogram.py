"""Histogram time against the number of bins (seed 000's Fig. 6/7).

One log-log figure per bin type, histogram-<bin_type>.png: the median time of one histogram
against the number of bins, one line per variant (per variant and report when several reports
are given); points that failed validation are crossed out in red and marked FAIL in the table.
"""
from .figure import Figure, new_axes
from .report import NoData, PlotError, devices_line, distinct, source_labels
from .text import format_cell, table

SUMMARY = ("histogram-<bin_type>.png: histogram time against bins, one line per variant "
           "(histogram runs)")
STYLES, MARKERS = ["-", "--", ":", "-."], ["o", "s", "^", "D"]


def histogram_points(report):
    """(bin_type, bins, result) per ran or not applicable result of a histogram run."""
    for result in report.results("histogram"):
        if not (result.ran or result.not_applicable):
            continue
        bin_type, bins = result.param("bin_type"), result.param("bins")
        if bin_type is None or bins is None:
            raise PlotError(f"{report.path}: malformed histogram run: "
                            f"result '{result.variant}' has no bins or bin_type")
        yield str(bin_type), int(bins), result


def collect(reports):
    """{bin_type: {"series": {(variant, report): {bins: result or None}}, "samples": [...],
    "reports": [...]}}; None stands for not applicable, which the table shows as '-'."""
    figures = {}
    for report in reports:
        for bin_type, bins, result in histogram_points(report):
            fig = figures.setdefault(bin_type, {"series": {}, "samples": [], "reports": []})
            series = fig["series"].setdefault((result.variant, report), {})
            series[bins] = result if result.ran else None
            fig["samples"] = distinct(fig["samples"] + [result.run.input.get("samples")])
            fig["reports"] = distinct(fig["reports"] + [report])
    return figures


def series_order(series):
    """Variants in order of first appearance, each followed by its other reports: easy to
    compare."""
    variants = distinct(variant for variant, _ in series)
    reports = distinct(report for _, report in series)
    return sorted(series, key=lambda key: (variants.index(key[0]), reports.index(key[1])))


def series_label(key, sources):
    variant, report = key
    return variant if len(sources) == 1 else f"{variant} ({sources[report]})"


def format_samples(samples):
    try:
        return ", ".join(f"{int(float(s)):,}" for s in samples)
    except (TypeError, ValueError):
        return ", ".join(str(s) for s in samples)


def milliseconds(result):
    return None if result is None else result.median_s * 1000.0


def table_text(bin_type, fig, sources):
    keys = series_order(fig["series"])
    all_bins = sorted({b for key in keys for b in fig["series"][key]})
    header = ["bins"] + [series_label(key, sources) for key in keys]
    rows = []
    for b in all_bins:
        cells = [fig["series"][key].get(b) for key in keys]
        rows.append([str(b)] + [format_cell(milliseconds(r), r is not None and r.failed)
                                for r in cells])
    title = (f"{bin_type} bins: median time per histogram [ms], "
             f"{format_samples(fig['samples'])} samples ('-': not applicable)")
    return table(title, header, rows)


def draw(bin_type, fig, sources):
    """One log-log figure; colour says the variant, line style and marker say the report."""
    reports = fig["reports"]
    variants = distinct(variant for variant, _ in series_order(fig["series"]))
    figure, ax = new_axes(7, 5)
    failed_shown = False
    for key in series_order(fig["series"]):
        points = sorted((b, r) for b, r in fig["series"][key].items() if r is not None)
        if not points:
            continue  # not applicable anywhere in this figure
        style = reports.index(key[1]) % 4
        ax.plot([b for b, _ in points], [milliseconds(r) for _, r in points],
                color=f"C{variants.index(key[0]) % 10}", linestyle=STYLES[style],
                marker=MARKERS[style], label=series_label(key, sources))
        failed = [(b, milliseconds(r)) for b, r in points if r.failed]
        if failed:
            ax.plot([b for b, _ in failed], [ms for _, ms in failed], linestyle="none",
                    marker="x", markersize=12, color="red",
                    label=None if failed_shown else "failed validation")
            failed_shown = True
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("bins")
    ax.set_ylabel("time per histogram [ms]")
    ax.set_title(f"Histogram of {format_samples(fig['samples'])} uniform samples, {bin_type} bins\n"
                 + devices_line(reports), fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    figure.tight_layout()
    return figure


def figures(reports):
    """One Figure per bin type; NoData where no histogram result ran."""
    collected = collect(reports)
    if not any(r is not None for fig in collected.values()
               for series in fig["series"].values() for r in series.values()):
        raise NoData("needs histogram runs with results")
    out = []
    for bin_type, fig in collected.items():
        sources = source_labels(fig["reports"])
        out.append(Figure(f"histogram-{bin_type}", table_text(bin_type, fig, sources),
                          lambda b=bin_type, f=fig, s=sources: draw(b, f, s)))
    return out
