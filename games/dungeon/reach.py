"""What the acting hero can reach and see in one state, worked out once for a whole listing of legal actions.

Listing the legal actions asks the same questions many times over: the range by route and the line of sight
from the hero to every enemy (once per attack style and per unique action) and to every other hero (heals,
assists). A `Reach` answers each question once for a state that does not change while it is used (build
a new one after any change). The answers are those of `sight.hero_can_target` and `hero_actions.heal_reach`,
which stay the reference; tests/dungeon/test_reach.py compares them over random play.

Ranges are read from masks of square numbers (x * height + y, as `sightmap`): per distance d up to the hero's
longest range, the squares within d of the hero by route (`near_masks`), so "is this enemy in range" is one AND
of its footprint's mask, with no table of distances built per square.
"""
from __future__ import annotations

from games.core.grid import label as sq_label

from .board import Board, Sq, _step_masks, board
from .data import content
from .sight import blockers, route, structures
from .state import DungeonState, HeroState, MonsterState
from .stats import hero_attributes, stat_line

# per (board, square, structures, range): `near_masks`. Exact (the search reads nothing else) and bounded: cleared
# when full, as the route tables are
_NEAR: dict[tuple[str, Sq, frozenset[Sq], int], tuple[int, ...]] = {}
NEAR_LIMIT = 4096


def near_masks(b: Board, at: Sq, structs: frozenset[Sq], limit: int) -> tuple[int, ...]:
    """Per distance d = 0 .. limit, the squares within d of `at` by route (`Board.route_table` with `structs` and
    `limit`: a square is in mask d just when the table gives it d or less), as masks of square numbers.

    The breadth-first search of `board._routes`, one ring of squares at a time, without its table: the legal
    list asks only whether a few footprints fall within a range."""
    key = (b.id, at, structs, limit)
    found = _NEAR.get(key)
    if found is None:
        moves, stop = _step_masks(b, structs)
        seen = ring = 1 << (at[0] * b.height + at[1])
        out = [seen]
        d = 0
        while d < limit:
            if ring:
                grow = ring & ~stop if d else ring  # a structure is reached, not passed through (a source may be one)
                new = 0
                for shift, allowed in moves:
                    m = grow & allowed
                    if m:
                        new |= m << shift if shift > 0 else m >> -shift
                ring = new & ~seen
                seen |= ring
            out.append(seen)
            d += 1
        if len(_NEAR) >= NEAR_LIMIT:
            _NEAR.clear()
        found = _NEAR[key] = tuple(out)
    return found


class Reach:
    """The hero `h`'s ranges and sight in `st`, asked once each (read while `st` stays as it is)."""

    def __init__(self, st: DungeonState, h: HeroState) -> None:
        self.st = st
        self.h = h
        self.at: Sq = (h.x, h.y)
        self.src: tuple[Sq, ...] = (self.at,)
        self.attrs = hero_attributes(h)
        b = self._board = board(st.dungeon)
        self._hgt = b.height
        self._from = h.x * b.height + h.y  # the hero's square number
        # range by route, from the hero's side: one search out to the longest range the hero has serves every
        # enemy and hero (routes run both ways alike; see `sight.route`), where asking from each target's side
        # would search anew from every model that moved
        c = content()
        s = stat_line(h)
        self.limit = max([c.rules.heal_range, *s.attacks.values(), *[c.unique[u].range for u in s.unique]])
        self._near = near_masks(b, self.at, structures(st), self.limit)
        # the enemies as `enemy_keys` lists them: (key, footprint mask, the monster or None for the spawn point),
        # made when first asked
        self._enemies: list[tuple[str, int, MonsterState | None]] | None = None
        self._found: dict[int, list[int]] = {}  # range -> the enemies (indices) in range and in sight
        self._vis: dict[int, bool] = {}  # enemy index -> line of sight
        self._hero_vis: dict[str, bool] = {}  # hero id -> line of sight
        self._blockers: dict[tuple[bool, bool], int] = {}  # (target small, target flies) -> blocking squares

    def _list(self) -> list[tuple[str, int, MonsterState | None]]:
        found = self._enemies
        if found is None:
            st, hgt = self.st, self._hgt
            kinds = content().monsters
            large = 3 | 3 << hgt  # a large base's four squares (`mfp`) from its anchor: n, n + 1, n + hgt, n + hgt + 1
            found = self._enemies = [(f"m{m.uid}", (large if kinds[m.kind].large else 1) << (m.x * hgt + m.y), m)
                                     for m in st.monsters]
            lv = st.levels[st.level]
            if lv.active and not lv.destroyed:
                x, y = self._board.spawns[st.level]
                found.append(("spawn", 1 << (x * hgt + y), None))
        return found

    @property
    def keys(self) -> list[str]:
        """The enemies' keys, in `enemy_keys` order."""
        return [k for k, _, _ in self._list()]

    def _fp(self, i: int) -> tuple[Sq, ...]:
        """Enemy i's footprint (`target_fp`)."""
        _, _, m = self._list()[i]
        if m is None:
            return (self._board.spawns[self.st.level],)
        x, y = m.x, m.y
        return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)) if content().monsters[m.kind].large else ((x, y),)

    def within(self, dst: tuple[Sq, ...], rng: int) -> bool:
        """Whether `dst` is within `rng` squares by route (`sight.route(st, hero, dst, rng) <= rng`)."""
        if rng > self.limit:  # beyond the searched reach: ask from the target's side
            return route(self.st, self.src, dst, rng) <= rng
        near, hgt = self._near[rng], self._hgt
        return any(near >> (x * hgt + y) & 1 for x, y in dst)

    def _in_range(self, i: int, rng: int) -> bool:
        if rng > self.limit:
            return self.within(self._fp(i), rng)
        return bool(self._list()[i][1] & self._near[rng])

    def _sees(self, i: int) -> bool:
        """`sight.sees` from the hero to enemy i (`target_attrs` for its attributes), asked once."""
        vis = self._vis.get(i)
        if vis is None:
            _, mask, m = self._list()[i]
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
            enemies = self._list()
            if rng > self.limit:
                found = [i for i in range(len(enemies)) if self._in_range(i, rng) and self._sees(i)]
            else:
                near = self._near[rng]
                found = [i for i, (_, mask, _) in enumerate(enemies) if mask & near and self._sees(i)]
            self._found[rng] = found
        return found

    def can_target(self, key: str, rng: int) -> bool:
        """Whether an offence action of range `rng` may aim at this enemy (`hero_can_target`'s verdict)."""
        i = self.keys.index(key)
        return self._in_range(i, rng) and self._sees(i)

    def targets(self, rng: int) -> list[str]:
        """The enemies an offence action of range `rng` may aim at, in `enemy_keys` order."""
        enemies = self._list()
        return [enemies[i][0] for i in self._hits(rng)]

    def labels(self, rng: int) -> list[str]:
        """`targets` as the squares a player names (`label`)."""
        enemies = self._list()
        return [self._label(enemies[i][2]) for i in self._hits(rng)]

    def _label(self, m: MonsterState | None) -> str:
        if m is None:
            return sq_label(*self._board.spawns[self.st.level])
        return sq_label(m.x, m.y)

    def label(self, key: str) -> str:
        """The square a player names to aim at this enemy (`sight.target_label`)."""
        return self._label(self._list()[self.keys.index(key)][2])

    def reaches_hero(self, t: HeroState, rng: int) -> bool:
        """Whether a heal or assist of range `rng` reaches hero `t` (`heal_reach`'s verdict)."""
        if t.id == self.h.id:
            return True
        if rng > self.limit:
            if route(self.st, self.src, ((t.x, t.y),), rng) > rng:
                return False
        elif not self._near[rng] >> (t.x * self._hgt + t.y) & 1:
            return False
        vis = self._hero_vis.get(t.id)
        if vis is None:
            vis = self._hero_vis[t.id] = self._sight((t.x * self._hgt + t.y,), hero_attributes(t))
        return vis
