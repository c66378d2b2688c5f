"""The command line behind scripts/plot.py (every figure kind) and scripts/plot_histogram.py
(the histogram alone, kept for the commands people already use).

Bad input ends in one `PROG: error: ...` line on stderr and exit status 2, as kmini's own bad
input does: the user has something to fix, and a traceback would not say what.
"""
import argparse
import os
import sys
import textwrap

KINDS = ("histogram", "himeno", "hf", "bridge", "scaling")


def fail(prog, message):
    print(f"{prog}: error: {message}", file=sys.stderr)
    sys.exit(2)


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line too (argparse's own adds the usage above it)."""

    def error(self, message):
        fail(self.prog, message)


def figure_modules(prog, kinds):
    """The modules of the figure kinds asked for; fails where matplotlib or PyYAML is missing."""
    try:
        from . import bridge, hf, himeno, histogram, scaling
    except ImportError as e:
        fail(prog, f"this Python ({sys.executable}) lacks {e.name}; it needs matplotlib and PyYAML")
    modules = {"histogram": histogram, "himeno": himeno, "hf": hf, "bridge": bridge,
               "scaling": scaling}
    return {kind: modules[kind] for kind in kinds}


HELP_NOTES = {
    None: "Every figure's numbers are printed as a table under its 'wrote PATH' line. Results "
          "that failed validation are hatched and marked FAIL (bars) or crossed out in red "
          "(lines), and marked FAIL in the tables; not applicable results are '-' in the tables "
          "and have no bar.",
    "himeno": "Speed-ups are recomputed from median times.",
    "scaling": "Whether a pair of reports at different rank counts is weak or strong scaling is "
               "told from their global work per repetition; the speed-up figure has the strong "
               "scaling alone.",
}


def parse_args(prog, description, modules, argv):
    # Not at hyphens: a file name (scaling-hf-speedup.png) stays whole, for the reader and grep.
    wrap = textwrap.TextWrapper(width=96, initial_indent="  ", subsequent_indent="    ",
                                break_on_hyphens=False)
    epilog = ("figures, each drawn where the reports have data for it:\n"
              + "\n".join(wrap.fill(module.SUMMARY) for module in modules.values())
              + "\n\n" + textwrap.fill(" ".join(text for kind, text in HELP_NOTES.items()
                                                  if kind is None or kind in modules), width=96))
    parser = Parser(prog=prog, description=description, epilog=epilog,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="+", metavar="REPORT", help="kmini report, YAML or JSON")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for the PNGs")
    return parser.parse_args(argv)


def run_notes(reports):
    """Runs that did not complete: their results may be partial, and the reader should know."""
    return [f"note: run '{run.label}' ({run.app}) in {report.path} did not complete: {run.error}"
            for report in reports for run in report.runs if run.error]


def collect_figures(modules, reports):
    """(figures, {kind: why it has none}) over the figure kinds."""
    from .report import NoData  # here: it needs PyYAML, which main checks first

    figures, missing = [], {}
    for kind, module in modules.items():
        try:
            figures += module.figures(reports)
        except NoData as e:
            missing[kind] = str(e)
    return figures, missing


def nothing_to_draw(reports, missing):
    apps = sorted({run.app for report in reports for run in report.runs})
    found = f"runs of {', '.join(apps)}" if apps else "no runs"
    return (f"nothing to draw: the reports hold {found}; "
            + "; ".join(f"the {kind} figure {why}" for kind, why in missing.items()))


def main(prog="plot.py", description=None, kinds=KINDS, argv=None):
    modules = figure_modules(prog, kinds)
    args = parse_args(prog, description, modules, argv)
    from .report import PlotError, read_report  # here: it needs PyYAML, checked just above

    try:
        reports = [read_report(path) for path in args.reports]
        figures, missing = collect_figures(modules, reports)
    except PlotError as e:
        fail(prog, str(e))
    if not figures:
        fail(prog, nothing_to_draw(reports, missing))
    guard_write(prog, args.out, lambda: os.makedirs(args.out, exist_ok=True))
    for line in run_notes(reports):
        print(line)
    for kind, why in missing.items():
        print(f"note: no {kind} figure: it {why}")
    for figure in figures:
        print(f"wrote {guard_write(prog, args.out, lambda: figure.write(args.out))}")
        print(figure.table)


def guard_write(prog, out_dir, action):
    """action(), which writes into out_dir; one error line where the folder cannot be written."""
    try:
        return action()
    except OSError as e:
        fail(prog, f"{out_dir}: cannot write: {e.strerror or e}")
