"""Speed-up bars shared by the himeno and hf figures: per group (a run's point, or a molecule),
each variant's speed-up over a reference result of the same group.

The speed-up is always recomputed from the report's median times, reference median / variant
median, which is the report's own definition of speedup_vs_baseline; recomputing lets a
reference come from another run (hf's host variants are often run apart from the GPU ones),
where the report has no speedup_vs_baseline to offer.
"""
from . import bars
from .figure import Figure
from .report import distinct
from .text import format_cell, format_number, table


class SpeedupGroup:
    """row: the group's name in the table; label: under its bars; columns: [(column, result)]
    in the order to show; reference: the result the speed-ups are over, or None, with why in
    reference_text; note: a line under the table, e.g. where the reference came from."""

    def __init__(self, row, label, columns, reference, reference_text, note=None):
        self.row = row
        self.label = label
        self.columns = columns
        self.reference = reference
        self.reference_text = reference_text
        self.note = note

    def speedup(self, result):
        if self.reference is None or not result.ran or result.median_s <= 0.0:
            return None
        return self.reference.median_s / result.median_s

    def bar_group(self):
        """The group's bars: one per variant that ran, none where there is no reference."""
        bar_list = [bars.Bar(column, self.speedup(result), result.failed)
                    for column, result in self.columns if self.speedup(result) is not None]
        return bars.Group(self.label, bar_list, failed_reference=self.reference.failed)


def speedup_table(title, groups):
    """Rows: groups; columns: the reference, its median time and every variant's speed-up."""
    columns = distinct(column for group in groups for column, _ in group.columns)
    header = ["", "relative to", "its median [ms]"] + columns
    rows = []
    for group in groups:
        by_column = dict(group.columns)
        if group.reference is None:  # reference_text says why; no numbers to show
            rows.append([group.row, group.reference_text, ""] + [""] * len(columns))
            continue
        cells = []
        for column in columns:
            result = by_column.get(column)
            if result is None:
                cells.append("")
            elif result.not_applicable:
                cells.append("-")
            else:
                cells.append(format_cell(group.speedup(result), result.failed))
        reference_ms = format_number(group.reference.median_s * 1000.0)
        rows.append([group.row, group.reference_text, reference_ms] + cells)
    notes = "".join(f"  {group.row}: {group.note}\n" for group in groups if group.note)
    return table(title, header, rows, left=(0,)) + notes


def speedup_figure(name, groups, title, table_title, xlabel):
    """The Figure, or None when no group has a reference to draw bars from."""
    bar_groups = [group.bar_group() for group in groups if group.reference is not None]
    bar_groups = [group for group in bar_groups if group.bars]
    if not bar_groups:
        return None

    def draw():
        return bars.grouped_bars(bar_groups, title, "speed-up (x)", xlabel,
                                 lines=[bars.Line(1.0, "", style=":", color="grey")],
                                 annotate=lambda value: f"{value:.3g}x")

    return Figure(name, speedup_table(table_title, groups), draw)
