"""hf: each G-build variant's speed-up over the baseline (seed 000's Fig. 9, and seed 001's
table against one CPU core).

One figure, hf-speedup.png: per molecule and basis (and device), one bar per variant. An hf
result's time is one G build from the converged density, so the speed-up is per G build.

The variants of one molecule are often spread over several runs and reports (the GPU variants in
one, the slow host ones in another), so results are grouped by what they computed, not by run:
same device, rank count, molecule, basis and swept point. The reference is the group's baseline
variant (`baseline: true`, the all-host `cpu`) wherever it ran, one that passed validation first;
with no baseline in the group the bars are relative to its first variant, and the table says so.
"""
import os

from .report import NoData, devices_line, distinct
from .speedup import SpeedupGroup, speedup_figure
from .text import point_text

SUMMARY = ("hf-speedup.png: each G-build variant's speed-up over the baseline (cpu) per molecule "
           "and basis (hf runs)")
OWN_KEYS = ("molecule", "atoms", "basis")


def hill_formula(atoms):
    """H2O from ['O 0 0 0.1', 'H ...', 'H ...']: carbon, hydrogen, then the rest by name."""
    counts = {}
    for atom in atoms:
        symbol = str(atom).split()[0]
        counts[symbol] = counts.get(symbol, 0) + 1
    first = [s for s in ("C", "H") if "C" in counts and s in counts]
    order = first + sorted(s for s in counts if s not in first)
    return "".join(s + (str(counts[s]) if counts[s] > 1 else "") for s in order)


def molecule_name(result):
    """The xyz file's name, or the formula of atoms given inline."""
    path = result.param("molecule")
    if path:
        return os.path.splitext(os.path.basename(str(path)))[0]
    atoms = result.run.input.get("atoms") or []
    return hill_formula([atoms] if isinstance(atoms, str) else atoms) or "molecule"


def group_key(result):
    report = result.report
    return (report.device, report.ranks, molecule_name(result), str(result.param("basis")),
            point_text(result.point, skip=OWN_KEYS))


def collect(reports):
    """{group key: [result, ...]} over every hf result, in report order."""
    grouped = {}
    for report in reports:
        for result in report.results("hf"):
            grouped.setdefault(group_key(result), []).append(result)
    return grouped


def columns(results):
    """(column name, result): the variant, with its report's file where it repeats."""
    seen, out = set(), []
    for result in results:
        name = result.variant
        if name in seen:
            name = f"{name} ({result.report.name})"
        seen.add(result.variant)
        out.append((name, result))
    return out


def reference_of(results):
    """(reference result, the table's words for it, a note on where it came from or None)."""
    baselines = [r for r in results if r.baseline and r.ran]
    if baselines:
        reference = next((r for r in baselines if not r.failed), baselines[0])
        text = f"{reference.variant} (baseline{', FAIL' if reference.failed else ''})"
    else:
        reference = next((r for r in results if r.ran), None)
        if reference is None:
            return None, "nothing ran", None
        text = f"{reference.variant} (no baseline ran)"
    runs = distinct(r.run for r in results)
    note = None
    if len(runs) > 1:  # say which variants came from where
        note = "from several runs: " + "; ".join(
            ", ".join(distinct(r.variant for r in results if r.run is run))
            + f" in '{run.label}' ({run.report.name})" for run in runs)
    return reference, text, note


def group_name(key, several_sources, several_ranks, separator):
    device, ranks, molecule, basis, rest = key
    name = f"{molecule} {basis} {rest}".strip()
    if several_sources:
        source = device + (f", {ranks} rank{'s' if ranks != 1 else ''}" if several_ranks else "")
        name += f"{separator}({source})"
    return name


def speedup_groups(reports):
    grouped = collect(reports)
    several_sources = len({key[:2] for key in grouped}) > 1
    several_ranks = len({key[1] for key in grouped}) > 1
    groups = []
    for key, results in grouped.items():
        reference, text, note = reference_of(results)
        label = group_name(key, several_sources, several_ranks, "\n")
        if reference is not None and not reference.baseline:
            label += f"\nover {reference.variant}"  # bars of another height scale than cpu's
        groups.append(SpeedupGroup(group_name(key, several_sources, several_ranks, " "), label,
                                   columns(results), reference, text, note))
    return groups


def reference_words(groups):
    """What the bars are relative to, for the title: the baseline, or the stand-in variants."""
    drawn = [group.reference for group in groups if group.reference is not None]
    baselines = distinct(r.variant for r in drawn if r.baseline)
    stand_ins = distinct(r.variant for r in drawn if not r.baseline)
    if not stand_ins:
        return f"the baseline, {', '.join(baselines)}"
    if not baselines:
        return f"{', '.join(stand_ins)} (no baseline variant ran)"
    return f"the baseline, {', '.join(baselines)}, else {', '.join(stand_ins)} where none ran"


def figures(reports):
    groups = speedup_groups(reports)
    if not groups:
        raise NoData("needs hf runs")
    contributing = distinct(result.report for group in groups for _, result in group.columns)
    title = (f"hf: speed-up per G build over {reference_words(groups)}; median times\n"
             + devices_line(contributing))
    table_title = ("hf: speed-up per G build = reference median time / variant median time, "
                   "recomputed from time_s.median ('-': not applicable, FAIL: failed validation)")
    figure = speedup_figure("hf-speedup", groups, title, table_title, "molecule, basis")
    if figure is None:
        raise NoData("needs hf runs with results that ran")
    return [figure]
