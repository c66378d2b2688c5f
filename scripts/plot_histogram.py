#!/usr/bin/env python3
"""Plot histogram time versus number of bins from kmini reports (seed 000's Fig. 6/7).

    scripts/plot_histogram.py REPORT [REPORT ...] --out DIR

The histogram figure of scripts/plot.py alone, for the commands that already use this name:
DIR/histogram-<bin_type>.png per bin type, median time of one histogram against the number of
bins, one line per variant (per variant and device when several reports are given), and the
plotted numbers as a table per bin type, in ms. The drawing lives in
scripts/kmini_plots/histogram.py. Bad input prints one `plot_histogram.py: error: ...` line and
exits with status 2.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kmini_plots.cli import main  # noqa: E402  (after its folder is on the path)

if __name__ == "__main__":
    main(prog="plot_histogram.py", description=__doc__.splitlines()[0], kinds=("histogram",))
