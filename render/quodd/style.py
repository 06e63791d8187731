"""What every part of a Quodd board shares: the grid's measures, the tables of colours and names of features and
tokens, the palette, and the placing of squares and arrows (render/quodd/__init__.py draws the board with them)."""
from __future__ import annotations

import math

from games.core.grid import DIRS8
from render.common import GRID, INK, MUTED, PAPER, RGB, SEAT_COLORS, WHITE, Palette, Pen
from render.recap import COLOURS as RECAP_COLOURS
from render.recap import TEXT_PAIRS

from . import gadgets

Box = tuple[int, int, int, int]  # a square's pixels: left, top, right, bottom
CELL = 26  # the widest map (22 columns) is 620 px wide: a phone shows it at about its size (issue 18)
S = CELL / 34  # everything below was laid out for 34 px squares and scales with them
MARGIN = 24  # room for the row and column labels
CELL_TEXT = 14  # letters in squares: capitals 9 px tall when the widest map is shown 600 px wide
PHONE_W = 600  # the panel goes below the map unless map and panel fit in this width
PANEL = 420
CARD_W = 350  # one hero's card in the panel
HEADER_H = 58  # title and round; the status, world event and lineup lines come on top
LEGEND_ROW = 22
LEGEND_W = 262
RECAP_SIZE = 15


def u(v: float) -> int:
    """A length of the 34-px layout at the current scale."""
    return round(v * S)


def ts(v: float) -> int:
    """A text size of the 34-px layout, never below what a phone can read (`CELL_TEXT`)."""
    return max(CELL_TEXT, u(v))

ARROWS = {"^": "N", ">": "E", "v": "S", "<": "W"}

GROUND = (222, 214, 178)
FEATURE_FILL = {
    ".": GROUND, "O": (48, 40, 44), "^": (150, 200, 235), ">": (150, 200, 235), "v": (150, 200, 235),
    "<": (150, 200, 235), "@": (95, 150, 215), "R": (200, 232, 190), "s": (246, 233, 160), "D": (247, 190, 120),
    "w": (120, 175, 230),
}
FEATURE_NAMES = {
    ".": "ground", "O": "pit", "^": "water current (arrow = flow)", "@": "whirlpool", "R": "respawn point",
    "s": "start space", "D": "drop zone", "w": "water connection (letter)",
}
TOKEN_STYLE: dict[str, tuple[tuple[int, int, int], tuple[int, int, int], str]] = {
    # kind: (fill, text colour, glyph)
    "wall": ((120, 84, 60), (255, 255, 255), ""),
    "broken_wall": ((200, 170, 140), (90, 60, 40), "bw"),
    "impassable_up": ((40, 40, 48), (255, 90, 90), "IW"),
    "impassable_down": ((210, 205, 195), (60, 60, 70), "iw"),
    "tunnel": ((70, 55, 45), (255, 230, 180), "Tn"),
    "teleporter": ((150, 80, 200), (255, 255, 255), "Tp"),
    "super_teleporter": ((110, 40, 170), (255, 230, 90), "ST"),
    "spring": ((90, 170, 90), (255, 255, 255), "Sp"),
    "super_spring": ((40, 120, 40), (255, 240, 120), "SS"),
    "pit": ((48, 40, 44), (200, 200, 200), "Pt"),
    "q": ((255, 210, 60), (60, 40, 0), "Q"),
    "rearrange": ((255, 170, 60), (60, 30, 0), "Rs"),
    "switch": ((180, 180, 190), (30, 30, 35), "Sw"),
    "switch_colour": ((230, 190, 40), (30, 30, 35), "CS"),
    "trap_door": ((160, 120, 80), (255, 255, 255), "TD"),
    "trap_door_open": ((30, 25, 25), (230, 160, 90), "OT"),
    "secret": ((90, 90, 110), (255, 255, 255), "?"),
    "rally": ((245, 200, 40), (90, 40, 0), "#"),  # a gold flag: the move badges are red discs
    "drop_zone": ((240, 140, 60), (40, 20, 0), "DZ"),
    "explore": ((70, 140, 200), (255, 255, 255), "Ex"),
    "food": ((200, 120, 60), (255, 255, 255), "Fd"),
    "item": ((120, 120, 200), (255, 255, 255), "It"),
    "pet": ((200, 100, 160), (255, 255, 255), "Pe"),
    "rune": ((90, 60, 140), (255, 255, 255), "Ru"),
    "upgrade": ((230, 200, 60), (50, 40, 0), "Up"),
    "treasure": ((200, 160, 40), (255, 255, 255), "Tr"),
    # the living board's tokens reuse colour pairs above (the palette holds 256 colours)
    "cannon": ((40, 40, 48), (255, 90, 90), "Cn"),  # drawn with its barrel (`gadgets.cannon`)
    "bomb": ((30, 25, 25), (230, 160, 90), "Bm"),
    "rotate_board": ((70, 140, 200), (255, 255, 255), "RB"),
    "switch_rotate": ((180, 180, 190), (30, 30, 35), "SR"),
    "character": ((120, 120, 200), (255, 255, 255), "Ch"),
}
TOKEN_NAMES = {
    "wall": "wall", "broken_wall": "broken wall", "impassable_up": "impassable wall (up)",
    "impassable_down": "impassable wall (down)", "tunnel": "tunnel", "teleporter": "teleporter",
    "super_teleporter": "super teleporter", "spring": "spring", "super_spring": "super spring", "pit": "pit token",
    "q": "Q token", "rearrange": "rearrange skills", "switch": "switch", "switch_colour": "coloured switch",
    "trap_door": "trap door", "trap_door_open": "open trap door", "secret": "secret token", "rally": "rally marker",
    "drop_zone": "drop zone", "explore": "explore", "food": "food", "item": "item", "pet": "pet", "rune": "rune",
    "upgrade": "upgrade", "treasure": "treasure", "cannon": "cannon", "bomb": "bomb token (explodes)",
    "rotate_board": "rotate board token", "switch_rotate": "switch: rotate its platform/board",
    "character": "character token (hero joins)",
}
CRYSTAL = {"red": (220, 50, 60), "blue": (50, 110, 230), "green": (40, 170, 80)}
SKILL_SHORT = {"slide": "Sl", "diagonal": "Di", "dash": "Da", "tumble": "Tu", "jump": "Ju"}
SKILL_NAMES = {"slide": "Slide", "diagonal": "Diagonal Slide", "dash": "Dash", "tumble": "Tumble", "jump": "Jump"}
FACE_ORDER = ("front", "back", "left", "right", "feet")
UNKNOWN_TOKEN = ((128, 128, 128), (255, 255, 255), "")
# Every colour the image uses, and the (text, background) pairs whose anti-aliased edges it needs:
# the image is drawn straight in this palette, so encoding has nothing left to quantise.
PALETTE = Palette(
    [PAPER, GRID, INK, MUTED, WHITE, *SEAT_COLORS, *FEATURE_FILL.values(), (20, 80, 160), (230, 240, 255), (15, 10, 12),
     (40, 130, 50), (170, 80, 10), (70, 45, 30), (80, 55, 40), (120, 20, 20), (40, 40, 40), (20, 20, 20),
     (255, 0, 150), *CRYSTAL.values(), (180, 180, 200), *(c for f, i, _ in TOKEN_STYLE.values() for c in (f, i)),
     *UNKNOWN_TOKEN[:2], *RECAP_COLOURS, *gadgets.COLOURS],
    [(INK, PAPER), (MUTED, PAPER), ((40, 130, 50), FEATURE_FILL["R"]), ((150, 120, 30), FEATURE_FILL["s"]),
     ((140, 60, 0), FEATURE_FILL["D"]), (WHITE, FEATURE_FILL["w"]), (INK, FEATURE_FILL["R"]), (INK, FEATURE_FILL["D"]),
     *((WHITE, c) for c in SEAT_COLORS), (INK, WHITE), *((i, f) for f, i, _ in TOKEN_STYLE.values()),
     UNKNOWN_TOKEN[1::-1], *TEXT_PAIRS, *gadgets.TEXT_PAIRS],
)


def _xy(lab: str) -> tuple[int, int]:
    i = 0
    while lab[i].isalpha():
        i += 1
    x = 0
    for ch in lab[:i]:
        x = x * 26 + ord(ch) - 64
    return x - 1, int(lab[i:]) - 1


def _cell_box(x: int, y: int) -> Box:
    x0, y0 = MARGIN + x * CELL, MARGIN + y * CELL
    return x0, y0, x0 + CELL, y0 + CELL


def _box_of(lab: str) -> Box:
    return _cell_box(*_xy(lab))


def _arrow(d: Pen, cx: float, cy: float, direction: str, size: float, fill: RGB) -> None:
    ux, uy = DIRS8[direction]
    n = math.hypot(ux, uy)
    dx, dy = ux / n, uy / n
    px, py = -dy, dx
    tip = (cx + dx * size, cy + dy * size)
    base = (cx - dx * size * 0.6, cy - dy * size * 0.6)
    d.line([base, tip], fill=fill, width=max(2, u(3)))
    head = [tip, (tip[0] - dx * size * 0.6 + px * size * 0.45, tip[1] - dy * size * 0.6 + py * size * 0.45),
            (tip[0] - dx * size * 0.6 - px * size * 0.45, tip[1] - dy * size * 0.6 - py * size * 0.45)]
    d.polygon(head, fill=fill)
