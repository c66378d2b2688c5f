"""bridge: each variant's GB/s against the copy ceiling (seed 004's Table 1).

One figure per run label, bridge-<label>.png: per point (precision, layout, order, ...), one bar
per variant of its bandwidth under the byte model, and a line at the copy ceiling that kmini
measured at the start of the same invocation (ceilings.copy.bandwidth_GBps): how far each
variant is from a plain copy on that device. Each report's line spans its own groups, since
two reports measured two ceilings.
"""
from . import bars
from .figure import Figure
from .report import NoData, devices_line, distinct, group_names, points, source_labels
from .text import file_stem, format_number, format_percent, point_text, table, value_text

SUMMARY = ("bridge-<label>.png: each variant's GB/s per point, with the copy ceiling "
           "(bridge runs)")


def values_only(result):
    """The point's values, one a line: the x axis's label names the keys once."""
    return "\n".join(value_text(v) for v in result.point.values()) or result.run.label


def key_values(result):
    return point_text(result.point) or result.run.label


def bandwidth(result):
    return result.bandwidth_GBps if result.ran else None


def cell(result, ceiling):
    """GB/s, its share of the ceiling, FAIL where it failed; '-' where there is no GB/s."""
    value = bandwidth(result)
    if value is None:
        return "-"
    text = format_number(value)
    if ceiling:
        text += f" ({format_percent(value / ceiling)})"
    return text + (" FAIL" if result.failed else "")


def ceiling_lines(run_points, reports):
    """One dashed line per report with a ceiling, over that report's groups."""
    lines = []
    sources = source_labels(reports)
    for report in reports:
        if report.copy_ceiling_GBps is None:
            continue
        indices = [i for i, results in enumerate(run_points) if results[0].report is report]
        if not indices:
            continue  # nothing of this report ran: no bars for its line to stand over
        label = f"copy ceiling {report.copy_ceiling_GBps:.0f} GB/s"
        if len(reports) > 1:
            label += f" ({sources[report]})"
        lines.append(bars.Line(report.copy_ceiling_GBps, label,
                               None if len(reports) == 1 else indices, color="firebrick"))
    return lines


def ceiling_text(reports):
    sources = source_labels(reports)
    parts = [(f"{format_number(r.copy_ceiling_GBps)} GB/s" if r.copy_ceiling_GBps is not None
              else "not measured") + (f" ({sources[r]})" if len(reports) > 1 else "")
             for r in reports]
    return "copy ceiling: " + "; ".join(parts)


def table_text(label, run_points, rows, reports):
    variants = distinct(r.variant for results in run_points for r in results)
    body = []
    for results, row in zip(run_points, rows):
        by_variant = {r.variant: r for r in results}
        ceiling = results[0].report.copy_ceiling_GBps
        body.append([row] + [cell(by_variant[v], ceiling) if v in by_variant else ""
                             for v in variants])
    title = (f"bridge {label}: GB/s under the byte model (% of the copy ceiling), "
             f"{ceiling_text(reports)} ('-': not applicable, FAIL: failed validation)")
    return table(title, [""] + variants, body, left=(0,))


def gbps_text(value):
    """Over a bar: whole GB/s where that keeps 3 digits, else 3 significant (a CPU's 1.04)."""
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def bar_groups(run_points, labels):
    return [bars.Group(label, [bars.Bar(r.variant, bandwidth(r), r.failed)
                               for r in results if bandwidth(r) is not None])
            for results, label in zip(run_points, labels)]


def figure_for(label, run_points):
    reports = distinct(results[0].report for results in run_points)
    text = table_text(label, run_points, group_names(run_points, key_values, separator=" "),
                      reports)
    groups = bar_groups(run_points, group_names(run_points, values_only))
    kept = [i for i, group in enumerate(groups) if group.bars]
    if not kept:
        return None
    run_points, groups = [run_points[i] for i in kept], [groups[i] for i in kept]
    keys = distinct(k for results in run_points for k in results[0].point)
    against = ("against the copy ceiling" if any(r.copy_ceiling_GBps for r in reports)
               else "(no copy ceiling in the report)")
    title = f"bridge {label}: bandwidth of each variant {against}\n" + devices_line(reports)

    def draw():
        return bars.grouped_bars(groups, title, "GB/s (byte model)", " / ".join(keys),
                                 lines=ceiling_lines(run_points, reports),
                                 annotate=gbps_text)

    return Figure(f"bridge-{file_stem(label)}", text, draw)


def figures(reports):
    by_label = {}
    for report in reports:
        for run in report.runs:
            if run.app == "bridge":
                by_label.setdefault(run.label, []).extend(points(run))
    if not by_label:
        raise NoData("needs bridge runs")
    out = [f for f in (figure_for(label, rp) for label, rp in by_label.items()) if f is not None]
    if not out:
        raise NoData("needs bridge runs with results that ran")
    return out
