"""Who is who on the board: a hero's stat line with its equipment, the models' lookups and footprints."""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter, itemgetter

from games.core.grid import label as sq_label

from .board import Sq
from .data import Bonus, Card, Content, Dice, HeroDef, MonsterDef, content, per_content
from .state import DungeonState, HeroState, MonsterState


@dataclass
class Stats:
    name: str
    move: int
    ap: int
    dice: dict[str, Dice]
    life: int
    potions: int
    attacks: dict[str, int]
    attributes: set[str]
    immune: set[str]
    unique: tuple[str, ...]
    species: set[str] = field(default_factory=set)


def card_bonus(card: Card, hero: HeroDef) -> Bonus:
    if card.affinity and card.affinity_bonus and card.affinity in hero.affinity:
        return card.affinity_bonus
    return card.bonus


def hero_def(h: HeroState) -> HeroDef:
    return content().heroes[h.id]


# stat lines by (hero kind, profile, *equipment), worked out from the content in `_FROM` (loaded once per process:
# `data.content` is cached; a different content object met on a miss starts the table afresh)
_STATS: dict[tuple[object, ...], Stats] = {}
_FROM: list[object] = [None]


def stat_line(h: HeroState) -> Stats:
    """The stat line for the hero's kind, profile and equipment (`hero_stats`), worked out once and shared, not
    copied: read it, never change it."""
    found = _STATS.get((h.id, h.profile, *h.equipment))
    if found is None:
        c = content()
        if _FROM[0] is not c or len(_STATS) > 10_000:
            _STATS.clear()
            _FROM[0] = c
        found = _STATS[(h.id, h.profile, *h.equipment)] = _build_stats(h)
    return found


def hero_stats(h: HeroState) -> Stats:
    """Stat line of the hero's current profile with every equipment bonus stacked on (a copy the caller owns)."""
    b = stat_line(h)
    return Stats(b.name, b.move, b.ap, dict(b.dice), b.life, b.potions, dict(b.attacks), set(b.attributes),
                 set(b.immune), b.unique, set(b.species))


def hero_attributes(h: HeroState) -> set[str]:
    """The hero's attributes (shared: read, never change)."""
    return stat_line(h).attributes


def _build_stats(h: HeroState) -> Stats:
    hd = hero_def(h)
    dice = {"str": hd.str, "arm": hd.arm, "will": hd.will, "dex": hd.dex}
    attacks: dict[str, int] = {k: v for k, v in hd.attacks.items()}
    move, attrs, unique, name = hd.move, set(hd.attributes), hd.unique, hd.name
    if h.profile:
        p = hd.profiles[h.profile - 1]
        name = p.name
        move = p.move if p.move is not None else move
        for s in dice:
            v = getattr(p, s)
            if v is not None:
                dice[s] = v
        if p.attacks is not None:
            attacks = {k: v for k, v in p.attacks.items()}
        if p.attributes is not None:
            attrs = set(p.attributes)
        if p.unique is not None:
            unique = p.unique
    ap, life, potions, immune = hd.ap, hd.life, hd.potions, set(hd.immune)
    for cid in h.equipment:
        card = content().cards[cid]
        b = card_bonus(card, hd)
        for s in dice:
            dice[s] = dice[s] + getattr(b, s)
        move += b.move
        ap += b.ap
        life += b.life
        potions += b.potions
        attrs |= set(card.attributes)
        immune |= set(card.immune)
        unique += tuple(a for a in card.actions if a not in unique)  # card actions are unique actions
    return Stats(name, move, ap, dice, life, potions, attacks, attrs, immune, unique, {hd.species})


# a model's fields read in one call, for loops over every hero or monster (`map(KIND_SQUARE, st.monsters)`):
# `attrgetter` reads them in C, a fraction of what reading a pydantic model's fields one by one costs
SQUARE = attrgetter("x", "y")
KIND = attrgetter("kind")
KIND_SQUARE = attrgetter("kind", "x", "y")
UID_KIND_SQUARE = attrgetter("uid", "kind", "x", "y")


# a hero's many fields read at once from its field values (pydantic keeps them in the instance's `__dict__`): every
# attribute read of a pydantic model takes CPython's slow path (BaseModel defines `__getattr__`), one for
# `__dict__` and `itemgetter`'s lookups cost less than `attrgetter` from about three fields up
_SIDE_FIELDS = itemgetter("id", "x", "y", "seat", "profile", "wounds", "equipment")


def hero_side_key(heroes: list[HeroState]) -> tuple[tuple[object, ...], ...]:
    """Per hero: its kind (id, profile and equipment, as its stat line is keyed), square, seat and whether it is
    down, every field read in one call (`is_incap` written out): what a monster's choice of a hero takes from
    the heroes (`nearest.hero_side`, asked for every monster's action)."""
    out = []
    for h in heroes:
        hid, x, y, seat, profile, wounds, equipment = _SIDE_FIELDS(h.__dict__)
        kind = (hid, profile, *equipment)
        found = _STATS.get(kind)
        out.append((kind, x, y, seat, wounds >= (found if found is not None else stat_line(h)).life))
    return tuple(out)


_LINE_FIELDS = itemgetter("id", "profile", "equipment", "wounds", "x", "y")  # as `_SIDE_FIELDS`


def hero_lines(heroes: list[HeroState]) -> list[tuple[Stats, int, int, int]]:
    """(shared stat line, wounds, x, y) of each hero, its fields read in one call (`stat_line` written out):
    for the loops over every hero that ask who stands, where, and with which attributes (`sight.blockers`)."""
    out = []
    for h in heroes:
        hid, profile, equipment, wounds, x, y = _LINE_FIELDS(h.__dict__)
        found = _STATS.get((hid, profile, *equipment))
        out.append((found if found is not None else stat_line(h), wounds, x, y))
    return out


@per_content
def large_kinds(c: Content) -> frozenset[str]:
    """The ids of the large monster kinds (for loops over every monster)."""
    return frozenset(k for k, md in c.monsters.items() if md.large)


def monster_def(m: MonsterState) -> MonsterDef:
    return content().monsters[m.kind]


def is_incap(h: HeroState) -> bool:
    hid, profile, equipment, wounds = _INCAP_FIELDS(h.__dict__)  # `stat_line` written out: asked ~100 times an action
    found = _STATS.get((hid, profile, *equipment))
    return wounds >= (found if found is not None else stat_line(h)).life


_INCAP_FIELDS = itemgetter("id", "profile", "equipment", "wounds")  # as `_SIDE_FIELDS`


def hero(st: DungeonState, hid: str) -> HeroState:
    for h in st.heroes:
        if h.id == hid:
            return h
    raise KeyError(hid)


def monster(st: DungeonState, uid: int) -> MonsterState | None:
    for m in st.monsters:
        if m.uid == uid:
            return m
    return None


def heroes_waiting(st: DungeonState) -> list[HeroState]:
    """Heroes that may still activate this turn."""
    return [h for h in st.heroes if not h.activated and not is_incap(h)]


def mfp(m: MonsterState) -> tuple[Sq, ...]:
    """The squares the monster covers (`board.footprint`, written out: models are asked this very often)."""
    x, y = m.x, m.y
    if content().monsters[m.kind].large:
        return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))
    return ((x, y),)


def hfp(h: HeroState) -> tuple[Sq, ...]:
    return ((h.x, h.y),)


def monster_name(m: MonsterState) -> str:
    return f"{monster_def(m).name} ({sq_label(m.x, m.y)})"


def immune_to(immune: set[str] | tuple[str, ...], debuff: str) -> bool:
    return "all" in immune or debuff in immune
