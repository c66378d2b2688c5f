"""kmini's access-pattern report (seed 002): how well each kernel's global accesses coalesce.

Two halves meet here. Nsight Compute measures, per kernel, how many 32-byte sectors each warp-wide
global load or store touched (ncu_csv, table). Small Python models of kmini's own index
arithmetic predict the same number from the lane -> address map of one warp (coalescing, bridge,
himeno), and draw that map (picture): when prediction and measurement disagree, either the model
or the kernel has changed.
"""


class InputError(Exception):
    """Bad input the user must fix; the command line prints it as one line and exits 2."""
