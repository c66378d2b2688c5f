"""The grouped bar chart behind the himeno, hf and bridge figures: one group of bars per run and
point, one bar per variant, one colour per variant across all groups.

A bar whose result failed validation is hatched and marked FAIL in red, so that it can never be
read as a good number; the bars of a group whose reference (the measurement they are relative
to) failed are dotted, since their own results may be fine but their heights are not. Not
applicable results are left out by the callers (no bar).
"""
import textwrap

from matplotlib import colormaps
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .figure import new_axes
from .report import distinct
from .text import format_number

# A range wider than this (largest / smallest bar) goes on a log scale, or small bars vanish.
LOG_RANGE = 30.0
# With more bars than this, values over the bars would overlap: the printed table has them.
MAX_ANNOTATED_BARS = 40
# The width of a character of the 8-point tick labels, and what the axes leave of the figure's
# width, in inches: for wrapping the groups' labels.
CHAR_INCHES = 0.065
MARGIN_INCHES = 2.5
FAIL_STYLE = {"hatch": "///", "edgecolor": "black", "linewidth": 1.0}
FAILED_REFERENCE_STYLE = {"hatch": "..", "edgecolor": "black", "linewidth": 1.0}


class Bar:
    def __init__(self, variant, value, failed=False):
        self.variant = variant
        self.value = value
        self.failed = failed


class Group:
    """label: under the group; failed_reference: every bar is relative to a result that failed
    validation."""

    def __init__(self, label, bars, failed_reference=False):
        self.label = label
        self.bars = bars
        self.failed_reference = failed_reference


class Line:
    """A horizontal line at y (a ceiling, or 1 for speed-ups); over the groups with the given
    indices only, or across the whole figure where groups is None; label: its legend entry
    (none where empty)."""

    def __init__(self, y, label, groups=None, style="--", color="black"):
        self.y = y
        self.label = label
        self.groups = groups
        self.style = style
        self.color = color


def variant_color(variants, variant):
    """The same colour for a variant in every group; tab20 where tab10 would repeat."""
    palette = colormaps["tab10" if len(variants) <= 10 else "tab20"]
    return palette(variants.index(variant) % palette.N)


def wide_range(values):
    positive = [v for v in values if v is not None and v > 0]
    return bool(positive) and max(positive) / min(positive) > LOG_RANGE


def bar_style(bar, group):
    if bar.failed:
        return FAIL_STYLE
    return FAILED_REFERENCE_STYLE if group.failed_reference else {"edgecolor": "none"}


def draw_bars(ax, groups, variants, annotate):
    """The bars; returns each group's centre and x extent, and the failure styles used."""
    x, centres, spans, styles = 0.0, [], [], set()
    for group in groups:
        start = x
        for bar in group.bars:
            style = bar_style(bar, group)
            styles.add(style.get("hatch"))
            ax.bar(x, bar.value, width=0.8, color=variant_color(variants, bar.variant), **style)
            text = " ".join(filter(None, ["FAIL" if bar.failed else "",
                                          annotate(bar.value) if annotate else ""]))
            if text:
                ax.annotate(text, (x, bar.value), xytext=(0, 2), textcoords="offset points",
                            rotation=90, ha="center", va="bottom", fontsize=7,
                            color="red" if bar.failed else "black")
            x += 1.0
        centres.append((start + x - 1.0) / 2.0)
        spans.append((start - 0.5, x - 0.5))
        x += 1.0  # a gap between groups
    return centres, spans, styles


def draw_lines(ax, lines, spans):
    """The lines; their labels go to the legend, where no bar can hide them."""
    for line in lines:
        if line.groups is None:
            ax.axhline(line.y, linestyle=line.style, color=line.color, linewidth=1.0)
        else:
            left = min(spans[i][0] for i in line.groups)
            right = max(spans[i][1] for i in line.groups)
            ax.hlines(line.y, left, right, linestyles=line.style, colors=line.color, linewidth=1.0)


def legend(ax, variants, lines, styles):
    handles = [Patch(color=variant_color(variants, v), label=v) for v in variants]
    if FAIL_STYLE["hatch"] in styles:
        handles.append(Patch(facecolor="white", label="failed validation", **FAIL_STYLE))
    if FAILED_REFERENCE_STYLE["hatch"] in styles:
        handles.append(Patch(facecolor="white", **FAILED_REFERENCE_STYLE,
                             label="relative to a result\nthat failed validation"))
    handles += [Line2D([], [], linestyle=line.style, color=line.color, label=line.label)
                for line in lines if line.label]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
              title="variant", title_fontsize=8)


def tick_label(group, slot_inches):
    """The group's label, its lines wrapped (at hyphens first) to the width of its bars and the
    gap beside them, so that neighbouring labels do not run into each other."""
    width = max(10, int(slot_inches * (len(group.bars) + 1) / CHAR_INCHES))
    return "\n".join(textwrap.fill(line, width) for line in group.label.split("\n"))


def grouped_bars(groups, title, ylabel, xlabel="", lines=(), annotate=format_number):
    """The figure; annotate(value) is the text over each bar (when there are few enough)."""
    variants = distinct(bar.variant for group in groups for bar in group.bars)
    bar_count = sum(len(group.bars) for group in groups)
    width = min(22.0, max(7.0, 2.5 + 0.3 * bar_count + 0.4 * len(groups)))
    figure, ax = new_axes(width, 5.5)
    if bar_count > MAX_ANNOTATED_BARS:
        annotate = None
    centres, spans, styles = draw_bars(ax, groups, variants, annotate)
    values = [bar.value for group in groups for bar in group.bars] + [line.y for line in lines]
    if wide_range(values):
        ax.set_yscale("log")
        ax.set_ylim(top=max(values) * (3.0 if annotate else 1.5))
    else:
        ax.set_ylim(0.0, max(values) * (1.25 if annotate else 1.1))
    draw_lines(ax, lines, spans)
    ax.set_xticks(centres)
    # The axes get what the y label and the legend leave of the width; a slot is a bar or a gap.
    slot_inches = (width - MARGIN_INCHES) / (bar_count + len(groups) + 1)
    ax.set_xticklabels([tick_label(group, slot_inches) for group in groups], fontsize=8)
    ax.set_xlim(spans[0][0] - 0.5, spans[-1][1] + 0.5)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.set_axisbelow(True)
    legend(ax, variants, lines, styles)
    return figure
