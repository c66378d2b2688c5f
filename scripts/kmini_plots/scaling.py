"""Scaling over MPI ranks, from reports that ran at different rank counts.

One figure per app, scaling-<app>.png: for each result found in several reports (same device,
app, run label, point and variant) at different `meta.mpi.ranks`, its figure of merit against
ranks (solid for strong scaling, dashed for weak), with the ideal (linear in ranks from the
fewest) dotted.

Whether a pair is weak or strong scaling is not a field of the report. It is told from the
global work per repetition, which kmini sums over ranks: the same work at more ranks is strong
scaling, work growing with the ranks is weak scaling, anything else is called unclear. The table
also names the inputs that differ (a weak-scaling input typically sets a larger grid and a rank
split). kmini's figures of merit are rates of the global work (GB/s, MFLOPS, quartets/s), so
efficiency = (FOM_N / FOM_0) / (N / N_0) reads as t_0 / t_N for weak scaling and as the speed-up
per rank for strong scaling; the table prints the FOM ratio beside it. Under it, where the runs'
time went, from the metrics that time their phases (PHASES: himeno's exchange and gosa
allreduce, hf's ranks' own shares, their imbalance, the sum of G and the SCF outside G, and each
app's fastest and slowest rank).

For hf a second figure, scaling-hf-speedup.png: speed-up (left) and efficiency (right) against
ranks, for the G build (its median time) and for the whole SCF (metric scf_seconds), one line of
each per strong-scaling series. The G build is what the ranks split; the rest of the SCF is not,
so the two lines apart show how much of the gain the whole run keeps. Weak-scaling series have
no speed-up to speak of and are left out.
"""
import json
from collections import namedtuple

from matplotlib import colormaps
from matplotlib.ticker import FuncFormatter

from .figure import Figure, new_axes
from .report import NoData, devices_line, distinct
from .text import format_cell, format_number, format_percent, point_text, table

SUMMARY = ("scaling-<app>.png: figure of merit against MPI ranks, parallel efficiency in the "
           "table, and where the runs' time went (the same runs in reports at different "
           "rank counts); scaling-hf-speedup.png: speed-up and efficiency against ranks of hf's "
           "G build and of its whole SCF (strong scaling)")
# Inputs that say how a run was measured, not what it computed.
MEASUREMENT_INPUTS = {"variant", "label", "repetitions", "warmup", "target_seconds"}
WORK_MEASURES = ("items", "flops", "bytes")
TOLERANCE = 0.01
KIND_STYLES = {"strong": "-", "weak": "--"}
# Where the runs' time went: the metrics an app times its phases with (seconds), printed in
# ms under the scaling table, so that the exchange, the reduction and the ranks' spread (load
# balance) read apart. hf's scf_outside_g_seconds is there at one rank too: the part of the SCF
# that the ranks do not split, beside the part they do.
PHASES = {
    "himeno": ("exchange_seconds_per_iteration", "allreduce_seconds_per_iteration",
               "rank_busy_seconds_per_iteration_min", "rank_busy_seconds_per_iteration_max"),
    "hf": ("rank_build_seconds_min", "rank_build_seconds_mean", "rank_build_seconds_max",
           "rank_build_imbalance", "g_sum_seconds_min", "g_sum_seconds", "scf_outside_g_seconds"),
}
# The PHASES that are ratios, not seconds: printed as they are, with what they are in the title.
PHASE_RATIOS = {"rank_build_imbalance": "the slowest rank's build seconds / the ranks' mean"}
# What the speed-up figure times, per app: a name, the unit of the table's column, its scale from
# seconds, where the seconds come from (in words and as a function) and the line style.
Timer = namedtuple("Timer", "name unit scale source seconds style")
TIMERS = {
    "hf": (Timer("G build", "ms", 1000.0, "time_s.median", lambda r: r.median_s, "-"),
           Timer("SCF", "s", 1.0, "metric scf_seconds", lambda r: r.metrics.get("scf_seconds"),
                 "--")),
}


def result_key(result):
    run = result.run
    return (result.report.device, run.app, run.label,
            json.dumps(result.point, sort_keys=True, default=str), result.variant)


def work_ratio(base, other):
    """Global work per repetition of other over base's, by the first measure both count."""
    for measure in WORK_MEASURES:
        a, b = base.work.get(measure), other.work.get(measure)
        if a and b:
            return b / a
    return None


def scaling_kind(base, other):
    """'strong', 'weak', or 'unclear (...)': what the global work says about the pair."""
    ratio = work_ratio(base, other)
    ranks = other.report.ranks / base.report.ranks
    if ratio is None:
        return "unclear (no work counted)"
    if abs(ratio - 1.0) <= TOLERANCE:
        return "strong"
    if abs(ratio - ranks) <= TOLERANCE * ranks:
        return "weak"
    return f"unclear (work x{ratio:.3g})"


def input_differences(base, other):
    keys = sorted(set(base.run.input) | set(other.run.input))
    return [k for k in keys if k not in MEASUREMENT_INPUTS
            and base.run.input.get(k) != other.run.input.get(k)]


class Series:
    """One line of the figure: a result at its fewest ranks and the same result at more ranks,
    all of one scaling kind."""

    def __init__(self, name, kind, base):
        self.name = name
        self.kind = kind
        self.results = [base]

    @property
    def base(self):
        return self.results[0]

    def ratio(self, result):
        return result.fom / self.base.fom if self.base.fom else None

    def efficiency(self, result):
        return self.per_rank(result, self.ratio(result))

    def per_rank(self, result, ratio):
        """ratio / rank ratio: the efficiency of a ratio whose ideal is the rank ratio."""
        return None if ratio is None else ratio / (result.report.ranks / self.base.report.ranks)

    def speedup(self, result, seconds):
        """seconds(base) / seconds(result); None where either has none (an older report)."""
        base, this = seconds(self.base), seconds(result)
        return base / this if base and this else None


def series_name(result, several_devices):
    run = result.run
    label = run.label if run.label != run.app else ""  # himeno's default label says nothing
    name = " ".join(filter(None, [label, point_text(result.point), result.variant]))
    return name + (f" ({result.report.device})" if several_devices else "")


def collect(reports):
    """{app: [Series]} over results found at two rank counts or more."""
    by_key = {}
    for report in reports:
        for run in report.runs:
            for result in run.results:
                if result.ran and result.fom is not None:
                    by_key.setdefault(result_key(result), []).append(result)
    several_devices = len({r.device for r in reports}) > 1
    by_app = {}
    for key, results in by_key.items():
        if len({r.report.ranks for r in results}) < 2:
            continue
        results = sorted(results, key=lambda r: r.report.ranks)  # stable: report order kept
        base, series = results[0], {}
        for other in results[1:]:
            if other.report.ranks == base.report.ranks:
                continue  # a second measurement at the base's ranks: nothing to scale against
            kind = scaling_kind(base, other)
            if kind not in series:
                series[kind] = Series(series_name(base, several_devices), kind, base)
            series[kind].results.append(other)
        by_app.setdefault(key[1], []).extend(series.values())
    return by_app


def scaling_note(series, result):
    if result is series.base:
        return ""
    differ = input_differences(series.base, result)
    return series.kind + (f"; inputs differ: {', '.join(differ)}" if differ else "")


def table_text(app, all_series):
    run = all_series[0].base.run
    title = (f"{app} scaling over ranks: {run.fom_name} [{run.fom_unit}]; ratio: FOM / FOM at the "
             "fewest ranks; efficiency: ratio / rank ratio (t0/tN for weak scaling, speed-up per "
             "rank for strong); work: global work per repetition / at the fewest ranks")
    header = ["series", "ranks", "median [ms]", run.fom_unit or "FOM", "ratio", "efficiency",
              "work", "scaling", "report"]
    rows = []
    for series in all_series:
        for result in series.results:
            work = work_ratio(series.base, result)
            rows.append([series.name if result is series.base else "", str(result.report.ranks),
                         format_number(result.median_s * 1000.0),
                         format_cell(result.fom, result.failed),
                         format_number(series.ratio(result)),
                         format_percent(series.efficiency(result)),
                         format_number(work), scaling_note(series, result), result.report.name])
    text = table(title, header, rows, left=(0, 7, 8))
    return text + phase_text(app, all_series)


def phase_value(name, value):
    if value is None:
        return "-"
    return format_number(value if name in PHASE_RATIOS else value * 1000.0)


def phase_text(app, all_series):
    """The runs' phases (PHASES) in ms, a row per series and rank count that has any."""
    names = PHASES.get(app, ())
    rows = []
    for series in all_series:
        first = True
        for result in series.results:
            values = [result.metrics.get(name) for name in names]
            if all(v is None for v in values):
                continue
            rows.append([series.name if first else "", str(result.report.ranks)] +
                        [phase_value(name, v) for name, v in zip(names, values)])
            first = False
    if not rows:
        return ""
    ratios = "".join(f"; {name}: {what}, no unit" for name, what in PHASE_RATIOS.items()
                     if name in names)
    title = (f"{app} over ranks, where the time went [ms] ('-': not reported): the slowest "
             f"rank's figure unless the name ends in _min (the fastest's) or _mean (the ranks' "
             f"mean){ratios}")
    return "\n" + table(title, ["series", "ranks"] + list(names), rows, left=(0,))


def speedup_table(app, all_series, timers):
    """Per strong-scaling series and rank count: each timer's seconds, speed-up, efficiency."""
    title = (f"{app} strong scaling: speed-up = seconds at the fewest ranks / at N ("
             + ", ".join(f"{t.name}: {t.source}" for t in timers)
             + "); efficiency = speed-up / rank ratio ('-': not reported, FAIL: failed "
             "validation)")
    header = ["series", "ranks"]
    for t in timers:
        header += [f"{t.name} [{t.unit}]", f"{t.name} speed-up", f"{t.name} efficiency"]
    rows = []
    for series in all_series:
        for result in series.results:
            row = [series.name if result is series.base else "", str(result.report.ranks)]
            for t in timers:
                seconds = t.seconds(result)
                speedup = series.speedup(result, t.seconds)
                row += [format_number(None if seconds is None else seconds * t.scale),
                        format_cell(speedup, result.failed),
                        format_percent(series.per_rank(result, speedup))]
            rows.append(row)
    return table(title, header, rows, left=(0,))


def series_color(all_series, index):
    """A colour per series; tab20 where tab10 would repeat."""
    palette = colormaps["tab10" if len(all_series) <= 10 else "tab20"]
    return palette(index % palette.N)


def legend_label(series):
    """The series, its scaling kind and its efficiencies: in the legend, where they cannot
    overlap as labels beside the points would."""
    efficiencies = ", ".join(f"{format_percent(series.efficiency(r))} at {r.report.ranks}"
                             for r in series.results[1:])
    return f"{series.name} ({series.kind}; efficiency {efficiencies})"


def draw_series(ax, series, color):
    """The series' line (its style says the scaling kind), its ideal dotted, FAILs crossed out."""
    ranks = [r.report.ranks for r in series.results]
    ax.plot(ranks, [r.fom for r in series.results], marker="o", color=color,
            linestyle=KIND_STYLES.get(series.kind, ":"), label=legend_label(series))
    base = series.base
    ax.plot([ranks[0], ranks[-1]], [base.fom, base.fom * ranks[-1] / ranks[0]], linestyle=":",
            color=color, linewidth=1.0)
    failed = [r for r in series.results if r.failed]
    ax.plot([r.report.ranks for r in failed], [r.fom for r in failed], linestyle="none",
            marker="x", markersize=12, color="red")


def tick_text(value, _position):
    """3,000,000 MFLOPS rather than 3 with 1e6 above the axis; small rates as they are."""
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:g}"


def ranks_of(all_series):
    return sorted({r.report.ranks for s in all_series for r in s.results})


def rank_axis(ax, all_series):
    """Ranks along x: a tick per rank count, log 2 where they span more than 4x. Last: it fixes
    y from 0 to what is drawn by then."""
    all_ranks = ranks_of(all_series)
    if all_ranks[-1] / all_ranks[0] > 4:
        ax.set_xscale("log", base=2)
    ax.set_xticks(all_ranks)
    ax.set_xticklabels([str(r) for r in all_ranks])
    ax.set_xlabel("MPI ranks")
    ax.set_ylim(bottom=0.0)
    ax.grid(True, alpha=0.3)


def failed_legend(ax, all_series):
    if any(r.failed for s in all_series for r in s.results):
        ax.plot([], [], linestyle="none", marker="x", color="red", label="failed validation")


def draw(app, all_series):
    figure, ax = new_axes(8, 5)
    run = all_series[0].base.run
    for index, series in enumerate(all_series):
        draw_series(ax, series, series_color(all_series, index))
    ax.plot([], [], linestyle=":", color="grey", label="ideal: linear in ranks")
    failed_legend(ax, all_series)
    rank_axis(ax, all_series)
    ax.yaxis.set_major_formatter(FuncFormatter(tick_text))
    ax.set_ylabel(f"{run.fom_name} [{run.fom_unit}]")
    reports = distinct(r.report for s in all_series for r in s.results)
    ax.set_title(f"{app}: {run.fom_name} against MPI ranks\n{devices_line(reports)}", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return figure


def draw_speedup(app, all_series, timers):
    """Speed-up (left) and efficiency (right): a colour per series, a line style per timer."""
    figure, (left, right) = new_axes(13, 5, columns=2)
    for index, series in enumerate(all_series):
        color = series_color(all_series, index)
        for t in timers:
            drawn = [(r, series.speedup(r, t.seconds)) for r in series.results]
            drawn = [(r, speedup) for r, speedup in drawn if speedup is not None]  # old reports
            if len(drawn) < 2:
                continue  # the base alone, 1.0 at its ranks: nothing scaled
            efficiencies = [100.0 * series.per_rank(r, speedup) for r, speedup in drawn]
            for ax, values in ((left, [speedup for _, speedup in drawn]), (right, efficiencies)):
                ranks = [r.report.ranks for r, _ in drawn]
                ax.plot(ranks, values, marker="o", color=color, linestyle=t.style,
                        label=f"{series.name}: {t.name}")
                failed = [(n, v) for n, v, (r, _) in zip(ranks, values, drawn) if r.failed]
                ax.plot([n for n, _ in failed], [v for _, v in failed], linestyle="none",
                        marker="x", markersize=12, color="red")
    first, last = ranks_of(all_series)[0], ranks_of(all_series)[-1]
    for base in sorted({s.base.report.ranks for s in all_series}):  # one ideal per fewest ranks
        left.plot([base, last], [1.0, last / base], linestyle=":", color="grey", linewidth=1.0)
    right.plot([first, last], [100.0, 100.0], linestyle=":", color="grey", linewidth=1.0,
               label="ideal: linear in ranks, 100%")
    rank_axis(left, all_series)
    rank_axis(right, all_series)
    right.set_ylim(top=max(110.0, right.get_ylim()[1]))  # the 100% line off the frame
    failed_legend(right, all_series)
    left.set_ylabel("speed-up over the fewest ranks (x)")
    right.set_ylabel("parallel efficiency = speed-up / rank ratio [%]")
    names = " and ".join(t.name for t in timers)
    left.set_title(f"{app}: speed-up of the {names} against MPI ranks", fontsize=10)
    right.set_title(f"{app}: parallel efficiency of the {names}", fontsize=10)
    reports = distinct(r.report for s in all_series for r in s.results)
    figure.suptitle(f"{app} strong scaling; {devices_line(reports)}", fontsize=10)
    handles, labels = right.get_legend_handles_labels()
    labels = dict(zip(labels, handles))  # the lines are in both panels; list them once
    right.legend(labels.values(), labels.keys(), fontsize=8, loc="upper left",
                 bbox_to_anchor=(1.01, 1.0))
    return figure


def app_figures(app, all_series):
    """scaling-<app>, and scaling-<app>-speedup where the app has TIMERS and strong series."""
    out = [Figure(f"scaling-{app}", table_text(app, all_series), lambda: draw(app, all_series))]
    timers = TIMERS.get(app)
    strong = [s for s in all_series if s.kind == "strong"]
    if timers and strong:
        out.append(Figure(f"scaling-{app}-speedup", speedup_table(app, strong, timers),
                          lambda: draw_speedup(app, strong, timers)))
    return out


def figures(reports):
    ranks = sorted({r.ranks for r in reports})
    if len(ranks) < 2:
        raise NoData(f"needs reports at different rank counts (all ran on {ranks[0]})")
    by_app = collect(reports)
    if not by_app:
        raise NoData(f"needs the same run (app, label, point, variant, device) in reports at "
                     f"different rank counts (these ran on {', '.join(map(str, ranks))})")
    return [figure for app, s in by_app.items() for figure in app_figures(app, s)]
