#!/usr/bin/env python3
"""kmini's access-pattern report: per kernel, how well global accesses coalesce (seed 002).

    scripts/access_report.py report NCU_CSV [--kmini-report REPORT] [--out DIR] [--min-us T]
    scripts/access_report.py picture {bridge,himeno} --out PNG [--kmini-report REPORT] [...]
    scripts/access_report.py metrics [--core]

report   reads Nsight Compute's `--csv --page raw` output (scripts/profile.sh writes it), groups
         the launches by kernel and prints a markdown table: launches, mean time, DRAM GB/s and
         % of peak, global load and store sectors per request beside the index model's
         prediction, L2 hit rate, achieved occupancy, registers, local-memory (spill) sectors;
         then a line of advice per kernel far from ideal. It writes the same to
         DIR/access-report.md and DIR/access-report.yaml, and DIR/access-<app>.png for the
         bridge and himeno runs of kmini's REPORT (the `--report` of the profiled run), whose
         parameters the models take.
picture  draws one warp's one global access, lane against the 32-byte sectors it touches, for
         the layouts (bridge) or thread shapes (himeno) side by side; no ncu needed.
metrics  prints the comma-separated ncu metric list profile.sh asks for.

Bad input prints one `access_report.py: error: ...` line and exits with status 2.
"""
import argparse
import os
import sys

PROG = "access_report.py"


def fail(message):
    """One line on stderr and exit 2: bad input is the user's to fix, a traceback would not help."""
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(2)


try:
    import yaml
    from access_model import InputError, bridge, himeno, picture
    from access_model.ncu_csv import CORE_METRICS, EXTRA_METRICS, read_raw_csv
    from access_model.output import as_yaml, markdown
    from access_model.table import (FLAG_RATIO, MODELS, analyse, configs_from_report, group,
                                    split_kept)
except ImportError as e:
    fail(f"this Python ({sys.executable}) lacks {e.name}; it needs matplotlib and PyYAML")

APPS = tuple(MODELS)  # the apps with an index model, and so a picture


def read_kmini_report(path):
    """kmini's report (YAML or JSON: YAML reads both) as a mapping."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}")
    except yaml.YAMLError as e:
        raise InputError(f"{path}: not a kmini report: not YAML or JSON "
                         f"({getattr(e, 'problem', None) or ' '.join(str(e).split())})")
    if not isinstance(doc, dict) or "kmini_report" not in doc:
        raise InputError(f"{path}: not a kmini report (no top-level 'kmini_report' key)")
    return doc


def first_run_input(report, app):
    """The input of the report's first run of `app`, or None."""
    for run in (report or {}).get("runs") or []:
        if run.get("app") == app:
            return run.get("input") or {}
    return None


def base_config(app, report):
    """The app's model configuration from the report's first run of it, else the defaults."""
    run_input = first_run_input(report, app)
    if run_input is None:
        return {"bridge": bridge.BridgeConfig, "himeno": himeno.HimenoConfig}[app]()
    return MODELS[app].configs_from_input(run_input)[0]


def with_options(app, config, args):
    """The configuration with the picture command's options applied (those given)."""
    if args.precision:
        config.element = 8 if args.precision == "double" else 4
    options = {"bridge": (("paths", args.paths), ("steps", args.steps), ("dim", args.dimension)),
               "himeno": (("dims", himeno.SIZES.get(args.size)), ("dims", args.grid),
                          ("mdrange_tile", args.mdrange_tile),
                          ("marching_block", args.marching_block))}[app]
    for field, value in options:
        if value is not None:
            setattr(config, field, value)
    return config


def draw_picture(app, config, path):
    """Writes the app's picture for `config` to `path`."""
    heading, panels = MODELS[app].panels(config)
    try:
        picture.draw(panels, heading, path)
    except OSError as e:
        raise InputError(f"{path}: cannot write: {e.strerror or e}")
    print(f"wrote {path}")


def apps_to_draw(report, kernels):
    """The apps with a picture: those the kmini report ran, else those the kernel names show."""
    if report:
        return [app for app in APPS if first_run_input(report, app) is not None]
    names = " ".join(k.name.short for k in kernels)
    return [app for app in APPS if f"{app}::" in names]


def write_text(path, text):
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise InputError(f"{path}: cannot write: {e.strerror or e}")
    print(f"wrote {path}")


def run_report(args):
    launches = read_raw_csv(args.csv)
    if not launches:
        raise InputError(f"{args.csv}: ncu profiled no kernel launch")
    report = read_kmini_report(args.kmini_report) if args.kmini_report else None
    out = args.out or os.path.dirname(os.path.abspath(args.csv))
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise InputError(f"{out}: cannot create: {e.strerror or e}")
    kept, omitted = split_kept(group(launches), args.min_us)
    analyse(kept, configs_from_report(report), args.flag_ratio)
    text = markdown(kept, omitted, args.csv, args.flag_ratio)
    print(text)
    write_text(os.path.join(out, "access-report.md"), text)
    write_text(os.path.join(out, "access-report.yaml"),
               as_yaml(kept, omitted, args.csv, args.kmini_report, args.flag_ratio))
    for app in apps_to_draw(report, kept):
        draw_picture(app, base_config(app, report), os.path.join(out, f"access-{app}.png"))


def run_picture(args):
    report = read_kmini_report(args.kmini_report) if args.kmini_report else None
    if report and first_run_input(report, args.app) is None:
        raise InputError(f"{args.kmini_report}: no {args.app} run in this kmini report")
    draw_picture(args.app, with_options(args.app, base_config(args.app, report), args), args.out)


def run_metrics(args):
    print(",".join(CORE_METRICS if args.core else CORE_METRICS + EXTRA_METRICS))


def triple(text):
    """'1,4,64' -> (1, 4, 64)."""
    try:
        values = tuple(int(v) for v in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 3 or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected three positive integers like 1,4,64, "
                                         f"got {text!r}")
    return values


def positive(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


class Parser(argparse.ArgumentParser):
    """argparse with the one-line error and exit status 2 of every kmini script."""

    def error(self, message):
        fail(message)


def parser():
    top = Parser(prog=PROG, description=__doc__.split("\n\n")[0],
                 formatter_class=argparse.RawDescriptionHelpFormatter,
                 epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    commands = top.add_subparsers(dest="command", required=True, parser_class=Parser)

    report = commands.add_parser("report", help="the per-kernel table from ncu's raw CSV")
    report.add_argument("csv", metavar="NCU_CSV", help="ncu --csv --page raw output")
    report.add_argument("--kmini-report", metavar="REPORT",
                        help="kmini's report of the profiled run: the models' parameters")
    report.add_argument("--out", metavar="DIR", help="where the files go (default: NCU_CSV's)")
    report.add_argument("--min-us", type=float, default=5.0, metavar="T",
                        help="leave out kernels whose mean time is below T microseconds "
                             "(default 5)")
    report.add_argument("--flag-ratio", type=float, default=FLAG_RATIO, metavar="R",
                        help=f"advise where sectors/request exceed R x ideal (default "
                             f"{FLAG_RATIO:g})")
    report.set_defaults(run=run_report)

    pic = commands.add_parser("picture", help="one warp's access, lanes against sectors")
    pic.add_argument("app", choices=APPS)
    pic.add_argument("--out", required=True, metavar="PNG")
    pic.add_argument("--kmini-report", metavar="REPORT",
                     help="take the parameters from this report's first run of the app")
    pic.add_argument("--precision", choices=("float", "double"))
    pic.add_argument("--paths", type=positive, help="bridge: paths")
    pic.add_argument("--steps", type=positive, help="bridge: steps")
    pic.add_argument("--dimension", type=positive, help="bridge: components per point")
    pic.add_argument("--size", choices=sorted(himeno.SIZES), help="himeno: named size")
    pic.add_argument("--grid", type=triple, help="himeno: array dimensions, e.g. 257,257,513")
    pic.add_argument("--mdrange-tile", type=triple, help="himeno: e.g. 1,4,64")
    pic.add_argument("--marching-block", type=triple, help="himeno: planes,tj,tk, e.g. 64,4,64")
    pic.set_defaults(run=run_picture)

    metrics = commands.add_parser("metrics", help="the ncu metrics profile.sh asks for")
    metrics.add_argument("--core", action="store_true",
                         help="only the hardware counters (no SASS-instrumented metrics)")
    metrics.set_defaults(run=run_metrics)
    return top


def main():
    args = parser().parse_args()
    try:
        args.run(args)
    except InputError as e:
        fail(str(e))


if __name__ == "__main__":
    main()
