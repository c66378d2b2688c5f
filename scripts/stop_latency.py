#!/usr/bin/env python3
"""Time how soon a signal stops `kmini run`: run it, signal it after each delay, time the exit.

    scripts/stop_latency.py [--kmini PATH] [--signal TERM|INT|HUP] [--report PATH]
                            --delays 1,3,6 -- INPUT [kmini run's other arguments]

For each delay (seconds after the start) it starts `kmini run INPUT ... --report PATH`, sends
the signal, waits for the exit, and prints one line: the delay, the exit status, the seconds
from the signal to the exit, and the run's last line of output before its report's path (the summary's verdict).
A run that ended before its signal is said to have. kmini's own output is discarded. The
report is written to PATH (a temporary file by default, removed after each run). Bad arguments
print one `stop_latency.py: error: ...` line and exit 2. docs/notes/stop-latency.md holds what
it measured.
"""
import argparse
import os
import signal
import subprocess
import tempfile
import threading
import time

SIGNALS = {"TERM": signal.SIGTERM, "INT": signal.SIGINT, "HUP": signal.SIGHUP}


def parse_delays(text):
    try:
        delays = [float(d) for d in text.split(",") if d.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a comma-separated list of seconds")
    if not delays or any(d < 0 for d in delays):
        raise argparse.ArgumentTypeError(f"'{text}': give one or more delays of 0 s or more")
    return delays


def default_kmini():
    here = os.path.dirname(os.path.abspath(__file__))
    for preset in ("cuda", "openmp"):
        path = os.path.join(here, "..", "build", preset, "kmini")
        if os.access(path, os.X_OK):
            return os.path.normpath(path)
    return "kmini"


def time_one(kmini, run_args, report, delay, signal_number):
    """Returns (status, seconds from the signal to the exit or None, last output line)."""
    process = subprocess.Popen([kmini, "run", *run_args, "--report", report],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = []
    reader = threading.Thread(
        target=lambda: lines.extend(l.decode(errors="replace").rstrip() for l in process.stdout))
    reader.start()
    sent = None
    try:
        process.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        sent = time.monotonic()
        process.send_signal(signal_number)
    status = process.wait()
    took = time.monotonic() - sent if sent is not None else None
    reader.join()
    # The summary's verdict (INTERRUPTED, VALID, ...) rather than the report's path after it.
    said = [l for l in lines if l.strip() and not l.startswith("report: ")]
    return status, took, said[-1] if said else ""


def main():
    parser = argparse.ArgumentParser(
        prog="stop_latency.py", description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--kmini", default=default_kmini(),
                        help="the kmini to run (default: build/cuda/kmini, else build/openmp/kmini)")
    parser.add_argument("--signal", choices=sorted(SIGNALS), default="TERM")
    parser.add_argument("--delays", type=parse_delays, required=True,
                        help="seconds after the start, comma-separated: 1,3,6")
    parser.add_argument("--report", help="where each run's report goes (default: a temporary file)")
    parser.add_argument("run_args", nargs="+", metavar="INPUT [ARGS]",
                        help="kmini run's input and other arguments")
    args = parser.parse_args()
    if not os.path.isfile(args.run_args[0]):
        parser.error(f"{args.run_args[0]}: no such input file")
    if args.report is not None and os.path.exists(args.report):
        parser.error(f"--report {args.report}: the file exists; each run would replace it")
    number = SIGNALS[args.signal]
    for delay in args.delays:
        with tempfile.TemporaryDirectory() as scratch:
            report = args.report or os.path.join(scratch, "report.yaml")
            try:
                status, took, last = time_one(args.kmini, args.run_args, report, delay, number)
            except OSError as e:
                parser.error(f"--kmini {args.kmini}: {e.strerror}")
            if args.report is not None and os.path.exists(args.report):
                os.remove(args.report)
        if took is None:
            print(f"{delay:g} s: ended before the signal, exit {status} | {last}")
        else:
            print(f"{delay:g} s: SIG{args.signal}, exit {status} {took:.2f} s later | {last}")


if __name__ == "__main__":
    main()
