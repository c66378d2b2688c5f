"""himeno: every gosa variant's speed-up over cpu_serial (seed 000's Fig. 8).

One figure, himeno-speedup.png: per himeno run and point (its size or grid), one bar per variant
that ran, cpu_serial median time / variant median time. Seed 000 normalised to its serial CPU
pattern, which is cpu_serial here; a point where cpu_serial did not run has nothing to be
relative to, so the table says so and the figure leaves it out.
"""
from .report import NoData, devices_line, distinct, group_names, points
from .speedup import SpeedupGroup, speedup_figure
from .text import point_text

SUMMARY = ("himeno-speedup.png: every gosa variant's speed-up over cpu_serial per size "
           "(himeno runs with cpu_serial)")
REFERENCE = "cpu_serial"


def describe(result):
    """The problem: its grid where given, else its size; then the point's other values."""
    grid = result.param("grid")
    if isinstance(grid, list) and grid:
        problem = "grid " + "x".join(str(n) for n in grid)
    else:
        problem = f"size {result.param('size')}"
    rest = point_text(result.point, skip=("size", "grid"))
    return f"{problem} {rest}".strip()


def reference_of(results):
    """(cpu_serial's result if it ran, the table's words for it)."""
    for result in results:
        if result.variant == REFERENCE:
            if result.ran:
                return result, REFERENCE + (" (FAIL)" if result.failed else "")
            return None, f"{REFERENCE} not applicable: no bars"
    return None, f"{REFERENCE} did not run: no bars"


def speedup_groups(reports):
    run_points = [results for report in reports for run in report.runs if run.app == "himeno"
                  for results in points(run)]
    rows = group_names(run_points, describe, separator=" ")
    labels = group_names(run_points, describe)
    groups = []
    for results, row, label in zip(run_points, rows, labels):
        reference, text = reference_of(results)
        groups.append(SpeedupGroup(row, label, [(r.variant, r) for r in results], reference, text))
    return groups


def figures(reports):
    groups = speedup_groups(reports)
    if not groups:
        raise NoData("needs himeno runs")
    contributing = distinct(g.columns[0][1].report for g in groups if g.reference is not None)
    title = ("himeno: speed-up of each gosa variant over cpu_serial (median times)\n"
             + devices_line(contributing))
    table_title = ("himeno: speed-up over cpu_serial = cpu_serial median time / variant median "
                   "time ('-': not applicable, FAIL: failed validation)")
    figure = speedup_figure("himeno-speedup", groups, title, table_title, "problem")
    if figure is None:
        raise NoData(f"needs himeno runs where {REFERENCE} ran (none did)")
    return [figure]
