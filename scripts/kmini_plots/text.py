"""The plotted numbers as text: every figure prints its numbers as a table under it, so that a
reader can quote them (and CI can check them) without reading pixels."""
import math
import re


def format_number(value):
    """4 significant digits, positional (2.200, 0.04120): easier to read in a note than 2.2e+00.
    None (nothing measured, e.g. not applicable) prints as '-'."""
    if value is None:
        return "-"
    if math.isnan(value) or value == 0.0:
        return str(value)
    decimals = max(0, 3 - math.floor(math.log10(abs(value))))
    return f"{value:.{decimals}f}"


def format_cell(value, failed=False):
    """A plotted value, with FAIL after it where the result failed validation."""
    text = format_number(value)
    return f"{text} FAIL" if failed and value is not None else text


def format_percent(fraction):
    """One decimal (86.2%); two significant digits below 1% (0.035%), where .1f says 0.0%."""
    if fraction is None:
        return "-"
    percent = 100.0 * fraction
    return f"{percent:.1f}%" if abs(percent) >= 1.0 else f"{percent:.2g}%"


def table(title, header, rows, left=()):
    """title, then the columns two spaces apart: numbers right-aligned, the columns whose
    indices are in left (names, words) left-aligned."""
    widths = [max(len(row[i]) for row in [header] + rows) for i in range(len(header))]

    def line(row):
        return "  ".join(cell.ljust(width) if i in left else cell.rjust(width)
                         for i, (cell, width) in enumerate(zip(row, widths))).rstrip()

    return "\n".join([title] + [line(row) for row in [header] + rows]) + "\n"


def file_stem(text):
    """A label made safe as part of a file name."""
    return re.sub(r"[^A-Za-z0-9_.+-]+", "-", text).strip("-") or "run"


def value_text(value):
    """A swept value as shown; a file path by its name alone (an order file, a molecule)."""
    return str(value).rsplit("/", 1)[-1] if isinstance(value, str) else str(value)


def point_text(point, skip=(), separator=" "):
    """The swept values of a point as key=value."""
    return separator.join(f"{k}={value_text(v)}" for k, v in point.items() if k not in skip)
