"""What one warp-wide global access costs: the 32-byte sectors its lanes touch.

On Volta and later (the H100 included) the L1 splits a warp's global load or store into the
32-byte sectors its active lanes touch; Nsight Compute counts one request per warp instruction
and one sector per sector touched, so sectors / requests is what these functions predict. A
full warp reading consecutive 4-byte elements touches 4 sectors (8 for 8-byte, 16 for 16-byte
elements); lanes a row apart touch one sector each, 32 per request.
"""
from dataclasses import dataclass, field

SECTOR_BYTES = 32
LINE_BYTES = 128
WARP = 32


@dataclass
class WarpAccess:
    """One warp executing one global load or store instruction.

    addresses[lane] is the byte address lane `lane` accesses, or None where the lane is inactive
    (outside the domain, or predicated off); width is the bytes each lane moves.
    """
    label: str
    kind: str  # "ld" or "st"
    width: int
    addresses: list

    def active(self):
        """(lane, address) of the lanes that access memory."""
        return [(lane, a) for lane, a in enumerate(self.addresses) if a is not None]

    def sectors(self):
        """The sector indices (address // 32) the active lanes touch, sorted."""
        touched = set()
        for _, a in self.active():
            touched.update(range(a // SECTOR_BYTES, (a + self.width - 1) // SECTOR_BYTES + 1))
        return sorted(touched)

    def sector_count(self):
        return len(self.sectors())

    def is_issued(self):
        """A warp with no active lane skips the instruction: no request."""
        return any(a is not None for a in self.addresses)


def uniform_access(label, width, address=0):
    """A load every lane makes at one address (a table entry indexed by the step, say): one
    request, one sector."""
    return WarpAccess(label, "ld", width, [address] * WARP)


def ideal_sectors(width, lanes=WARP):
    """The fewest sectors `lanes` lanes of `width` bytes each can touch: consecutive and aligned."""
    return max(1, -(-(width * lanes) // SECTOR_BYTES))


@dataclass
class Tally:
    """Sectors and requests summed over many warp accesses, loads and stores apart, each access
    weighted by how often the kernel executes it."""
    sectors: dict = field(default_factory=lambda: {"ld": 0.0, "st": 0.0})
    requests: dict = field(default_factory=lambda: {"ld": 0.0, "st": 0.0})

    def add(self, access, times=1.0):
        if access.is_issued():
            self.sectors[access.kind] += times * access.sector_count()
            self.requests[access.kind] += times

    def per_request(self, kind):
        """Sectors per request for "ld" or "st", None where the kernel makes none."""
        return self.sectors[kind] / self.requests[kind] if self.requests[kind] else None
