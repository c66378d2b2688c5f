#!/usr/bin/env python3
"""Writes the water clusters kmini's hf app ships: inputs/molecules/water-NNN.xyz.

Sizes 1, 3, 8 and 14 stand for the seeds' sw01..sw04 inputs (their geometries are not
published), 32 to 512 for today's GPUs. Every molecule is the water of DESIGN.md, O (0, 0,
0.1173), H (0, +-0.7572, -0.4692) Angstrom, rigidly rotated and moved; water-001 is that molecule
itself. One cluster grows from it, one molecule at a time, from a fixed seed, and water-N holds
its first N molecules, so the clusters nest. A molecule is placed at 2.75 to 3.0 Angstrom O-O from
a randomly chosen earlier one (a hydrogen-bond distance), in a random direction and orientation,
and kept only if its O is at least 2.6 Angstrom from every other O and each of its atoms at least
1.7 Angstrom from every atom of the others. Only random.Random(seed).random() is drawn, whose
sequence Python keeps stable across versions.

    scripts/make_water_clusters.py [--out DIR]     write the files
    scripts/make_water_clusters.py --check [DIR]    exit 1 unless the files there are what this
                                                    script writes and obey the distance rules
"""
import argparse
import math
import os
import random
import sys

SEED = 2012
SIZES = [1, 3, 8, 14, 32, 64, 128, 256, 512]
MONOMER = [("O", (0.0, 0.0, 0.1173)), ("H", (0.0, 0.7572, -0.4692)), ("H", (0.0, -0.7572, -0.4692))]
OO_RANGE = (2.75, 3.0)  # placement distance from the anchor's O
MIN_OO = 2.6
MIN_ATOM_PAIR = 1.7
TOLERANCE = 1e-5  # --check: coordinates are written to 6 decimals


def rotation(u1, u2, u3):
    """A uniformly random rotation matrix from three uniforms (Shoemake's quaternion)."""
    a, b = math.sqrt(1 - u1), math.sqrt(u1)
    q = (a * math.sin(2 * math.pi * u2), a * math.cos(2 * math.pi * u2),
         b * math.sin(2 * math.pi * u3), b * math.cos(2 * math.pi * u3))
    x, y, z, w = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


def distance(p, q):
    return math.sqrt(sum((a - b) ** 2 for a, b in zip(p, q)))


# Molecules whose Os are this far apart have no pair of atoms closer than MIN_ATOM_PAIR (each H
# lies at most OH from its O): their atoms need not be compared, which gives the same answers
# from 9x fewer distances.
OH = max(distance(MONOMER[0][1], position) for _, position in MONOMER)
FAR_OO = MIN_ATOM_PAIR + 2 * OH + 1e-6


def acceptable(molecule, others):
    for other in others:
        oo = distance(molecule[0][1], other[0][1])
        if oo < MIN_OO:
            return False
        if oo >= FAR_OO:
            continue
        for _, p in molecule:
            for _, q in other:
                if distance(p, q) < MIN_ATOM_PAIR:
                    return False
    return True


def grow(count):
    rng = random.Random(SEED)
    molecules = [[(element, position) for element, position in MONOMER]]
    while len(molecules) < count:
        anchor = molecules[int(rng.random() * len(molecules))][0][1]
        # A direction uniform on the sphere, a distance in OO_RANGE.
        cos_theta, phi = 2 * rng.random() - 1, 2 * math.pi * rng.random()
        sin_theta = math.sqrt(1 - cos_theta * cos_theta)
        r = OO_RANGE[0] + (OO_RANGE[1] - OO_RANGE[0]) * rng.random()
        oxygen = (anchor[0] + r * sin_theta * math.cos(phi),
                  anchor[1] + r * sin_theta * math.sin(phi), anchor[2] + r * cos_theta)
        turn = rotation(rng.random(), rng.random(), rng.random())
        origin = MONOMER[0][1]
        molecule = []
        for element, position in MONOMER:
            local = [position[i] - origin[i] for i in range(3)]
            moved = tuple(oxygen[i] + sum(turn[i][j] * local[j] for j in range(3)) for i in range(3))
            molecule.append((element, moved))
        if acceptable(molecule, molecules):
            molecules.append(molecule)
    return molecules


def xyz_text(molecules):
    n = len(molecules)
    lines = [str(3 * n),
             f"water cluster of {n} molecule{'s' if n > 1 else ''}, Angstrom; "
             f"scripts/make_water_clusters.py, seed {SEED}"]
    for molecule in molecules:
        for element, (x, y, z) in molecule:
            lines.append(f"{element} {x:12.6f} {y:12.6f} {z:12.6f}")
    return "\n".join(lines) + "\n"


def read_xyz(path):
    with open(path) as f:
        lines = f.read().splitlines()
    atoms = []
    for line in lines[2:2 + int(lines[0])]:
        element, *xyz = line.split()
        atoms.append((element, tuple(float(v) for v in xyz)))
    return atoms


def check(folder, cluster):
    problems = []
    for size in SIZES:
        path = os.path.join(folder, f"water-{size:03d}.xyz")
        if not os.path.isfile(path):
            problems.append(f"{path}: missing")
            continue
        atoms = read_xyz(path)
        expected = [atom for molecule in cluster[:size] for atom in molecule]
        if len(atoms) != len(expected) or any(
                a[0] != b[0] or distance(a[1], b[1]) > TOLERANCE for a, b in zip(atoms, expected)):
            problems.append(f"{path}: not what this script writes")
        molecules = [atoms[i:i + 3] for i in range(0, len(atoms), 3)]
        for i, molecule in enumerate(molecules):
            if not acceptable(molecule, molecules[:i]):
                problems.append(f"{path}: molecule {i + 1} too close to an earlier one")
    return problems


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    default = os.path.join(root, "inputs", "molecules")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=default, help="folder to write into")
    parser.add_argument("--check", nargs="?", const=default, metavar="DIR",
                        help="check the files in DIR instead of writing")
    args = parser.parse_args()
    cluster = grow(max(SIZES))
    if args.check:
        problems = check(args.check, cluster)
        for problem in problems:
            print("make_water_clusters.py: " + problem, file=sys.stderr)
        sys.exit(1 if problems else 0)
    os.makedirs(args.out, exist_ok=True)
    for size in SIZES:
        path = os.path.join(args.out, f"water-{size:03d}.xyz")
        with open(path, "w") as out:
            out.write(xyz_text(cluster[:size]))
        print(f"make_water_clusters.py: wrote {path}")


if __name__ == "__main__":
    main()
