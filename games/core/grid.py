"""Square-grid coordinates: columns are letters from the west, rows numbers from the north."""
from __future__ import annotations

import re
from functools import lru_cache

DIRS8: dict[str, tuple[int, int]] = {
    "N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
    "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1),
}
DIRS4: dict[str, tuple[int, int]] = {k: DIRS8[k] for k in ("N", "E", "S", "W")}
DIAGONALS: dict[str, tuple[int, int]] = {k: DIRS8[k] for k in ("NE", "SE", "SW", "NW")}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E", "NE": "SW", "SW": "NE", "SE": "NW", "NW": "SE"}

_LABEL = re.compile(r"^([A-Za-z]+)(\d+)$")


def col_letters(x: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA; a column west of the board (negative) has no letters ("", never an endless
    loop: -2 and below once looped for ever). Rules name squares on the map only."""
    if x < 0:
        return ""
    s = ""
    x += 1
    while x:
        x, rem = divmod(x - 1, 26)
        s = chr(65 + rem) + s
    return s


@lru_cache(maxsize=1 << 14)
def label(x: int, y: int) -> str:
    return f"{col_letters(x)}{y + 1}"


@lru_cache(maxsize=1 << 12)
def parse_label(text: str) -> tuple[int, int] | None:
    """'C4' -> (2, 3); None if it is not a square label."""
    m = _LABEL.match(text.strip())
    if not m:
        return None
    x = 0
    for ch in m.group(1).upper():
        x = x * 26 + (ord(ch) - 64)
    return x - 1, int(m.group(2)) - 1


def step_xy(xy: tuple[int, int], direction: str, n: int = 1) -> tuple[int, int]:
    dx, dy = DIRS8[direction]
    return xy[0] + dx * n, xy[1] + dy * n


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def manhattan(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])
