#!/usr/bin/env python3
"""Writes the basis sets kmini's hf app ships, inputs/basis/{sto-3g,6-31g}.gbs, for H to Ar.

The numbers are published data: the Basis Set Exchange (Pritchard et al., J. Chem. Inf. Model. 59
(2019) 4814), read through its Python package `basis_set_exchange` (pip), in Gaussian94 format,
with Pople's SP shells kept as SP. Each file starts with comment lines (`!`) naming that source,
the package version and the basis' own reference, so the files can be checked against it.

    pip install basis_set_exchange    # only to regenerate; kmini reads the shipped files
    scripts/make_basis_sets.py [--out DIR]
"""
import argparse
import os
import sys

BASES = {"sto-3g": "STO-3G", "6-31g": "6-31G"}
ELEMENTS = list(range(1, 19))  # H to Ar


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(root, "inputs", "basis"),
                        help="folder to write into (default: inputs/basis)")
    args = parser.parse_args()
    try:
        import basis_set_exchange as bse
    except ImportError:
        sys.exit("make_basis_sets.py: needs the basis_set_exchange package: "
                 "pip install basis_set_exchange")
    os.makedirs(args.out, exist_ok=True)
    for file_name, name in BASES.items():
        body = bse.get_basis(name, elements=ELEMENTS, fmt="gaussian94", header=False)
        reference = bse.get_references(name, elements=ELEMENTS, fmt="txt").strip()
        lines = [
            f"! {name} for H-Ar, Gaussian94 format, from the Basis Set Exchange",
            f"! (https://www.basissetexchange.org), basis_set_exchange {bse.version()};",
            "! written by scripts/make_basis_sets.py. The basis' references:",
        ]
        lines += ["! " + line if line else "!" for line in reference.splitlines()]
        path = os.path.join(args.out, file_name + ".gbs")
        with open(path, "w") as out:
            out.write("\n".join(lines) + "\n\n" + body.lstrip("\n"))
        print(f"make_basis_sets.py: wrote {path}")


if __name__ == "__main__":
    main()
