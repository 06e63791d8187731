"""Flat-topped hex coordinates (axial q, r) and their player-facing labels.

Labels follow the project convention: a column letter from the west and a row number
from the north. Columns are the hex columns; within a board, odd columns (counting
from the west edge) sit half a hex lower.
"""
from __future__ import annotations

from collections.abc import Iterable

from .grid import col_letters, parse_label

Hex = tuple[int, int]  # axial (q, r)

HEX_DIRS: dict[str, Hex] = {
    "N": (0, -1), "NE": (1, -1), "SE": (1, 0), "S": (0, 1), "SW": (-1, 1), "NW": (-1, 0),
}
HEX_OPPOSITE = {"N": "S", "S": "N", "NE": "SW", "SW": "NE", "SE": "NW", "NW": "SE"}


def add(a: Hex, b: Hex) -> Hex:
    return a[0] + b[0], a[1] + b[1]


def neighbor(h: Hex, direction: str) -> Hex:
    return add(h, HEX_DIRS[direction])


def neighbors(h: Hex) -> list[Hex]:
    return [add(h, d) for d in HEX_DIRS.values()]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hexagon(radius: int) -> list[Hex]:
    """All hexes within `radius` of the origin, sorted by (q, r)."""
    return sorted(
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)
    )


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes at exactly `radius` from `center`."""
    return [(center[0] + q, center[1] + r) for q, r in hexagon(radius) if distance((0, 0), (q, r)) == radius]


def direction_between(a: Hex, b: Hex) -> str | None:
    """The direction from a to an adjacent b, or None if not adjacent."""
    d = (b[0] - a[0], b[1] - a[1])
    for name, v in HEX_DIRS.items():
        if v == d:
            return name
    return None


class HexLabels:
    """Maps a board's hexes to labels like 'C4' and back (odd-q offset layout)."""

    def __init__(self, cells: Iterable[Hex]) -> None:
        cells = list(cells)
        self.qmin = min(q for q, _ in cells)
        raw = {h: self._offset(h) for h in cells}
        self.rmin = min(r for _, r in raw.values())
        self._to_label = {h: f"{col_letters(c)}{r - self.rmin + 1}" for h, (c, r) in raw.items()}
        self._from_label = {v: k for k, v in self._to_label.items()}

    def _offset(self, h: Hex) -> tuple[int, int]:
        # odd-q offset on the absolute column keeps each row a straight zig-zag line
        return h[0] - self.qmin, h[1] + (h[0] - (h[0] & 1)) // 2

    def label(self, h: Hex) -> str:
        return self._to_label[h]

    def parse(self, text: str) -> Hex | None:
        xy = parse_label(text)
        if xy is None:
            return None
        return self._from_label.get(text.strip().upper())

    def col_row(self, h: Hex) -> tuple[int, int]:
        """0-based column and row of a hex, for drawing."""
        c, r = self._offset(h)
        return c, r - self.rmin

    def __contains__(self, h: object) -> bool:
        return h in self._to_label
