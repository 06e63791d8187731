"""What the acting hero can reach and see in one state, worked out once for a whole listing of legal actions.

Listing the legal actions asks the same questions many times over: the range by route and the line of sight
from the hero to every enemy (once per attack style and per unique action) and to every other hero (heals,
assists). A `Reach` answers each question once for a state that does not change while it is used (build
a new one after any change). The answers are those of `sight.hero_can_target` and `hero_actions.heal_reach`,
which stay the reference; tests/dungeon/test_reach.py compares them over random play.
"""
from __future__ import annotations

from games.core.grid import label as sq_label

from .board import Sq, board
from .data import content
from .sight import blockers, route, structures, target_attrs
from .state import DungeonState, HeroState
from .stats import hero_attributes, stat_line


class Reach:
    """The hero `h`'s ranges and sight in `st`, asked once each (read while `st` stays as it is)."""

    def __init__(self, st: DungeonState, h: HeroState) -> None:
        self.st = st
        self.h = h
        self.at: Sq = (h.x, h.y)
        self.src: tuple[Sq, ...] = (self.at,)
        self.attrs = hero_attributes(h)
        self._board = board(st.dungeon)
        self._structures = structures(st)
        # the enemies as `enemy_keys` lists them, with their footprints (`target_fp`)
        self.fps: dict[str, tuple[Sq, ...]] = {}
        kinds = content().monsters
        for m in st.monsters:  # `mfp` written out
            x, y = m.x, m.y
            self.fps[f"m{m.uid}"] = ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)) if kinds[m.kind].large \
                else ((x, y),)
        lv = st.levels[st.level]
        if lv.active and not lv.destroyed:
            self.fps["spawn"] = (self._board.spawns[st.level],)
        self.keys = list(self.fps)
        # range by route, from the hero's side: one search out to the longest range the hero has serves every
        # enemy and hero (routes run both ways alike; see `sight.route`), where asking from each target's side
        # would search anew from every model that moved
        c = content()
        s = stat_line(h)
        self.limit = max([c.rules.heal_range, *s.attacks.values(), *(c.unique[u].range for u in s.unique)])
        self._table = self._board.route_table(self.src, self._structures, self.limit)
        self._dist: dict[str, int] = {}  # enemy key -> route distance
        self._dists: list[tuple[str, int]] | None = None  # (enemy key, route distance) of every enemy, in order
        self._sight: dict[str, bool] = {}  # enemy key or "h:<hero id>" -> line of sight
        self._labels: dict[str, str] = {}
        self._blockers: dict[tuple[bool, bool], int] = {}  # (target small, target flies) -> blocking squares

    def within(self, dst: tuple[Sq, ...], rng: int) -> bool:
        """Whether `dst` is within `rng` squares by route (`sight.route(st, hero, dst, rng) <= rng`)."""
        if rng > self.limit:  # beyond the searched reach: ask from the target's side
            return route(self.st, self.src, dst, rng) <= rng
        table = self._table
        if len(dst) == 1:  # a hero's square, most often
            return table.get(dst[0], 999) <= rng
        return min((table[s] for s in dst if s in table), default=999) <= rng

    def can_target(self, key: str, rng: int) -> bool:
        """Whether an offence action of range `rng` may aim at this enemy (`hero_can_target`'s verdict)."""
        if rng <= self.limit:
            d = self._dist.get(key)
            if d is None:
                table = self._table
                d = self._dist[key] = min((table[s] for s in self.fps[key] if s in table), default=999)
            if d > rng:
                return False
        elif not self.within(self.fps[key], rng):
            return False
        vis = self._sight.get(key)
        if vis is None:
            vis = self._sight[key] = self._sees(self.fps[key], target_attrs(self.st, key))
        return vis

    def _sees(self, dst: tuple[Sq, ...], dst_attrs: set[str] | tuple[str, ...]) -> bool:
        """`sight.sees` from the hero to `dst`, with the blocking squares worked out once per kind of target
        (they depend on it only by size and flight)."""
        kind = ("small" in dst_attrs, "fly" in dst_attrs)
        block = self._blockers.get(kind)
        if block is None:
            block = self._blockers[kind] = blockers(self.st, "heroes", self.attrs, dst_attrs)
        b = self._board
        return b.sight_table.sight(b.numbers(self.src), b.numbers(dst), block, "ghost" in self.attrs)

    def targets(self, rng: int) -> list[str]:
        """The enemies an offence action of range `rng` may aim at, in `enemy_keys` order."""
        if rng > self.limit:
            return [k for k in self.keys if self.can_target(k, rng)]
        dists = self._dists
        if dists is None:  # every enemy's distance at once (`can_target`'s first test, for every range asked)
            table, fps = self._table, self.fps
            dists = self._dists = []
            for k in self.keys:
                fp = fps[k]  # most enemies cover one square: its distance, without a search over the footprint
                dists.append((k, table.get(fp[0], 999) if len(fp) == 1 else
                              min((table[s] for s in fp if s in table), default=999)))
            self._dist.update(dists)
        out = []
        for k, d in dists:
            if d <= rng:
                vis = self._sight.get(k)
                if vis is None:
                    vis = self._sight[k] = self._sees(self.fps[k], target_attrs(self.st, k))
                if vis:
                    out.append(k)
        return out

    def label(self, key: str) -> str:
        found = self._labels.get(key)
        if found is None:
            found = self._labels[key] = sq_label(*self.fps[key][0])
        return found

    def reaches_hero(self, t: HeroState, rng: int) -> bool:
        """Whether a heal or assist of range `rng` reaches hero `t` (`heal_reach`'s verdict)."""
        if t.id == self.h.id:
            return True
        if not self.within(((t.x, t.y),), rng):
            return False
        ref = "h:" + t.id
        vis = self._sight.get(ref)
        if vis is None:
            vis = self._sight[ref] = self._sees(((t.x, t.y),), hero_attributes(t))
        return vis
