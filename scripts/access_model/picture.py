"""Seed 002's thread -> address diagram, for one warp's one global access.

A panel is a grid: a row per lane (0 at the top), a column per 32-byte sector the warp touches,
in address order. A cell is shaded in the lane's colour where the lane touches the sector, and
the lane's own bytes are a solid bar inside it, so a coalesced access is a staircase through a
few adjacent sectors and a strided one a diagonal through as many sectors as lanes. Adjacent
sectors abut; a hatched break between columns is memory nobody touched (the axis labels give the
byte offsets). Thick lines mark 128-byte line boundaries.
"""
import matplotlib

matplotlib.use("Agg")  # no display on build machines and CI
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from .coalescing import LINE_BYTES, SECTOR_BYTES, WARP  # noqa: E402

GAP = 0.35  # width of the break between sectors that are not adjacent, in sector widths
MAX_TICKS = 24


def column_positions(sectors):
    """x of each touched sector's left edge: adjacent sectors abut, others leave a GAP."""
    positions, x = [], 0.0
    for n, sector in enumerate(sectors):
        if n and sector != sectors[n - 1] + 1:
            x += GAP
        positions.append(x)
        x += 1.0
    return positions


def lane_spans(access, column):
    """(lane, x0, x1) bars: each active lane's bytes as x in sector widths, split where they
    cross a sector boundary."""
    spans = []
    for lane, address in access.active():
        start, end = address, address + access.width
        while start < end:
            sector = start // SECTOR_BYTES
            stop = min(end, (sector + 1) * SECTOR_BYTES)
            x = column[sector] + (start % SECTOR_BYTES) / SECTOR_BYTES
            spans.append((lane, x, x + (stop - start) / SECTOR_BYTES))
            start = stop
    return spans


def lane_cells(access):
    """(lane, sector) pairs: which lane touches which sector."""
    cells = set()
    for lane, address in access.active():
        last = (address + access.width - 1) // SECTOR_BYTES
        cells.update((lane, sector) for sector in range(address // SECTOR_BYTES, last + 1))
    return cells


def draw_columns(ax, sectors, positions):
    """The sector columns, 128-byte line boundaries thick, and hatched breaks between
    non-adjacent sectors."""
    for n, (sector, x) in enumerate(zip(sectors, positions)):
        ax.add_patch(Rectangle((x, -0.5), 1.0, WARP, facecolor="white", edgecolor="#9aa5b1",
                               linewidth=0.6))
        if sector * SECTOR_BYTES % LINE_BYTES == 0:
            ax.plot([x, x], [-0.5, WARP - 0.5], color="#33414f", linewidth=1.6)
        if n and sector != sectors[n - 1] + 1:
            ax.add_patch(Rectangle((x - GAP, -0.5), GAP, WARP, facecolor="#eceff2",
                                   edgecolor="#9aa5b1", linewidth=0, hatch="////"))


def draw_panel(ax, access, title):
    """One access's lane x sector grid on `ax`: each (lane, sector) a lane touches shaded in the
    lane's colour, the lane's own bytes solid."""
    sectors = access.sectors()
    positions = column_positions(sectors)
    column = dict(zip(sectors, positions))
    colours = plt.get_cmap("viridis")
    draw_columns(ax, sectors, positions)
    for lane, sector in lane_cells(access):
        ax.add_patch(Rectangle((column[sector], lane - 0.5), 1.0, 1.0,
                               facecolor=colours(lane / WARP), alpha=0.3, edgecolor="none"))
    for lane, x0, x1 in lane_spans(access, column):
        ax.add_patch(Rectangle((x0, lane - 0.4), x1 - x0, 0.8, facecolor=colours(lane / WARP),
                               edgecolor="none"))
    ax.set_xlim(-0.2, positions[-1] + 1.2)
    ax.set_ylim(WARP - 0.5, -0.5)
    ax.set_yticks(range(0, WARP, 4))
    ax.set_ylabel("lane")
    step = max(1, -(-len(sectors) // MAX_TICKS))
    shown = list(range(0, len(sectors), step))
    ax.set_xticks([positions[n] + 0.5 for n in shown])
    base = sectors[0] * SECTOR_BYTES
    ax.set_xticklabels([f"+{sectors[n] * SECTOR_BYTES - base}" for n in shown], rotation=90,
                       fontsize=8)
    ax.set_xlabel("32-byte sectors touched, bytes from the first\n"
                  "(thick line: a 128-byte line starts; hatched: memory skipped)", fontsize=9)
    ax.set_title(title, fontsize=11)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def panel_title(name, access, ideal):
    """'<name>\\n<n> sectors/request (ideal <m>)'."""
    return f"{name}\n{access.sector_count()} sectors/request (ideal {ideal})"


def draw(panels, heading, path):
    """Writes a PNG at `path` with one panel per (access, ideal, name, note), side by side, each
    note under its panel."""
    fig, axes = plt.subplots(1, len(panels), figsize=(7.5 * len(panels), 7.4),
                             gridspec_kw={"wspace": 0.22})
    for ax, (access, ideal, name, _) in zip(axes, panels):
        draw_panel(ax, access, panel_title(name, access, ideal))
    fig.suptitle(heading, fontsize=12)
    fig.subplots_adjust(left=0.05, right=0.98, top=0.86, bottom=0.25)
    for ax, (_, _, _, note) in zip(axes, panels):
        fig.text(ax.get_position().x0, 0.02, note, va="bottom", ha="left", fontsize=9,
                 family="monospace")
    fig.savefig(path, dpi=110)
    plt.close(fig)
