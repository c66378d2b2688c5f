#!/usr/bin/python3
"""Write Joe and Kuo's Sobol direction numbers, the file new-joe-kuo-6.21201, for the bridge app.

    scripts/make_sobol_table.py [--out PATH]      # default: inputs/sobol/new-joe-kuo-6.21201

The numbers are those of S. Joe and F. Y. Kuo, "Constructing Sobol sequences with better
two-dimensional projections", SIAM J. Sci. Comput. 30 (2008) 2635-2654, published on their web
page (https://web.maths.unsw.edu.au/~fkuo/sobol/) as the text file new-joe-kuo-6.21201: 21201
dimensions, 1 (van der Corput, which the file leaves out) to 21201. SciPy ships the same table,
converted to NumPy arrays, in scipy/stats/_sobol_direction_numbers.npz; Debian's python3-scipy
installs it, so the table can be rebuilt offline from a Debian package instead of being fetched.

In that file, row r of `poly` and `vinit` is dimension r + 1. `poly` is the primitive polynomial
x^s + a_1 x^(s-1) + ... + a_(s-1) x + 1 with its coefficients as bits, so its degree s is
poly.bit_length() - 1 and Joe and Kuo's "a" (a_1 ... a_(s-1), a_1 the most significant bit) is
the middle s - 1 bits; vinit[r, :s] are the initial direction numbers m_1 ... m_s.

The output reproduces the published file byte for byte (its layout included: fields padded with
spaces to 8 columns, each m_i followed by one space); the script checks this against the
published file's SHA-256 and writes nothing when the two differ. The numbers are Joe and Kuo's
and carry their BSD-style licence: see inputs/sobol/README.md.

Needs /usr/bin/python3 with NumPy and Debian's python3-scipy (for the .npz only).
Errors print one `make_sobol_table.py: error: ...` line and exit with status 2.
"""
import argparse
import hashlib
import os
import sys

PROG = "make_sobol_table.py"
SCIPY_TABLE = "/usr/lib/python3/dist-packages/scipy/stats/_sobol_direction_numbers.npz"
DIMENSIONS = 21201
# SHA-256 of new-joe-kuo-6.21201 as Joe and Kuo publish it (1887612 bytes).
PUBLISHED_SHA256 = "68eedd2a4e3b659b9695e7aff0f8ac68718bcf620730fc3d3a8c65df2a067441"
HEADER = "d       s       a       m_i     \n"


def fail(message):
    """One line on stderr and exit 2: a missing package is the user's to fix, a traceback would
    not help."""
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(2)


def default_out():
    repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(repository, "inputs", "sobol", "new-joe-kuo-6.21201")


def load_scipy_table(path):
    try:
        import numpy as np
    except ImportError:
        fail(f"{sys.executable} has no NumPy; run the script with /usr/bin/python3 "
             "(Debian's python3-numpy)")
    if not os.path.isfile(path):
        fail(f"{path} does not exist; it comes with Debian's python3-scipy "
             "(apt-get install python3-scipy)")
    with np.load(path) as table:
        if "poly" not in table.files or "vinit" not in table.files:
            fail(f"{path} lacks the arrays 'poly' and 'vinit' (it has {', '.join(table.files)})")
        return table["poly"].tolist(), table["vinit"].tolist()


def field(value):
    """A column as the published file has it: left-aligned in 8 characters."""
    return f"{value:<7} "


def table_text(poly, vinit):
    if len(poly) != DIMENSIONS or len(vinit) != DIMENSIONS:
        fail(f"expected {DIMENSIONS} dimensions in {SCIPY_TABLE}, found {len(poly)}")
    lines = [HEADER]
    # Row 0 is van der Corput's dimension, which the published file leaves implicit.
    for row in range(1, DIMENSIONS):
        degree = poly[row].bit_length() - 1
        coefficients = (poly[row] >> 1) & ((1 << (degree - 1)) - 1)
        initial = "".join(f"{m} " for m in vinit[row][:degree])
        lines.append(field(row + 1) + field(degree) + field(coefficients) + initial + "\n")
    return "".join(lines).encode("ascii")


def main():
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=default_out(),
                        help="where to write the table (default: %(default)s)")
    args = parser.parse_args()

    text = table_text(*load_scipy_table(SCIPY_TABLE))
    digest = hashlib.sha256(text).hexdigest()
    if digest != PUBLISHED_SHA256:
        fail(f"the table built from {SCIPY_TABLE} has SHA-256 {digest}, not the published "
             f"file's {PUBLISHED_SHA256}; nothing written")

    directory = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(directory, exist_ok=True)
    # Written beside the target and renamed, so an interrupted run leaves no half table.
    temporary = args.out + ".tmp"
    try:
        with open(temporary, "wb") as out:
            out.write(text)
        os.replace(temporary, args.out)
    except OSError as error:
        fail(f"cannot write {args.out}: {error.strerror}")
    print(f"wrote {args.out}: {DIMENSIONS} dimensions, {len(text)} bytes, SHA-256 {digest}")


if __name__ == "__main__":
    main()
