"""The Heroball field (house layout): a radius-6 hexagon with a centre post, six pillars and corner goals."""
from __future__ import annotations

from functools import cache

from games.core.hexgrid import HEX_DIRS, Hex, HexLabels, direction_between, distance, hexagon

from .data import CORNERS


class Board:
    """Label-based geometry: the state stores hex labels, this answers distance and neighbour questions."""

    def __init__(self, radius: int, pillar_distance: int) -> None:
        self.radius = radius
        self.cells: list[Hex] = hexagon(radius)
        self.names = HexLabels(self.cells)
        self.labels: list[str] = [self.names.label(h) for h in self.cells]
        self._hex = {lab: h for lab, h in zip(self.labels, self.cells, strict=True)}
        self.centre = self.names.label((0, 0))
        self.pillars = frozenset(self.names.label((dq * pillar_distance, dr * pillar_distance))
                                 for dq, dr in HEX_DIRS.values())
        self.corner = {c: self.names.label((dq * radius, dr * radius))
                       for c, (dq, dr) in zip(CORNERS, HEX_DIRS.values(), strict=True)}
        self._nbrs: dict[str, tuple[str, ...]] = {}
        for lab, h in self._hex.items():
            near = ((h[0] + d[0], h[1] + d[1]) for d in HEX_DIRS.values())
            self._nbrs[lab] = tuple(self.names.label(n) for n in near if n in self.names)
        # every distance and every goal tile, worked out once (asked thousands of times per game)
        self._dist = {a: {b: distance(ha, hb) for b, hb in self._hex.items()} for a, ha in self._hex.items()}
        self._goal: dict[str, tuple[str, ...]] = {}
        self._within: dict[tuple[str, int, int], tuple[str, ...]] = {}
        self._toward: dict[tuple[str, str, int], str | None] = {}  # on the board only: labels are checked

    def hex(self, label: str) -> Hex:
        return self._hex[label]

    def parse(self, text: str) -> str | None:
        h = self.names.parse(text)
        return None if h is None else self.names.label(h)

    def neighbors(self, label: str) -> tuple[str, ...]:
        return self._nbrs[label]

    def dist(self, a: str, b: str) -> int:
        return self._dist[a][b]

    def within(self, label: str, lo: int, hi: int) -> list[str]:
        key = (label, lo, hi)
        found = self._within.get(key)
        if found is None:
            h = self._hex[label]
            found = self._within[key] = tuple(lab for lab, c in self._hex.items() if lo <= distance(h, c) <= hi)
        return list(found)

    def toward(self, label: str, direction: str, n: int = 1) -> str | None:
        key = (label, direction, n)
        if key in self._toward:
            return self._toward[key]
        d = HEX_DIRS.get(direction.upper())
        if d is None:
            return None
        h = self._hex[label]
        t = (h[0] + d[0] * n, h[1] + d[1] * n)
        found = self._toward[key] = self.names.label(t) if t in self.names else None
        return found

    def direction(self, a: str, b: str) -> str | None:
        return direction_between(self._hex[a], self._hex[b])

    def goal(self, corner: str) -> list[str]:
        """The 3-hex goal tile: the corner and its two neighbours on the rim."""
        found = self._goal.get(corner)
        if found is None:
            c = self.corner[corner]
            rim = [n for n in self.neighbors(c) if distance((0, 0), self._hex[n]) == self.radius]
            found = self._goal[corner] = (c, *sorted(rim))
        return list(found)


@cache
def board(radius: int = 6, pillar_distance: int = 3) -> Board:
    return Board(radius, pillar_distance)
