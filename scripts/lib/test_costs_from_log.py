#!/usr/bin/env python3
"""Writes tests/costs/openmp.txt and debug.txt, the test times a new build folder starts from
(tests/CMakeLists.txt), from what `bash .ci/run` printed: each stage's ctest lines

    12/415 Test #305: NAME .......   Passed   12.12 sec

in ctest's cost-data format ("NAME 1 SECONDS", longest first, then "---"). The log is the
record of one whole CI run, so that the times are those of CI's machine under CI's load.

    python3 scripts/lib/test_costs_from_log.py CI_LOG [REPOSITORY]
"""
import pathlib
import re
import sys

STAGES = {"openmp": "== tests (openmp)", "debug": "== tests (debug"}
LINE = re.compile(r"Test +#\d+: (\S+).*?\s(?:Passed|\*\*\*Failed|Failed)\s+([\d.]+) sec")


def stage_text(log: str, heading: str) -> str:
    start = log.find(heading)
    if start < 0:
        sys.exit(f"test_costs_from_log.py: no stage '{heading}' in the log")
    end = log.find("\n== ", start + len(heading))
    return log[start : end if end >= 0 else len(log)]


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    log = pathlib.Path(sys.argv[1]).read_text(errors="replace")
    root = pathlib.Path(sys.argv[2] if len(sys.argv) == 3 else ".")
    for preset, heading in STAGES.items():
        costs = {name: float(seconds) for name, seconds in LINE.findall(stage_text(log, heading))}
        if not costs:
            sys.exit(f"test_costs_from_log.py: no test times in the {preset} stage")
        lines = [f"{name} 1 {seconds:.1f}" for name, seconds in sorted(costs.items(), key=lambda c: -c[1])]
        target = root / "tests" / "costs" / f"{preset}.txt"
        target.write_text("\n".join(lines) + "\n---\n")
        print(f"{target}: {len(costs)} tests, {sum(costs.values()):.0f} test-seconds")


if __name__ == "__main__":
    main()
