#!/usr/bin/env python3
"""Writes PySCF reference RHF energies for the hf app's tests: tests/data/hf-pyscf-references.yaml.

For development only: it needs `pip install pyscf` (best in a virtual environment), and PySCF is
never a runtime or CI dependency of kmini; the tests read the YAML this script writes. Every
number comes from kmini's own inputs: the basis sets are read from inputs/basis/*.gbs (Gaussian94,
Basis Set Exchange data) by this script's own parser, Pople SP shells split into an s and a p
shell with their own coefficients, and the molecules from inputs/molecules/*.xyz (Angstrom,
neutral, closed shell). PySCF builds each Mole with unit='Angstrom' (its own Bohr constant,
pyscf.lib.param.BOHR, is written to the header) and cart=True for Cartesian functions (six d),
cart=False for spherical ones (five d), and runs RHF with conv_tol 1e-12, conv_tol_grad 1e-8,
exact four-centre integrals held in memory (no density fitting, no integral screening:
direct_scf off, direct_scf_tol 1e-16), then an internal stability analysis; a run that does not
converge, or whose wave function is not stable, stops the script with exit status 1.

Also printed, as a cross-check of the whole path: water-001 in 6-31G, whose NWChem energy is
-75.983974 hartree (Cartesian and spherical are the same basis there).

    python -m venv /tmp/pyscfenv && /tmp/pyscfenv/bin/pip install pyscf
    /tmp/pyscfenv/bin/python scripts/pyscf_references.py [--out FILE] [--molecules NAME ...]
"""
import argparse
import datetime
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MOLECULES = ["water-001", "ammonia", "methane", "hydrogen-fluoride", "formaldehyde", "water-008"]
BASES = {"6-31g*": "6-31g-star.gbs", "6-31g**": "6-31g-star-star.gbs", "cc-pvdz": "cc-pvdz.gbs",
         "6-31g": "6-31g.gbs"}
REFERENCE_BASES = ["6-31g*", "6-31g**", "cc-pvdz"]
CONVENTIONS = {"cartesian": True, "spherical": False}
NWCHEM_WATER_631G = -75.983974
ANGULAR = {"S": 0, "P": 1, "D": 2, "F": 3, "G": 4}


def parse_gbs(path):
    """Gaussian94 basis file -> {element: [[l, [exponent, coefficient], ...], ...]} for PySCF.

    An SP shell becomes an s and a p shell over the same exponents; a shell's scale factor
    multiplies its exponents by its square (Gaussian's convention; the shipped files have 1.00).
    """
    def number(text):
        return float(text.replace("D", "E").replace("d", "e"))

    lines = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("!"):
                lines.append(line)
    basis = {}
    i = 0
    while i < len(lines):
        if lines[i] == "****":
            i += 1
            continue
        element = lines[i].split()[0]
        element = element[0].upper() + element[1:].lower()
        if element in basis:
            raise ValueError(f"{path}: {element} twice")
        shells = []
        i += 1
        while lines[i] != "****":
            kind, nprim, scale = lines[i].split()[:3]
            nprim, scale = int(nprim), number(scale)
            rows = [[number(x) for x in lines[i + 1 + k].split()] for k in range(nprim)]
            i += 1 + nprim
            kind = kind.upper()
            if kind == "SP":
                if any(len(r) != 3 for r in rows):
                    raise ValueError(f"{path}: {element}: an SP row without three numbers")
                shells.append([0] + [[r[0] * scale ** 2, r[1]] for r in rows])
                shells.append([1] + [[r[0] * scale ** 2, r[2]] for r in rows])
            elif kind in ANGULAR:
                if any(len(r) != 2 for r in rows):
                    raise ValueError(f"{path}: {element}: a {kind} row without two numbers")
                shells.append([ANGULAR[kind]] + [[r[0] * scale ** 2, r[1]] for r in rows])
            else:
                raise ValueError(f"{path}: {element}: unknown shell type {kind}")
        basis[element] = shells
        i += 1
    return basis


def read_xyz(path):
    """xyz file (Angstrom) -> [(element, (x, y, z)), ...]."""
    with open(path) as f:
        lines = f.read().splitlines()
    count = int(lines[0].split()[0])
    atoms = []
    for line in lines[2:2 + count]:
        fields = line.split()
        element = fields[0][0].upper() + fields[0][1:].lower()
        atoms.append((element, tuple(float(x) for x in fields[1:4])))
    if len(atoms) != count:
        raise ValueError(f"{path}: {count} atoms announced, {len(atoms)} read")
    return atoms


def run_rhf(atoms, basis, cart, stability=True):
    """RHF energy, nuclear repulsion, number of functions, iterations, smallest overlap eigenvalue."""
    import numpy
    from pyscf import gto, scf

    mol = gto.Mole()
    mol.atom = [[e, xyz] for e, xyz in atoms]
    mol.unit = "Angstrom"
    mol.charge = 0
    mol.spin = 0
    mol.cart = cart
    mol.basis = {e: basis[e] for e, _ in atoms}
    mol.verbose = 0
    mol.max_memory = 16000
    mol.build()

    mf = scf.RHF(mol)
    mf.conv_tol = 1e-12
    mf.conv_tol_grad = 1e-8
    mf.direct_scf = False
    mf.direct_scf_tol = 1e-16
    mf.max_cycle = 200
    mf.incore_anyway = True
    energy = mf.kernel()
    if not mf.converged:
        raise RuntimeError("RHF did not converge")
    if stability:
        # internal stability: no lower RHF solution within reach of a second-order step
        stable = mf.stability(internal=True, external=False, return_status=True)[2]
        if not stable:
            raise RuntimeError("the RHF solution is not internally stable")
    smallest = float(numpy.linalg.eigvalsh(mol.intor("int1e_ovlp")).min())
    return float(energy), float(mol.energy_nuc()), int(mol.nao), smallest, mol


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0] + " Development only; needs `pip install pyscf`.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "hf-pyscf-references.yaml"),
                        help="YAML file to write (default: tests/data/hf-pyscf-references.yaml); "
                             "'-' writes nothing")
    parser.add_argument("--molecules", nargs="+", default=MOLECULES, metavar="NAME",
                        help="molecules (inputs/molecules/NAME.xyz); default: " + " ".join(MOLECULES))
    parser.add_argument("--no-stability", action="store_true",
                        help="skip the internal stability analysis")
    args = parser.parse_args()

    try:
        import pyscf
        from pyscf.lib import param
    except ImportError:
        print("error: this development script needs PySCF: pip install pyscf", file=sys.stderr)
        return 2
    version = pyscf.__version__

    bases = {name: parse_gbs(os.path.join(ROOT, "inputs", "basis", f)) for name, f in BASES.items()}
    geometries = {m: read_xyz(os.path.join(ROOT, "inputs", "molecules", m + ".xyz"))
                  for m in set(args.molecules) | {"water-001"}}

    try:
        water, enuc, nao, _, _ = run_rhf(geometries["water-001"], bases["6-31g"], True,
                                         not args.no_stability)
        water_sph = run_rhf(geometries["water-001"], bases["6-31g"], False, False)[0]
    except RuntimeError as e:
        print(f"error: water-001 6-31g: {e}", file=sys.stderr)
        return 1
    print(f"cross-check: water-001 6-31g RHF {water:.12f} (spherical {water_sph:.12f}), "
          f"NWChem {NWCHEM_WATER_631G:.6f}, difference {water - NWCHEM_WATER_631G:+.2e}")

    print(f"{'molecule':<18} {'basis':<8} {'functions':<10} {'energy':>20} {'nuclear rep.':>18} "
          f"{'nao':>5} {'min S eig':>10}")
    results = []
    for molecule in args.molecules:
        for basis in REFERENCE_BASES:
            for convention, cart in CONVENTIONS.items():
                try:
                    energy, enuc, nao, smallest, _ = run_rhf(geometries[molecule], bases[basis], cart,
                                                             not args.no_stability)
                except RuntimeError as e:
                    print(f"error: {molecule} {basis} {convention}: {e}", file=sys.stderr)
                    return 1
                print(f"{molecule:<18} {basis:<8} {convention:<10} {energy:20.12f} {enuc:18.12f} "
                      f"{nao:5d} {smallest:10.2e}", flush=True)
                results.append((molecule, basis, convention, energy, enuc, nao))

    if args.out == "-":
        return 0
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(f"# Reference RHF energies (hartree) from PySCF {version}, written by "
                "scripts/pyscf_references.py\n"
                "# from kmini's own inputs/basis/*.gbs files (Basis Set Exchange data) and "
                "inputs/molecules/*.xyz\n"
                "# (Angstrom). conv_tol 1e-12, exact four-centre integrals (no density fitting, "
                "no screening).\n"
                f"# Angstrom to bohr with PySCF's Bohr radius, pyscf.lib.param.BOHR = {param.BOHR!r} "
                "Angstrom.\n"
                "# functions: cartesian = PySCF cart=True (six d), spherical = cart=False (five d).\n"
                "# Development data: PySCF is not a dependency of kmini; regenerate with\n"
                "#   pip install pyscf && python3 scripts/pyscf_references.py\n"
                f"# Written {datetime.date.today().isoformat()}.\n")
        f.write(f'pyscf_version: "{version}"\n')
        f.write(f"bohr_angstrom: {param.BOHR!r}\n")
        f.write("cross_check:\n"
                "  molecule: water-001\n"
                "  basis: 6-31g\n"
                f"  energy: {water:.12f}\n"
                f"  nwchem_energy: {NWCHEM_WATER_631G:.6f}\n")
        f.write("geometries:  # Angstrom, as read from inputs/molecules/NAME.xyz\n")
        for molecule in args.molecules:
            f.write(f"  {molecule}:\n")
            for e, (x, y, z) in geometries[molecule]:
                f.write(f"    - [\"{e}\", {x:.6f}, {y:.6f}, {z:.6f}]\n")
        f.write("references:\n")
        for molecule, basis, convention, energy, enuc, nao in results:
            f.write(f"  - molecule: {molecule}\n"
                    f"    basis: {basis}\n"
                    f"    functions: {convention}\n"
                    f"    energy: {energy:.12f}\n"
                    f"    nuclear_repulsion: {enuc:.12f}\n"
                    f"    basis_functions: {nao}\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
