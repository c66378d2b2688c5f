#!/usr/bin/env python3
"""Seeded mutation fuzzing of kmini's input layer through `kmini check`.

Every shipped input (and a few --set values per input) is mutated the ways a hostile or careless
user would: bytes changed to YAML's special characters or to any byte, spans deleted, lines
duplicated or swapped, numbers made extreme, values nested, documents split, files cut short.
Each mutation must end with exit 0 or 2 within the time limit: never another status, a signal,
or a hang. A failing mutation is kept under SCRATCH/failures for the reproducer.

    fuzz_check.py KMINI INPUTS_DIR SCRATCH_DIR

KMINI_FUZZ_CASES (default 2000) sets the number of mutations, KMINI_FUZZ_SEED the seed: a longer
run is KMINI_FUZZ_CASES=100000.
"""
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

TIME_LIMIT_S = 20
SPECIAL = list(",:[]{}#&*!|>'\"%@`-?~\\ \t\n") + ["\r", "\x00", "\xff", "\u00e9"]
EXTREME = ["0", "-1", "1e308", "-1e308", "1e-320", "99999999999999999999", "2147483648",
           "9223372036854775808", ".nan", ".inf", "-.inf", "0x7fffffff", "1_000", "''", "~",
           "true", "[]", "{}", "[1, [2]]", "!!binary AAAA", "*alias", "&a x", "'100'", "\"true\""]
NUMBER = re.compile(rb"-?\d+(\.\d+)?([eE][-+]?\d+)?")


def mutate(text: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(9)
    if not text:
        return rng.choice(SPECIAL).encode()
    at = rng.randrange(len(text))
    if kind == 0:  # one byte to a YAML special character
        return text[:at] + rng.choice(SPECIAL).encode("utf-8", "surrogatepass") + text[at + 1:]
    if kind == 1:  # one byte to any byte
        return text[:at] + bytes([rng.randrange(256)]) + text[at + 1:]
    if kind == 2:  # a span deleted
        return text[:at] + text[at + rng.randrange(1, 40):]
    lines = text.split(b"\n")
    if kind == 3:  # a line duplicated, possibly many times
        i = rng.randrange(len(lines))
        lines[i:i] = [lines[i]] * rng.choice([1, 2, 50])
        return b"\n".join(lines)
    if kind == 4:  # two lines swapped
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)
    if kind == 5:  # a number made extreme
        numbers = list(NUMBER.finditer(text))
        if numbers:
            m = rng.choice(numbers)
            return text[:m.start()] + rng.choice(EXTREME).encode() + text[m.end():]
        return text + b"\n" + rng.choice(EXTREME).encode()
    if kind == 6:  # a value nested or repeated into a list
        i = rng.randrange(len(lines))
        key, colon, value = lines[i].partition(b":")
        if colon:
            value = value.strip() or b"x"
            lines[i] = key + b": " + rng.choice([b"[" + value + b"]", b"[[" + value + b"]]",
                                                 b"[" + b", ".join([value] * 60) + b"]",
                                                 b"{a: " + value + b"}"])
        return b"\n".join(lines)
    if kind == 7:  # documents split or a stray token where one starts
        i = rng.randrange(len(lines) + 1)
        lines[i:i] = [rng.choice([b"---", b"...", b",", b"--- ,", b"%YAML 1.2", b"? x"])]
        return b"\n".join(lines)
    return text[:at]  # cut short


def set_options(text: bytes, app: str, rng: random.Random) -> list:
    keys = re.findall(rb"^\s*-?\s*([a-z_]+):", text, re.M)
    keys = [k.decode() for k in keys if k not in (b"app", b"runs", b"label")] or ["repetitions"]
    value = rng.choice(EXTREME + ["", "=", "[", "a,b", "-5", "1e13"])
    return ["--set", f"{app}.{rng.choice(keys)}={value}"]


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 1
    kmini, inputs, scratch = Path(sys.argv[1]).resolve(), Path(sys.argv[2]), Path(sys.argv[3])
    cases = int(os.environ.get("KMINI_FUZZ_CASES", "2000"))
    rng = random.Random(int(os.environ.get("KMINI_FUZZ_SEED", "20261125")))
    shutil.rmtree(scratch, ignore_errors=True)
    # A copy of the shipped inputs, so that the mutations' relative paths still resolve.
    shutil.copytree(inputs, scratch / "inputs")
    sources = sorted(p for p in (scratch / "inputs").rglob("*.yaml"))
    failures = scratch / "failures"
    env = dict(os.environ, OMP_PROC_BIND="false", ASAN_OPTIONS="detect_leaks=0")
    bad = 0
    for case in range(cases):
        source = rng.choice(sources)
        text = source.read_bytes()
        for _ in range(rng.choice([1, 1, 2, 3])):
            text = mutate(text, rng)
        target = source.with_name(f".fuzz-{case}.yaml")
        target.write_bytes(text)
        app = re.search(rb"app: *([a-z]+)", source.read_bytes())
        args = [str(kmini), "check", str(target)]
        if rng.random() < 0.2 and app:
            args += set_options(text, app.group(1).decode(), rng)
        try:
            result = subprocess.run(args, capture_output=True, timeout=TIME_LIMIT_S, env=env)
            status = result.returncode
            problem = None if status in (0, 2) else f"exit {status}"
            detail = result.stderr.decode(errors="replace")[-2000:]
        except subprocess.TimeoutExpired:
            problem, detail = f"no exit within {TIME_LIMIT_S} s", ""
        if problem:
            bad += 1
            failures.mkdir(exist_ok=True)
            kept = failures / f"case-{case}.yaml"
            shutil.copy(target, kept)
            print(f"FAIL case {case} (from {source.name}, {' '.join(args[3:])}): {problem}\n"
                  f"  input kept as {kept}\n  {detail}", file=sys.stderr)
        target.unlink()
    print(f"{cases} mutations of {len(sources)} inputs, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
