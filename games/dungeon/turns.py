"""The game turn: what ends a hero's activation (the monsters react, one spawns) and what starts a new turn."""
from __future__ import annotations

from games.core.words import plural

from . import recap
from .bosses import boss_special
from .combat import adjacent_visible_terrain, wound_hero, wound_monster
from .levels import maybe_advance_level, spawn_one
from .monsters import monsters_react
from .state import DungeonState, HeroState
from .stats import hero_attributes, hero_stats, heroes_waiting, hfp, is_incap, monster, monster_def, stat_line


def end_activation(st: DungeonState, h: HeroState, lines: list[str]) -> None:
    """The hero's activation ends: the goddess mends, debuffs wear off, the monsters react, one spawns;
    after the last hero the bosses make their special moves and a new turn begins."""
    stats = stat_line(h)  # read only (shared): the name
    if not is_incap(h) and h.wounds and adjacent_visible_terrain(st, hfp(h), "goddess"):
        h.wounds -= 1
        lines.append(f"The goddess mends 1 of {stats.name}'s wounds.")
    h.debuffs = [d for d in h.debuffs if d not in h.expiring]
    h.expiring = []
    h.buffs = [b for b in h.buffs if b not in h.buffs_expiring]
    h.buffs_expiring = []
    h.activated = True
    st.activation = None
    st.attack = None
    monsters_react(st, lines, lead=f"{stats.name}'s activation ends. ")
    if st.phase != "heroes":
        return
    spawn_one(st, st.level, lines)
    if not heroes_waiting(st):
        special: list[str] = []
        boss_special(st, special)
        if special:
            lines.append(recap.plain(special))
        if st.phase == "heroes":
            new_turn(st, lines)


def settle(st: DungeonState, h: HeroState, lines: list[str]) -> None:
    """After a hero's action (once any attack is over): a clear level opens the next one; a fallen active
    hero's activation ends."""
    if st.phase == "heroes" and st.attack is None:
        if maybe_advance_level(st, lines):
            return
        if st.activation is not None and is_incap(h):
            end_activation(st, h, lines)


def new_turn(st: DungeonState, lines: list[str]) -> None:
    """A new game turn: heroes may activate again, fire burns, the tough mend, monsters' debuffs wear off."""
    st.turn += 1
    if st.turn_limit and st.turn > st.turn_limit:  # a house option the host chose; the rules have no limit
        st.phase = "over"
        st.result = "defeat"
        st.result_text = (f"The heroes ran out of time: after {plural(st.turn_limit, 'turn')} (the host's turn limit) "
                          "the Dark Consul's army breaks out.")
        lines.append(st.result_text)
        return
    lines.append(f"Turn {st.turn} of {st.turn_limit} begins (the host's turn limit)." if st.turn_limit
                 else f"Turn {st.turn} begins.")
    for h in st.heroes:
        h.activated = False
        if is_incap(h):
            continue
        if "fire" in h.debuffs:
            lines.append(f"{hero_stats(h).name} burns.")
            wound_hero(st, h, 1, lines)
        if st.phase == "over":
            return
        # tough works whether or not the model also burns (a burnt-out hero is past healing)
        if "tough" in hero_attributes(h) and h.wounds and not is_incap(h):
            h.wounds -= 1
            lines.append(f"{hero_stats(h).name} is tough and heals 1 wound.")
    for m in list(st.monsters):
        md = monster_def(m)
        burning = "fire" in m.debuffs
        m.debuffs = []
        if burning:
            lines.append(f"{md.name} burns.")
            wound_monster(st, m, 1, lines)
            if monster(st, m.uid) is None:
                continue
        if "tough" in md.attributes and m.wounds:
            m.wounds -= 1
    maybe_advance_level(st, lines)
