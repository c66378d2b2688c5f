"""kmini reports read into plain records: Report, Run and Result.

Every figure reads the same fields (median time, validation, the swept point, the device), so
they are parsed and checked here once; a figure never looks into the raw YAML. A file that is
not a kmini report, or a report whose runs are malformed, raises PlotError naming the file.
"""
import json
import os

import yaml


class PlotError(Exception):
    """Bad input that the user must fix: the command line prints it as one line and exits 2."""


class NoData(Exception):
    """A figure kind has nothing to draw from these reports; the message says what it needs."""


def scalar(value):
    """An input parameter that was not swept: a plain value, or a list of one."""
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def optional_float(value):
    """A number from the report, or None where it is absent (JSON writes NaN as null)."""
    return None if value is None else float(value)


class Result:
    """One variant at one point of a run: what ran, how long it took, whether it validated."""

    def __init__(self, run, raw):
        self.run = run
        self.point = dict(raw.get("point") or {})
        self.variant = str(raw["variant"])
        self.baseline = bool(raw.get("baseline"))
        status = raw.get("status")
        if status is None and raw.get("time_s") is not None:
            status = "ran"  # reports from before results carried a status
        self.status = status
        self.median_s = optional_float((raw.get("time_s") or {}).get("median"))
        self.fom = optional_float((raw.get("fom") or {}).get("value"))
        self.bandwidth_GBps = optional_float(raw.get("bandwidth_GBps"))
        work = raw.get("work_per_repetition") or {}
        self.work = {k: optional_float(v) for k, v in work.items()}
        self.validation = (raw.get("validation") or {}).get("status")
        self.metrics = {name: optional_float(m.get("value"))
                        for name, m in (raw.get("metrics") or {}).items() if isinstance(m, dict)}

    @property
    def ran(self):
        """Ran and was timed: the only results a figure may draw."""
        return self.status == "ran" and self.median_s is not None

    @property
    def not_applicable(self):
        return self.status == "not_applicable"

    @property
    def failed(self):
        return self.validation == "FAIL"

    def param(self, name):
        """The parameter's value at this result: the swept point's, else the run's input."""
        if name in self.point:
            return self.point[name]
        return scalar(self.run.input.get(name))

    @property
    def report(self):
        return self.run.report


class Run:
    """One run of a report: its app, label, echoed input, figure of merit and results."""

    def __init__(self, report, raw):
        self.report = report
        self.app = str(raw.get("app"))
        self.label = str(raw.get("label") or self.app)
        self.input = dict(raw.get("input") or {})
        fom = raw.get("figure_of_merit") or {}
        self.fom_name = str(fom.get("name") or "figure of merit")
        self.fom_unit = str(fom.get("unit") or "")
        self.error = raw.get("error")
        self.results = [Result(self, r) for r in raw.get("results") or []]


class Report:
    """A report file: where it came from, the device and ranks it ran on, its copy ceiling."""

    def __init__(self, path, doc):
        self.path = path
        self.name = os.path.basename(path)
        meta = doc.get("meta") or {}
        self.device = str((meta.get("device") or {}).get("name") or "unknown device")
        self.ranks = int((meta.get("mpi") or {}).get("ranks") or 1)
        copy = ((doc.get("ceilings") or {}).get("copy")) or {}
        self.copy_ceiling_GBps = optional_float(copy.get("bandwidth_GBps"))
        self.runs = [Run(self, r) for r in doc["runs"]]

    def results(self, app):
        """Every result of this report's runs of app, in report order."""
        return [result for run in self.runs if run.app == app for result in run.results]


def load_document(path):
    """The file's content as YAML or JSON; PlotError where it cannot be read or parsed."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise PlotError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    if text.lstrip().startswith("{"):
        try:
            return json.loads(text)
        except ValueError:
            pass  # not JSON after all; YAML gets its turn and says what is wrong
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        # path:line:column and the problem alone; str(e) spans lines and names no file.
        mark = getattr(e, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else path
        problem = getattr(e, "problem", None) or " ".join(str(e).split())
        raise PlotError(f"{where}: not a kmini report: not YAML or JSON ({problem})") from None


def read_report(path):
    """The kmini report at path; PlotError unless it is one, with runs that can be read."""
    doc = load_document(path)
    if not isinstance(doc, dict) or "kmini_report" not in doc:
        raise PlotError(f"{path}: not a kmini report (no top-level 'kmini_report' key)")
    if not isinstance(doc.get("runs"), list):
        raise PlotError(f"{path}: not a kmini report (no 'runs' list)")
    try:
        return Report(path, doc)
    except KeyError as e:
        raise PlotError(f"{path}: malformed kmini report: a run or result lacks {e}") from None
    except (AttributeError, TypeError, ValueError) as e:
        raise PlotError(f"{path}: malformed kmini report: {e}") from None


def source_labels(reports):
    """What tells reports apart in labels: the device, its ranks where they differ, the file
    where that still repeats. Only the reports behind one figure count, so a figure drawn from
    one report carries no label at all beyond its title."""
    several_ranks = len({r.ranks for r in reports}) > 1
    labels = {}
    for report in reports:
        label = report.device
        if several_ranks:
            label += f", {report.ranks} rank" + ("s" if report.ranks != 1 else "")
        labels[report] = label
    counts = list(labels.values())
    for report in reports:
        if counts.count(labels[report]) > 1:
            labels[report] += f", {report.name}"
    return labels


def distinct(items):
    """items without repeats, in order of first appearance."""
    return list(dict.fromkeys(items))


def devices_line(reports):
    """The devices behind a figure, for its title."""
    return ", ".join(distinct(r.device for r in reports))


def points(run):
    """The run's results grouped by their point, points in report order."""
    grouped = {}
    for result in run.results:
        grouped.setdefault(json.dumps(result.point, sort_keys=True, default=str), []).append(result)
    return list(grouped.values())


def group_names(groups, describe, separator="\n"):
    """A name per group of results of one run and point: describe(first result), then the run's
    label where that repeats within a report, then the report's device (ranks, file) where
    several reports contribute. Names are no longer than they must be to tell groups apart."""
    names = [describe(results[0]) for results in groups]
    runs = [results[0].run for results in groups]
    keys = [(name, run.report) for name, run in zip(names, runs)]
    names = [f"{name} [{run.label}]" if keys.count(key) > 1 else name
             for name, run, key in zip(names, runs, keys)]
    reports = distinct(run.report for run in runs)
    if len(reports) > 1:
        sources = source_labels(reports)
        names = [f"{name}{separator}({sources[run.report]})" for name, run in zip(names, runs)]
    return names
