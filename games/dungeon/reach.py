"""What the acting hero can reach and see in one state, worked out once for a whole listing of legal actions.

Listing the legal actions asks the same questions many times over: the range by route and the line of sight
from the hero to every enemy (once per attack style and per unique action) and to every other hero (heals,
assists). A `Reach` answers each question once for a state that does not change while it is used (build
a new one after any change). The answers are those of `sight.hero_can_target` and `hero_actions.heal_reach`,
which stay the reference; tests/dungeon/test_reach.py compares them over random play.

Ranges are read from masks of square numbers (x * height + y, as `sightmap`): per distance d, the squares within
d of the hero by route (`Near`, searched only as far as the ranges asked), so "is this enemy in range" is one AND
of its footprint's mask, with no table of distances built per square.
"""
from __future__ import annotations

from games.core.grid import label as sq_label

from .board import Board, Sq, _step_masks, board, next_ring
from .data import content
from .sight import blockers, structures
from .state import DungeonState, HeroState, MonsterState
from .stats import KIND_SQUARE, hero_attributes, large_kinds


class Near:
    """The squares within 0, 1, 2, ... of square `at` by route (`Board.route_table` with `structs`: a square is in
    `upto(d)` just when the table gives it d or less), as masks of square numbers, searched as far as asked.

    The breadth-first search of `board._routes` (`board.next_ring`), one ring at a time, without its table. Shared
    between listings (`near`): what it holds depends only on the board, the square and the structures."""

    __slots__ = ("masks", "ring", "moves", "stop")

    def __init__(self, b: Board, at: Sq, structs: frozenset[Sq]) -> None:
        self.moves, self.stop = _step_masks(b, structs)
        first = 1 << (at[0] * b.height + at[1])
        self.masks = [first]  # per distance d, the squares within d
        self.ring = first  # the squares at the farthest distance searched (0: nothing more to reach)

    def upto(self, rng: int) -> int:
        """The squares within `rng`."""
        masks = self.masks
        while len(masks) <= rng:
            ring = self.ring
            if not ring:
                return masks[-1]
            seen = masks[-1]
            self.ring = ring = next_ring(ring, seen, self.moves, self.stop, len(masks) == 1)
            masks.append(seen | ring)
        return masks[rng]


# per (board, square, structures): its `Near`. Exact (the search reads nothing else) and bounded: cleared when full
_NEAR: dict[tuple[str, Sq, frozenset[Sq]], Near] = {}
NEAR_LIMIT = 4096


def near(b: Board, at: Sq, structs: frozenset[Sq]) -> Near:
    key = (b.id, at, structs)
    found = _NEAR.get(key)
    if found is None:
        if len(_NEAR) >= NEAR_LIMIT:
            _NEAR.clear()
        found = _NEAR[key] = Near(b, at, structs)
    return found


class Reach:
    """The hero `h`'s ranges and sight in `st`, asked once each (read while `st` stays as it is)."""

    def __init__(self, st: DungeonState, h: HeroState) -> None:
        self.st = st
        self.h = h
        self.at: Sq = (h.x, h.y)
        self.attrs = hero_attributes(h)
        b = self._board = board(st.dungeon)
        self._hgt = b.height
        self._from = h.x * b.height + h.y  # the hero's square number
        # range by route, from the hero's side: one search serves every enemy and hero (routes run both ways alike;
        # see `sight.route`), where asking from each target's side would search anew from every model that moved
        self._near = near(b, self.at, structures(st))
        # the enemies as `enemy_keys` lists them: (footprint mask, the monster or None for the spawn point), made
        # when first asked
        self._enemies: list[tuple[int, MonsterState | None]] | None = None
        self._found: dict[int, list[int]] = {}  # range -> the enemies (indices) in range and in sight
        self._vis: dict[int, bool] = {}  # enemy index -> line of sight
        self._hero_vis: dict[str, bool] = {}  # hero id -> line of sight
        self._blockers: dict[tuple[bool, bool], int] = {}  # (target small, target flies) -> blocking squares

    def _list(self) -> list[tuple[int, MonsterState | None]]:
        found = self._enemies
        if found is None:
            st, hgt = self.st, self._hgt
            large = large_kinds()
            base = 3 | 3 << hgt  # a large base's four squares (`mfp`) from its anchor: n, n + 1, n + hgt, n + hgt + 1
            monsters = st.monsters
            found = self._enemies = [((base if kind in large else 1) << (x * hgt + y), m)
                                     for (kind, x, y), m in zip(map(KIND_SQUARE, monsters), monsters, strict=True)]
            lv = st.levels[st.level]
            if lv.active and not lv.destroyed:
                x, y = self._board.spawns[st.level]
                found.append((1 << (x * hgt + y), None))
        return found

    @property
    def keys(self) -> list[str]:
        """The enemies' keys, in `enemy_keys` order."""
        return [f"m{m.uid}" if m is not None else "spawn" for _, m in self._list()]

    def _fp(self, i: int) -> tuple[Sq, ...]:
        """Enemy i's footprint (`target_fp`)."""
        _, m = self._list()[i]
        if m is None:
            return (self._board.spawns[self.st.level],)
        x, y = m.x, m.y
        return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)) if m.kind in large_kinds() else ((x, y),)

    def within(self, dst: tuple[Sq, ...], rng: int) -> bool:
        """Whether `dst` is within `rng` squares by route (`sight.route(st, hero, dst, rng) <= rng`)."""
        near, hgt = self._near.upto(rng), self._hgt
        return any(near >> (x * hgt + y) & 1 for x, y in dst)

    def _sees(self, i: int) -> bool:
        """`sight.sees` from the hero to enemy i (`target_attrs` for its attributes), asked once."""
        vis = self._vis.get(i)
        if vis is None:
            mask, m = self._list()[i]
            attrs = content().monsters[m.kind].attributes if m is not None else ()
            if mask & (mask - 1):  # a large base
                vis = self._sight(self._board.numbers(self._fp(i)), attrs)
            else:
                vis = self._sight((mask.bit_length() - 1,), attrs)
            self._vis[i] = vis
        return vis

    def _sight(self, dst: tuple[int, ...], dst_attrs: set[str] | tuple[str, ...]) -> bool:
        """`sight.sees` from the hero to the squares numbered `dst`, with the blocking squares worked out once per
        kind of target (they depend on it only by size and flight)."""
        kind = ("small" in dst_attrs, "fly" in dst_attrs)
        block = self._blockers.get(kind)
        if block is None:
            block = self._blockers[kind] = blockers(self.st, "heroes", self.attrs, dst_attrs)
        table = self._board.sight_table
        a = self._from
        if len(dst) == 1:  # `SightTable.sight`'s one square to one square, asked directly
            n = dst[0]
            return a == n or table.sees(a, n, block & ~((1 << a) | (1 << n)), "ghost" in self.attrs)
        return table.sight((a,), dst, block, "ghost" in self.attrs)

    def _hits(self, rng: int) -> list[int]:
        """The enemies (indices) an offence action of range `rng` may aim at, in `enemy_keys` order."""
        found = self._found.get(rng)
        if found is None:
            near = self._near.upto(rng)
            found = self._found[rng] = [i for i, (mask, _) in enumerate(self._list()) if mask & near and self._sees(i)]
        return found

    def can_target(self, key: str, rng: int) -> bool:
        """Whether an offence action of range `rng` may aim at this enemy (`hero_can_target`'s verdict)."""
        i = self.keys.index(key)
        return bool(self._list()[i][0] & self._near.upto(rng)) and self._sees(i)

    def targets(self, rng: int) -> list[str]:
        """The enemies an offence action of range `rng` may aim at, in `enemy_keys` order."""
        keys = self.keys
        return [keys[i] for i in self._hits(rng)]

    def labels(self, rng: int) -> list[str]:
        """`targets` as the squares a player names (`label`)."""
        enemies = self._list()
        return [self._label(enemies[i][1]) for i in self._hits(rng)]

    def _label(self, m: MonsterState | None) -> str:
        if m is None:
            return sq_label(*self._board.spawns[self.st.level])
        return sq_label(m.x, m.y)

    def label(self, key: str) -> str:
        """The square a player names to aim at this enemy (`sight.target_label`)."""
        return self._label(self._list()[self.keys.index(key)][1])

    def reaches_hero(self, t: HeroState, rng: int) -> bool:
        """Whether a heal or assist of range `rng` reaches hero `t` (`heal_reach`'s verdict)."""
        if t.id == self.h.id:
            return True
        n = t.x * self._hgt + t.y
        if not self._near.upto(rng) >> n & 1:
            return False
        vis = self._hero_vis.get(t.id)
        if vis is None:
            vis = self._hero_vis[t.id] = self._sight((n,), hero_attributes(t))
        return vis


