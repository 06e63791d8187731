"""Who is who on the board: a hero's stat line with its equipment, the models' lookups and footprints."""
from __future__ import annotations

from dataclasses import dataclass, field

from games.core.grid import label as sq_label

from .board import Sq, footprint
from .data import Bonus, Card, Dice, HeroDef, MonsterDef, content
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


_STATS: dict[tuple[int, str, int, tuple[str, ...]], Stats] = {}


def _base_stats(h: HeroState) -> Stats:
    """The stat line for the hero's kind, profile and equipment, worked out once (not to be changed)."""
    key = (id(content()), h.id, h.profile, tuple(h.equipment))
    found = _STATS.get(key)
    if found is None:
        if len(_STATS) > 10_000:
            _STATS.clear()
        found = _STATS[key] = _build_stats(h)
    return found


def hero_stats(h: HeroState) -> Stats:
    """Stat line of the hero's current profile with every equipment bonus stacked on (a copy the caller owns)."""
    b = _base_stats(h)
    return Stats(b.name, b.move, b.ap, dict(b.dice), b.life, b.potions, dict(b.attacks), set(b.attributes),
                 set(b.immune), b.unique, set(b.species))


def hero_attributes(h: HeroState) -> set[str]:
    """The hero's attributes (shared: read, never change)."""
    return _base_stats(h).attributes


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


def monster_def(m: MonsterState) -> MonsterDef:
    return content().monsters[m.kind]


def is_incap(h: HeroState) -> bool:
    return h.wounds >= _base_stats(h).life


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
    return footprint(m.x, m.y, monster_def(m).large)


def hfp(h: HeroState) -> tuple[Sq, ...]:
    return ((h.x, h.y),)


def monster_name(m: MonsterState) -> str:
    return f"{monster_def(m).name} ({sq_label(m.x, m.y)})"


def immune_to(immune: set[str] | tuple[str, ...], debuff: str) -> bool:
    return "all" in immune or debuff in immune
