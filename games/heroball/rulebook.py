"""The rules applied to a position: who stands where, what a card does for a hero, what a hex costs.

Queries only; nothing here changes a state. The engine is a `Rulebook` (it carries the rules data,
the board and the costs), and every phase and mechanism module takes it as its first argument.
"""
from __future__ import annotations

from games.core import Action

from .board import Board, board
from .data import Card, Costs, Hero, Rules
from .state import HeroballState, HeroState

MOVES = ("step", "run", "sprint")
OBJECT_NAMES = {"ball": "the Godball", "pole": "the pole"}
INVULNERABLE = "Achilles is Invulnerable right now: opponents' actions cannot target him."


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def arg(action: Action, key: str) -> str:
    """An argument that every legal form of `action` carries (the legal list guarantees it)."""
    value = action.get(key)
    if value is None:
        raise KeyError(f"`{action.text()}` has no {key}")
    return value


class Rulebook:
    """Heroball's rules data, its board and its costs, and the questions the phases ask of them."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        house = rules.house
        self.board: Board = board(house.board_radius, house.pillar_distance)
        self.costs: Costs = house.cost
        # lookups the phases ask thousands of times per game, by name (the data's own lookups scan)
        self._heroes: dict[str, Hero] = {h.name.casefold(): h for h in rules.heroes}
        self._cards: dict[tuple[str, str], Card | None] = {}
        self._goal_owner: dict[tuple[tuple[str, str], ...], dict[str, str]] = {}
        self._favoured: dict[str, str] = {}  # god -> terrain
        self.memo: dict[tuple[str, str, str, int], tuple[Action, ...]] = {}  # actions that depend on the board only

    # ---- heroes and their cards --------------------------------------------------------------
    def hero(self, s: HeroballState, player: str) -> HeroState:
        for h in s.heroes:
            if h.player == player:
                return h
        raise KeyError(player)

    def active(self, s: HeroballState) -> HeroState:
        return s.heroes[s.active]

    def hero_data(self, h: HeroState) -> Hero:
        found = self._heroes.get(h.hero.casefold())
        return found if found is not None else self.rules.hero(h.hero)

    def card(self, h: HeroState, effect: str) -> Card | None:
        key = (h.hero, effect)
        if key not in self._cards:
            self._cards[key] = self.hero_data(h).card(effect)
        return self._cards[key]

    def favoured(self, h: HeroState) -> str:
        found = self._favoured.get(h.god)
        if found is None:
            found = self._favoured[h.god] = self.rules.god(h.god).terrain
        return found

    def targetable(self, h: HeroState) -> bool:
        """Achilles' Invulnerable side: opponents' actions cannot target him."""
        return not (self.card(h, "invulnerable") and "invulnerable" not in h.flipped)

    def sprint_card(self, h: HeroState) -> Card | None:
        """The card on the sprint slot, unless Pegasus' Feed side covers it."""
        c = self.hero_data(h).slot("sprint")
        if c and c.effect == "sprint_knockdown" and "fly" in h.flipped:
            return None
        return c

    def next_move(self, h: HeroState) -> str | None:
        for k in MOVES:
            if k not in h.spent:
                return k
        return None

    def player_name(self, s: HeroballState, player: str) -> str:
        return self.hero(s, player).name

    def who(self, h: HeroState) -> str:
        """How events name a hero on the board: "Gorgo (ann)"."""
        return f"{h.hero} ({h.name})"

    # ---- the field ---------------------------------------------------------------------------
    def at(self, s: HeroballState, label: str) -> HeroState | None:
        for h in s.heroes:
            if h.pos == label:
                return h
        return None

    def free(self, s: HeroballState, label: str | None) -> bool:
        """On the board, not a pillar, no hero."""
        return label is not None and label not in self.board.pillars and self.at(s, label) is None

    def occupied(self, s: HeroballState) -> dict[str, HeroState]:
        """Hex -> the hero standing there (the first in seat order, as `at` finds)."""
        out: dict[str, HeroState] = {}
        for h in s.heroes:
            out.setdefault(h.pos, h)
        return out

    def free_tile_hexes(self, s: HeroballState) -> list[str]:
        """Hexes in board order with no tile, no terrain token and no hero (`tile_hex` and `at` both say no)."""
        b = self.board
        taken = {h.pos for h in s.heroes}
        goals = self._goals(s)
        terrain = s.terrain
        return [lab for lab in b.labels if lab not in b.pillars and lab != b.centre and lab not in goals
                and lab not in terrain and lab not in taken]

    def tile_hex(self, s: HeroballState, label: str) -> bool:
        """Hexes that carry a tile (pillar, centre post, a goal tile) or already a terrain token."""
        b = self.board
        return label in b.pillars or label == b.centre or label in self._goals(s) or label in s.terrain

    def goal_owner(self, s: HeroballState) -> dict[str, str]:
        return dict(self._goals(s))

    def _goals(self, s: HeroballState) -> dict[str, str]:
        """Goal hex -> the player whose goal it is (shared, read only), by who sits in which corner."""
        key = tuple((h.corner, h.player) for h in s.heroes)
        found = self._goal_owner.get(key)
        if found is None:
            found = {g: player for corner, player in key for g in self.board.goal(corner)}
            if len(self._goal_owner) > 1000:
                self._goal_owner.clear()
            self._goal_owner[key] = found
        return found

    def obj_hex(self, s: HeroballState, obj: str) -> str | None:
        o = s.objects[obj]
        return o.at if o.holder is None else self.hero(s, o.holder).pos

    def opponents_adjacent(self, s: HeroballState, h: HeroState) -> list[HeroState]:
        at = self.occupied(s)
        near = (at.get(n) for n in self.board.neighbors(h.pos))
        return [v for v in near if v is not None and v is not h and self.targetable(v)]

    def push_dests(self, s: HeroballState, h: HeroState, v: HeroState) -> list[str]:
        return [n for n in self.board.neighbors(v.pos) if self.board.dist(n, h.pos) == 2 and self.free(s, n)]

    def fumble_places(self, s: HeroballState, v: HeroState, moved: tuple[str, str] | None = None) -> list[str]:
        """Free hexes next to `v` for a fumbled object; `moved` is a trampler's (from, to) this instant."""
        out = []
        for n in self.board.neighbors(v.pos):
            if n in self.board.pillars:
                continue
            occ = self.at(s, n)
            if moved is not None:
                if n == moved[1]:
                    continue
                if n == moved[0]:
                    occ = None
            if occ is None:
                out.append(n)
        return out

    def throw_targets(self, center: str, reach: int, exclude: str | None = None) -> list[str]:
        return [t for t in self.board.within(center, 1, reach) if t not in self.board.pillars and t != exclude]

    # ---- what moving costs -------------------------------------------------------------------
    def hex_cost(self, s: HeroballState, h: HeroState, dest: str, fly: bool = False) -> int:
        t = s.terrain.get(dest)
        if t is None or fly:
            return 0
        return self.costs.favoured if t == self.favoured(h) else self.costs.terrain

    def sing_extra(self, s: HeroballState, h: HeroState, dest: str) -> int:
        """Calypso's song: moving away from her, within its range, costs more."""
        extra = 0
        for c in s.heroes:
            if c is h or "sing" not in c.field:
                continue
            card = self.card(c, "sing")
            if card is None:
                continue
            d0 = self.board.dist(h.pos, c.pos)
            if d0 <= card.range and self.board.dist(dest, c.pos) > d0:
                extra += card.extra
        return extra

    def move_cost(self, s: HeroballState, h: HeroState, base: int, dest: str) -> int:
        fly = s.turn.fly and h is self.active(s)
        return max(0, base + self.hex_cost(s, h, dest, fly) + self.sing_extra(s, h, dest))

    def predict_cost(self, s: HeroballState, h: HeroState, dest: str, base: int) -> int:
        """Predict's whole cost, "1 AP + Hex Cost": the card's AP plus the hex (terrain, -1 on the hero's
        favoured terrain, as for Winged Sandals) plus Calypso's song when the move goes away from her."""
        return max(0, base + self.hex_cost(s, h, dest) + self.sing_extra(s, h, dest))

