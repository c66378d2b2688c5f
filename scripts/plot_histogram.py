#!/usr/bin/env python3
"""Plot histogram time versus number of bins from kmini reports (the seed paper's Fig. 6/7).

    scripts/plot_histogram.py REPORT [REPORT ...] --out DIR

Reads each REPORT (kmini's YAML, or its JSON), takes every run whose app is `histogram`, and
writes one log-log figure per bin type, DIR/histogram-<bin_type>.png: the median time of one
histogram against the number of bins, one line per variant (per variant and device when several
reports are given). It also prints the plotted numbers as a table per bin type, in ms.
Bad input prints one `plot_histogram.py: error: ...` line and exits with status 2.
"""
import argparse
import json
import math
import os
import sys

PROG = "plot_histogram.py"


def fail(message):
    """One line on stderr and exit 2: bad input is the user's to fix, a traceback would not help."""
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(2)


try:
    import yaml
    import matplotlib
    matplotlib.use("Agg")  # no display on build machines and CI
    import matplotlib.pyplot as plt
except ImportError as e:
    fail(f"this Python ({sys.executable}) lacks {e.name}; it needs matplotlib and PyYAML")


def read_report(path):
    """The report at path as a mapping; fails unless it is a kmini report."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        fail(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}")
    doc = None
    if text.lstrip().startswith("{"):
        try:
            doc = json.loads(text)
        except ValueError:
            pass  # not JSON after all; YAML gets its turn and says what is wrong
    if doc is None:
        try:
            doc = yaml.safe_load(text)
        except yaml.YAMLError as e:
            # path:line:column and the problem alone; str(e) spans lines and names no file.
            mark = getattr(e, "problem_mark", None)
            where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else path
            problem = getattr(e, "problem", None) or " ".join(str(e).split())
            fail(f"{where}: not a kmini report: not YAML or JSON ({problem})")
    if not isinstance(doc, dict) or "kmini_report" not in doc:
        fail(f"{path}: not a kmini report (no top-level 'kmini_report' key)")
    return doc


def device_name(report):
    device = (report.get("meta") or {}).get("device") or {}
    return str(device.get("name") or "unknown device")


def source_labels(paths, reports):
    """What tells the reports apart in labels: the device, plus the file where devices repeat."""
    names = [device_name(r) for r in reports]
    return [n if names.count(n) == 1 else f"{n}, {os.path.basename(p)}"
            for p, n in zip(paths, names)]


def scalar(value):
    """An input parameter that was not swept: a plain value, or a list of one."""
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def median_ms(result):
    """Median time in ms; NaN where the report has none (JSON writes NaN as null)."""
    median = (result.get("time_s") or {}).get("median")
    return float("nan") if median is None else float(median) * 1000.0


def histogram_points(report):
    """(bin_type, bins, variant, ms, samples) per result of a histogram run; ms None if n/a."""
    for run in report.get("runs") or []:
        if not isinstance(run, dict) or run.get("app") != "histogram":
            continue
        inputs = run.get("input") or {}
        for result in run.get("results") or []:
            status = result.get("status")
            if status not in ("ran", "not_applicable"):
                continue
            point = result.get("point") or {}
            bin_type = point.get("bin_type", scalar(inputs.get("bin_type")))
            bins = point.get("bins", scalar(inputs.get("bins")))
            if bin_type is None or bins is None:
                raise ValueError(f"result '{result.get('variant')}' has no bins or bin_type")
            # A not_applicable point still names its variant: the table shows it as '-'.
            ms = median_ms(result) if status == "ran" else None
            yield str(bin_type), int(bins), str(result["variant"]), ms, inputs.get("samples")


def collect(paths, reports):
    """{bin_type: {"series": {(variant, report): {bins: ms}}, "samples": [...], "devices": [...]}}."""
    sources = source_labels(paths, reports)
    figures = {}
    for index, (path, report) in enumerate(zip(paths, reports)):
        try:
            points = list(histogram_points(report))
        except (AttributeError, KeyError, TypeError, ValueError) as e:
            fail(f"{path}: malformed histogram run: {e}")
        for bin_type, bins, variant, ms, samples in points:
            fig = figures.setdefault(bin_type, {"series": {}, "samples": [], "devices": []})
            series = fig["series"].setdefault((variant, index), {})
            if ms is not None:
                series[bins] = ms
            if samples not in fig["samples"]:
                fig["samples"].append(samples)
            if device_name(report) not in fig["devices"]:
                fig["devices"].append(device_name(report))
    if not any(series for fig in figures.values() for series in fig["series"].values()):
        fail("no histogram run with results in " + ", ".join(paths))
    return figures, sources


def series_order(series):
    """Variants in order of first appearance, each followed by its other reports: easy to compare."""
    variants = list(dict.fromkeys(variant for variant, _ in series))
    return sorted(series, key=lambda key: (variants.index(key[0]), key[1]))


def series_label(key, sources):
    variant, index = key
    return variant if len(sources) == 1 else f"{variant} ({sources[index]})"


def format_ms(value):
    """4 significant digits, positional (2.200, 0.04120): easier to read in a note than 2.2e+00."""
    if value is None:
        return "-"
    if math.isnan(value) or value == 0.0:
        return str(value)
    decimals = max(0, 3 - math.floor(math.log10(abs(value))))
    return f"{value:.{decimals}f}"


def format_samples(samples):
    try:
        return ", ".join(f"{int(float(s)):,}" for s in samples)
    except (TypeError, ValueError):
        return ", ".join(str(s) for s in samples)


def print_table(bin_type, fig, sources):
    keys = series_order(fig["series"])
    all_bins = sorted({b for key in keys for b in fig["series"][key]})
    header = ["bins"] + [series_label(key, sources) for key in keys]
    rows = [[str(b)] + [format_ms(fig["series"][key].get(b)) for key in keys] for b in all_bins]
    widths = [max(len(row[i]) for row in [header] + rows) for i in range(len(header))]
    print(f"{bin_type} bins: median time per histogram [ms], "
          f"{format_samples(fig['samples'])} samples ('-': not applicable)")
    for row in [header] + rows:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths)))
    print()


def plot(bin_type, fig, sources, out_dir):
    """One log-log figure; colour says the variant, line style and marker say the report."""
    styles, markers = ["-", "--", ":", "-."], ["o", "s", "^", "D"]
    variants = list(dict.fromkeys(variant for variant, _ in series_order(fig["series"])))
    figure, ax = plt.subplots(figsize=(7, 5))
    for key in series_order(fig["series"]):
        points = sorted(fig["series"][key].items())
        if not points:
            continue  # not applicable anywhere in this figure
        ax.plot([b for b, _ in points], [ms for _, ms in points],
                color=f"C{variants.index(key[0]) % 10}", linestyle=styles[key[1] % 4],
                marker=markers[key[1] % 4], label=series_label(key, sources))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("bins")
    ax.set_ylabel("time per histogram [ms]")
    ax.set_title(f"Histogram of {format_samples(fig['samples'])} uniform samples, {bin_type} bins\n"
                 + ", ".join(fig["devices"]), fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    figure.tight_layout()
    path = os.path.join(out_dir, f"histogram-{bin_type}.png")
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def main():
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", metavar="REPORT", help="kmini report, YAML or JSON")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for the PNGs")
    args = parser.parse_args()
    reports = [read_report(path) for path in args.reports]
    figures, sources = collect(args.reports, reports)
    try:
        os.makedirs(args.out, exist_ok=True)
        written = [plot(bin_type, fig, sources, args.out) for bin_type, fig in figures.items()]
    except OSError as e:
        fail(f"{args.out}: cannot write: {e.strerror or e}")
    for bin_type, fig in figures.items():
        print_table(bin_type, fig, sources)
    for path in written:
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
