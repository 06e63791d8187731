"""Whom a monster goes for: the standing hero it sees that is closest by route, remembered by all it depends on."""
from __future__ import annotations

import weakref
from collections.abc import Mapping

from .board import Sq, board
from .sight import blockers, level_key, structures
from .state import DungeonState, HeroState, MonsterState
from .stats import hero_attributes, hero_side_key, hfp, is_incap, mfp, monster_def, stat_line


def nearest_visible_hero(st: DungeonState, m: MonsterState, side: HeroSide | None = None,
                         ) -> tuple[int, HeroState] | None:
    """The standing hero `m` sees that is closest by route (the lowest seat among equally close ones), with its
    distance; None when it sees none. Sight, the costly test, is asked in order of route until one is seen.

    Remembered by all it depends on: a monster's sight of heroes is blocked by structures and heroes only
    (never by other monsters), so it is asked again unchanged after the other monsters have moved; a hero's
    wounds matter only as far as they leave it standing or not. `side`: the heroes' side of that (`hero_side`),
    when the caller asks for every monster of one state."""
    if side is None:
        side = hero_side(st)
    key = (m.kind, m.x, m.y, side.token)
    found: tuple[int, int] | None = _NEAREST.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        md = monster_def(m)
        attrs = md.attributes
        fp = mfp(m)
        src = side.board.numbers(fp)
        ghost = "ghost" in attrs
        fly, small = "fly" in attrs, "small" in attrs
        found = None
        ranked = []
        for i, seat, hsq, table in side.standing():
            if hsq in fp:
                d = 0
            elif len(fp) == 1:
                d = table.get(fp[0], 999)
            else:
                d = min((table[s] for s in fp if s in table), default=999)
            ranked.append((d if d <= 99 else 999, seat, i))
        ranked.sort()
        sight = side.board.sight_table.sight
        for d, _seat, i in ranked:
            if sight(src, side.numbers[i], side.blockers(i, fly, small), ghost):
                found = (d, i)
                break
        if len(_NEAREST) > 50_000:
            _NEAREST.clear()
        _NEAREST[key] = found
    return None if found is None else (found[0], st.heroes[found[1]])


_NEAREST: dict[tuple[object, ...], tuple[int, int] | None] = {}
_UNKNOWN = (-1, -1)  # not yet worked out (never an answer: the index of a hero is never -1)
_TOKENS: dict[tuple[object, ...], int] = {}  # per `HeroSide.key`, a number never given to another key
_NEXT_TOKEN = [0]


class HeroSide:
    """What a monster's choice of the nearest visible hero takes from the heroes and the board (not from the
    other monsters): one state's heroes where they stand, standing or not, and the structures; its route tables
    and blocking squares are worked out once for every monster asking (read while the heroes stay as they are).
    A monster's reaction also reads its heroes' squares as masks (`hero_masks`, for the move search) and its
    standing Grabby heroes (`grabby`); `token` numbers its key for the memo of nearest heroes."""

    def __init__(self, st: DungeonState, key: tuple[object, ...], structs: frozenset[Sq]) -> None:
        self._st, self.key, self.structs = weakref.ref(st), key, structs  # the state dies with its last step
        token = _TOKENS.get(key)
        if token is None:  # the key in a small number, for the many lookups keyed by it (hashed once)
            if len(_TOKENS) > 20_000:
                _TOKENS.clear()  # numbers are never reused: a dropped key comes back with a new one
            token = _TOKENS[key] = _NEXT_TOKEN[0]
            _NEXT_TOKEN[0] += 1
        self.token = token
        self.board = board(st.dungeon)
        self.numbers = [self.board.numbers(hfp(h)) for h in st.heroes]
        self._standing: list[tuple[int, int, Sq, Mapping[Sq, int]]] | None = None
        self._blockers: dict[tuple[bool, bool, bool, bool], int] = {}
        self._of_hero: dict[tuple[int, bool, bool], int] = {}  # (hero number, fly, small) -> its `_blockers`
        self._masks: tuple[int, int] | None = None
        self._grabby: list[HeroState] | None = None

    @property
    def st(self) -> DungeonState:
        """The state this side is of (held weakly: a remembered side keeps no finished step's state alive, so
        those go at once rather than by the garbage collector; a side is asked only while its state lives)."""
        st = self._st()
        assert st is not None
        return st

    def standing(self) -> list[tuple[int, int, Sq, Mapping[Sq, int]]]:
        """(index, seat, square, route table from its square) of every standing hero."""
        if self._standing is None:
            b, structs = self.board, self.structs
            self._standing = [(i, h.seat, (h.x, h.y), b.route_table(((h.x, h.y),), structs))
                              for i, h in enumerate(self.st.heroes) if not is_incap(h)]
        return self._standing

    def hero_masks(self) -> tuple[int, int]:
        """The squares of every hero and of the standing heroes, as masks of square numbers (once)."""
        if self._masks is None:
            hgt = self.board.height
            every = standing = 0
            for h in self.st.heroes:
                bit = 1 << (h.x * hgt + h.y)
                every |= bit
                if not is_incap(h):
                    standing |= bit
            self._masks = (every, standing)
        return self._masks

    def grabby(self) -> list[HeroState]:
        """The standing heroes with Grabby (once): those `attributes.grabbed` asks about for a monster."""
        if self._grabby is None:
            self._grabby = [h for h in self.st.heroes if "grabby" in stat_line(h).attributes and not is_incap(h)]
        return self._grabby

    def blockers(self, i: int, fly: bool, small: bool) -> int:
        """`sight.blockers(st, "monsters", ...)` for a monster that flies or is small or not, of hero number `i`
        (they depend on the hero only by size and flight)."""
        found = self._of_hero.get((i, fly, small))
        if found is None:
            hattrs = hero_attributes(self.st.heroes[i])
            kind = (fly, small, "fly" in hattrs, "small" in hattrs)
            found = self._blockers.get(kind)
            if found is None:
                found = self._blockers[kind] = blockers(self.st, "monsters", ("fly",) * fly + ("small",) * small,
                                                        hattrs)
            self._of_hero[(i, fly, small)] = found  # the same hero's attributes while the side holds
        return found


def hero_side(st: DungeonState) -> HeroSide:
    """The `HeroSide` of this state's heroes (found again while they and the structures stay as they are)."""
    # the structures (with closed chests or not) follow from the board and its levels' spawn points and chests:
    # the key holds those, and the structures are looked up only for a new side
    key = (st.dungeon, level_key(st), hero_side_key(st.heroes))
    found = _SIDES.get(key)
    if found is None or found._st() is not st:
        if len(_SIDES) > 16:
            _SIDES.clear()
        found = _SIDES[key] = HeroSide(st, key, structures(st))
    return found


_SIDES: dict[tuple[object, ...], HeroSide] = {}
