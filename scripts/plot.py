#!/usr/bin/env python3
"""Draw the figures that kmini reports have data for, and print their numbers.

    scripts/plot.py REPORT [REPORT ...] --out DIR

Reads each REPORT (kmini's YAML, or its JSON) and writes into DIR a PNG for every figure the
reports can feed (`--help` lists them: histogram time against bins, himeno's gosa variants over
cpu_serial, hf's G-build variants over the baseline, bridge's GB/s against the copy ceiling, and
scaling over ranks when the reports ran at different rank counts, with the speed-up of hf's G
build and whole SCF). For each it prints
`wrote PATH` and the plotted numbers as a table; a figure kind without data gets a one-line note.
Bad input prints one `plot.py: error: ...` line and exits with status 2.
The figures live in scripts/kmini_plots/, one module each.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kmini_plots.cli import main  # noqa: E402  (after its folder is on the path)

if __name__ == "__main__":
    main(prog="plot.py", description=__doc__.splitlines()[0])
