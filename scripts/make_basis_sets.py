#!/usr/bin/env python3
"""Writes the basis sets kmini's hf app ships, inputs/basis/*.gbs, for H to Ar.

The numbers are published data: the Basis Set Exchange (Pritchard et al., J. Chem. Inf. Model. 59
(2019) 4814), read through its Python package `basis_set_exchange` (pip), in Gaussian94 format,
with Pople's SP shells kept as SP. Each file starts with comment lines (`!`) naming that source,
the package version, the function types the Exchange gives the basis (cc-pVDZ is defined over
spherical d functions, the Pople sets over Cartesian ones as well) and the basis' own reference,
so the files can be checked against it. A '*' of a basis name is "-star" in its file name
(6-31G* is 6-31g-star.gbs); the hf app selects each by its name in any letter case.

    pip install basis_set_exchange    # only to regenerate; kmini reads the shipped files
    scripts/make_basis_sets.py [--out DIR]
"""
import argparse
import os
import sys

BASES = {"sto-3g": "STO-3G", "6-31g": "6-31G", "6-31g-star": "6-31G*",
         "6-31g-star-star": "6-31G**", "cc-pvdz": "cc-pVDZ"}
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
        types = ", ".join(bse.get_metadata()[bse.misc.transform_basis_name(name)]["function_types"])
        lines = [
            f"! {name} for H-Ar, Gaussian94 format, from the Basis Set Exchange",
            f"! (https://www.basissetexchange.org), basis_set_exchange {bse.version()};",
            f"! function types there: {types}.",
            "! written by scripts/make_basis_sets.py. The basis' references:",
        ]
        lines += ["! " + line if line else "!" for line in reference.splitlines()]
        path = os.path.join(args.out, file_name + ".gbs")
        with open(path, "w") as out:
            out.write("\n".join(lines) + "\n\n" + body.lstrip("\n"))
        print(f"make_basis_sets.py: wrote {path}")


if __name__ == "__main__":
    main()
