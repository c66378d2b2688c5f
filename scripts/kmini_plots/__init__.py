"""Figures from kmini reports: scripts/plot.py's modules, one per figure kind.

report.py reads and checks the report files once, so that every figure sees the same plain
records; text.py and bars.py hold what several figures share (the printed tables, the grouped
bar chart); histogram.py, himeno.py, hf.py, bridge.py and scaling.py each know one figure.
"""
