"""The dungeon's heuristic for computer heroes, written against the public view only.

The heroes play as one team, so every hero's value is the team's: levels cleared, the level's
spawn point worn down, monsters wounded and killed, heroes' health (a hero heals when low because
wounds cost more than a potion), and the heroes' distance to the spawn point (the objective).
It reads `engine.view(state, player)`, never the state's fields, so it does not depend on how the
engine stores its state.
"""
from __future__ import annotations

import math
import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from games.core import Action
from games.core.grid import parse_label

from .board import board
from .data import STYLE_STAT, Dice, content
from .dice import expected

COOPERATIVE = True
BUDGET_SCALE = 0.25  # monsters think through every hero's activation: a dungeon step costs ~10-50x a Heroball step
REACTIONS = 2.0  # monster reactions a hero in reach should expect before it acts again (see `threat`)
GAP_SPAWN = 4.0  # the same while the spawn point stands (it keeps calling monsters)
GAP = 2.0  # value of a step nearer the objective: less than a wound a monster in reach may deal (see `evaluate`)
BUDGET_DEPTH = 3  # a rollout plays the rest of the activation (move, attack, end) before the position is judged
STAGE = 1.5  # value of a step nearer the next level's spawn point once this level's is destroyed (see `_onward`),
# for a hero that waits there (`_roles`); one that finishes the level's monsters counts GAP a step nearer each besides
STAGE_LEFT = 3  # the heroes wait there only while the monsters left have this much life in all, none a boss
STAGE_FOES = 0.5  # ... else every hero closes in on the monsters left (GAP a step nearer each, `_foe_gaps`) and the
# way there only breaks ties
HOLD = 1  # steps from its place at the next spawn point a hero may be when the party finishes a level (`_holding`)
FOE_FAR = 24  # steps from a monster beyond which a hero no longer counts its way to it (the map's far side)
SCREEN = 3  # heroes may not come within this many squares of a spawn point not yet open (the rules' screen)
DRINK = 2  # a hero with this much life or less left, a potion and a monster on the way drinks before anything else


def _d(ax: int, ay: int, bx: int, by: int) -> int:
    return max(abs(ax - bx), abs(ay - by))


def _walk(dungeon: str, x: int, y: int) -> Mapping[tuple[int, int], int]:
    """Steps from every square to (x, y) around the map's walls and structures (the map is public; models are
    ignored): a wall between a hero and its goal makes the straight-line distance a lie."""
    b = board(dungeon)
    return b.route_table(((x, y),), b.static_structures)


def _guardian(kind: str) -> bool:
    m = content().monsters.get(kind)
    return m is not None and m.guardian


def _goals(v: Any) -> tuple[Any, list[Any]]:
    """The level's standing spawn point (None once destroyed) and the monsters that keep the level from being
    clear (guardians stay behind and do not count)."""
    spawn = next((s for s in v.spawns if s.level == v.level and s.state == "active"), None)
    return spawn, [m for m in v.monsters if not _guardian(m.kind)]


def _gap(v: Any, x: int, y: int, spawn: Any, foes: list[Any], reach: int = 1) -> int:
    """Steps from (x, y) to where a hero with attacks of `reach` strikes the objective: the standing spawn
    point, else the nearest monster left (range counts steps around walls, as the route does)."""
    if spawn is not None:
        d = _walk(v.dungeon, spawn.x, spawn.y).get((x, y), 99)
    else:
        d = min((_walk(v.dungeon, m.x, m.y).get((x, y), 99) for m in foes), default=0)
    return max(0, d - reach)


def _onward(v: Any, x: int, y: int, reach: int = 1) -> int | None:
    """Once the level's spawn point is destroyed, steps from (x, y) to where a hero with attacks of `reach` would
    strike the next level's spawn point when it opens (no nearer than its screen allows); None while the spawn
    point stands or on the last level. The rules let heroes walk anywhere but into a closed spawn point's
    screen: among squares as near the level's last monsters, a hero takes the one on the way there (`STAGE_FOES`),
    so the party strikes the next spawn point early, before its pool brings out the boss at its end."""
    mine = next((s for s in v.spawns if s.level == v.level), None)
    nxt = next((s for s in v.spawns if s.level == v.level + 1), None)
    if mine is None or mine.state != "destroyed" or nxt is None:
        return None
    return max(0, _walk(v.dungeon, nxt.x, nxt.y).get((x, y), 99) - max(reach, SCREEN + 1))


def _weak_left(v: Any) -> bool:
    """The level's spawn point is down and its last monsters are weak (no boss, `STAGE_LEFT` life in all): the
    heroes that do not finish them may go on to the next spawn point. A party that walks off from a boss is chased
    and cut down one by one."""
    mine = next((s for s in v.spawns if s.level == v.level), None)
    if mine is None or mine.state != "destroyed" or not any(s.level == v.level + 1 for s in v.spawns):
        return False
    foes = [m for m in v.monsters if not _guardian(m.kind)]
    return bool(foes) and sum(m.life - m.wounds for m in foes) <= STAGE_LEFT and not any(
        m.rank == "boss" for m in foes)


def _holding(v: Any) -> bool:
    """One weak monster is left (`_weak_left`) and it may follow the party, and a hero that does not finish it
    (`_chasers`) may still come nearer its place at the next level's spawn point (more than `HOLD` steps from it,
    with a free square nearer): the party spares it (it follows them) until the party is in place; killing it opens
    the next level, whose spawn point calls monsters at once, and a party in place strikes it in its first
    activations, before its pool brings out the boss. Bounded: the heroes that wait only ever come nearer their
    places (`prune`), and the hero that finishes the monster is not waited for (the party that also waited for it,
    which walked off to strike and back, stalled for 24 turns: gloom_keep, a Dragon Priest shooting from afar)."""
    if not _weak_left(v):
        return False
    foes = [m for m in v.monsters if not _guardian(m.kind)]
    if len(foes) != 1:
        return False
    m = foes[0]
    if m.kind not in content().monsters or content().monsters[m.kind].move == 0:
        return False  # it cannot follow the party: its nearest hero finishes it while the others go on
    standing = [h for h in v.heroes if not h.incapacitated]
    table = _walk(v.dungeon, m.x, m.y)
    if not any(table.get((h.x, h.y), 99) < 99 for h in standing):
        return False  # no way to the party: it would never come
    chasers = _chasers(v, foes)
    taken = {(h.x, h.y) for h in v.heroes if not h.incapacitated} | {(x.x, x.y) for x in v.monsters}
    return any(_may_come_nearer(v, h, taken) for h in standing if h.id not in chasers)


def _may_come_nearer(v: Any, h: Any, taken: set[tuple[int, int]]) -> bool:
    """Whether hero `h` is more than `HOLD` steps from its place at the next spawn point and a free square next to it
    is nearer (a hero behind the others in a corridor is as near as it gets; one with no way there never is)."""
    here = _onward(v, h.x, h.y, _reach(h))
    if here is None or here <= HOLD or here >= 90:
        return False
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            x, y = h.x + dx, h.y + dy
            if (x, y) in taken:
                continue
            there = _onward(v, x, y, _reach(h))
            if there is not None and there < here:
                return True
    return False


def _chasers(v: Any, foes: list[Any]) -> set[str]:
    """The heroes that finish the level's last weak monsters: for each, the standing hero nearest to it."""
    standing = [h for h in v.heroes if not h.incapacitated]
    out = set()
    for m in foes:
        table = _walk(v.dungeon, m.x, m.y)
        near = min(standing, key=lambda h: (table.get((h.x, h.y), 99), h.seat), default=None)
        if near is not None:
            out.add(near.id)
    return out


def _waits(v: Any, foes: list[Any]) -> set[str]:
    """The heroes that go on to the next spawn point's screen rather than to the monsters left: with weak ones left
    (`_weak_left`), all but the nearest to each of them, and all while the party spares the last (`_holding`)."""
    if not _weak_left(v):
        return set()
    standing = {h.id for h in v.heroes if not h.incapacitated}
    return standing if _holding(v) else standing - _chasers(v, foes)


def _foe_gaps(v: Any, x: int, y: int, foes: list[Any], reach: int = 1) -> int:
    """Steps from (x, y) to where a hero with attacks of `reach` strikes each monster left, summed (each counted
    up to `FOE_FAR`): the pull that makes the whole party close in on the level's last fights once its spawn
    point is down. A sum, not the nearest one: killing a monster only takes a term away, so it never costs
    value (with the nearest, the jump to the next one made heroes spare the second-to-last monster)."""
    return sum(min(FOE_FAR, max(0, _walk(v.dungeon, m.x, m.y).get((x, y), 99) - reach)) for m in foes)


def _reach(h: Any) -> int:
    """The range of the hero's strongest attack (the most expected dice; the longer range among equals): a hero
    whose melee rolls three dice and whose shot rolls one walks up rather than shooting from afar."""
    if not h.attacks:
        return 1

    def strength(style: str) -> tuple[float, int]:
        spec = h.dice.get(STYLE_STAT.get(style, "").upper(), "")
        return (_mean_roll(spec), h.attacks[style])
    return h.attacks[max(h.attacks, key=strength)]


@cache
def _offence(kind: str, level: int) -> tuple[float, int, int, str, bool]:
    """A monster's expected attack roll on `level` (deeper levels add dice), its reach (range), its move, its
    attack style, and whether it summons (a boss that keeps bringing more monsters)."""
    m = content().monsters[kind]
    bonus = content().rules.level_bonus
    extra = sum(expected(Dice(dice=(c,))) for c in bonus[min(level, len(bonus) - 1)])
    summons = any(step.effect == "summon" for step in m.special)
    return (expected(getattr(m, STYLE_STAT[m.attack.style])) + extra, m.attack.range, m.move, m.attack.style,
            summons)


@cache
def _mean_roll(spec: str) -> float:
    """The expected score of a roll of these dice (an attack's or a defence's; none: 0)."""
    return expected(Dice.parse(spec)) if spec else 0.0


def _hit_chance(offence: float, defence: float) -> float:
    """Roughly how often a roll expected to make `offence` beats one expected to make `defence` (a tie goes to
    the defender)."""
    return 1.0 / (1.0 + math.exp(-(offence - defence - 0.5) / 1.3))


def threat(v: Any) -> dict[str, float]:
    """Wounds each standing hero may expect from the monsters' next reactions, from the public view: every
    monster goes for the hero closest to it (by the route around walls); one already in reach attacks at the
    next reaction, one that gets there with its move attacks at the one after. Monsters react after every
    hero's activation, so before a hero acts again they react about as often as there are heroes: a monster in
    reach counts twice (the other heroes may kill it first), one a move away once; a hero left in reach of
    several of them is soon down."""
    out: dict[str, float] = {h.id: 0.0 for h in v.heroes if not h.incapacitated}
    standing = [h for h in v.heroes if not h.incapacitated]
    if not standing:
        return out
    for m in v.monsters:
        if m.kind not in content().monsters:
            continue
        md = content().monsters[m.kind]
        if md.behaviour == "cowardly" or md.guardian:
            continue
        off, reach, move, style, _ = _offence(m.kind, v.level)
        table = _walk(v.dungeon, m.x, m.y)
        near: list[tuple[int, int, Any]] = []
        for h in standing:
            d = table.get((h.x, h.y), 99)
            if m.large:
                d = min(d, max(0, _d(m.x, m.y, h.x, h.y) - 1) if _d(m.x, m.y, h.x, h.y) <= 2 else d)
            near.append((d, h.seat, h))
        d, _, target = min(near, key=lambda t: (t[0], t[1]))
        if d <= reach:
            weight = REACTIONS
        elif d <= reach + move:
            weight = REACTIONS - 1.0
        else:
            continue
        if md.rank == "boss":
            weight *= 1.0 + sum(1 for step in md.special if step.effect in ("react", "blast"))
        stat = "WILL" if style == "magic" else "ARM"
        out[target.id] += weight * _hit_chance(off, _mean_roll(target.dice.get(stat, "")))
    return out


def evaluate(engine: Any, state: Any, player: str) -> float:
    v = engine.view(state, player)
    out = 1000.0 * v.level
    spawn, foes = _goals(v)
    mine = next((s for s in v.spawns if s.level == v.level), None)
    if mine is not None and mine.state == "destroyed":
        out += 600.0
    elif spawn is not None:
        out += 150.0 * spawn.wounds  # the spawn point keeps calling monsters: wearing it down comes first
    for m in foes:
        rank = content().monsters[m.kind].rank if m.kind in content().monsters else "minion"
        # a summoner brings more monsters every turn: it comes first (else the team kills its minions for ever)
        per = 40.0 if _offence(m.kind, v.level)[4] else (22.0 if rank == "boss" else 15.0)
        out -= 50.0 + per * (m.life - m.wounds)
    danger = threat(v)
    waits = _waits(v, foes) if spawn is None else set()
    for h in v.heroes:
        if h.incapacitated:
            out -= 250.0  # a hero down is a hero fewer for every level still to come
            continue
        left = h.life - h.wounds
        out += 11.0 * left - (25.0 if left <= 1 else 0.0)
        hurt = danger.get(h.id, 0.0)  # expected wounds before it acts again; down is the worst of them
        out -= 18.0 * min(hurt, left) + 200.0 * min(1.0, max(0.0, (hurt - left + 1.5) / 2.0))
        out += 5.0 * h.potions + 6.0 * len(h.equipment)
        if h.active:
            out += 7.0 * h.ap_left  # AP not yet spent may still buy an attack: moving costs them
        # while the spawn point stands it calls a monster after every activation (destroyed minions go back to
        # its pool): getting at it comes first; after it, the whole party closes in on the monsters left (the
        # next level opens only when they are all dead), and only then counts its way to the next spawn point
        if spawn is not None:
            out -= GAP_SPAWN * _gap(v, h.x, h.y, spawn, foes, _reach(h))
            continue
        onward = _onward(v, h.x, h.y, _reach(h))
        if onward is not None:
            out -= (STAGE if not foes or h.id in waits else STAGE_FOES) * onward
        if h.id not in waits:
            out -= GAP * _foe_gaps(v, h.x, h.y, foes, _reach(h))
    return out


def prune(engine: Any, state: Any, player: str, moves: list[Action]) -> list[Action]:
    """Of the squares a hero may move to, only those that bring it closer to the objective (by the route
    around walls) or next to a monster, the closest few, and for a hero in danger the few out of every monster's
    reach; every other action but `drop` stays. Wandering is left out."""
    # dropping a card only to pick it up again is a loop a search happily walks into (it costs nothing it
    # values): computer heroes never drop; a full hero keeps what it carries
    moves = [a for a in moves if a.cmd != "drop"] or moves
    drink = [a for a in moves if a.cmd == "potion"]
    steps = [a for a in moves if a.cmd == "move" and parse_label(dict(a.args).get("to", "")) is not None]
    if not steps and not drink and not any(a.cmd in ("attack", "act") for a in moves):
        return moves
    v = engine.view(state, player)
    me = next((h for h in v.heroes if h.active), None)
    if me is None:
        return moves
    # heal before pressing on: a potion is drunk only with AP left, so a hero about to go down drinks first (a
    # search that spends the last AP on an attack leaves the potion in the bag while the monsters react)
    spawn, foes = _goals(v)
    if (drink and me.life - me.wounds <= DRINK and me.wounds >= 2 and threat(v).get(me.id, 0.0) > 0
            and not _strikes_spawn(moves, spawn)):
        return drink
    if spawn is not None and spawn.life - spawn.wounds > 0:
        # a hero that may strike the standing spawn point strikes it (or drinks first when it is about to go
        # down): each blow is likely (its defence is low), and every activation it stands calls another monster,
        # the level's boss at the end of its pool. A search left free to move first judges some of its rollouts
        # before the monsters react (where the step budget runs out) and walks off with the AP the blow needed
        strikes = [a for a in moves if a.cmd in ("attack", "act")
                   and parse_label(dict(a.args).get("target", "")) == (spawn.x, spawn.y)]
        if strikes:
            return strikes + (drink if _in_danger(me, threat(v).get(me.id, 0.0)) else [])
    danger = threat(v)
    waits = _waits(v, foes) if spawn is None else set()
    # the party spares the last monster until it is in place (a hero the monsters may bring down strikes it)
    if steps and spawn is None and _holding(v) and not _in_danger(me, danger.get(me.id, 0.0)):
        last = {(m.x, m.y) for m in foes}
        moves = [a for a in moves if a.cmd not in ("attack", "act")
                 or parse_label(dict(a.args).get("target", "")) not in last] or moves
    if not steps:
        return moves
    # in range by the route is not in range: a wall or a model may block the line of sight. A hero that may not
    # strike the objective from where it stands closes in as a melee hero would
    targets = {(spawn.x, spawn.y)} if spawn is not None else {(m.x, m.y) for m in foes}
    can_strike = any(a.cmd in ("attack", "act") and parse_label(dict(a.args).get("target", "")) in targets
                     for a in moves)
    reach = _reach(me) if can_strike else 1
    here = _gap(v, me.x, me.y, spawn, foes, reach)

    def rank(a: Action) -> tuple[int, str]:
        x, y = parse_label(dict(a.args)["to"]) or (me.x, me.y)
        return (_gap(v, x, y, spawn, foes, reach), a.text())

    def next_to_foe(a: Action) -> bool:
        x, y = parse_label(dict(a.args)["to"]) or (me.x, me.y)
        return any(_d(x, y, m.x, m.y) <= 1 for m in foes)

    def safe(a: Action) -> bool:
        """Out of every monster's move and reach (a place to fall back to, heal or wait for the team)."""
        x, y = parse_label(dict(a.args)["to"]) or (me.x, me.y)
        return all(_walk(v.dungeon, m.x, m.y).get((x, y), 99) > _offence(m.kind, v.level)[1]
                   + _offence(m.kind, v.level)[2] for m in v.monsters if m.kind in content().monsters)

    def onward(a: Action) -> tuple[int, str]:
        x, y = parse_label(dict(a.args)["to"]) or (me.x, me.y)
        return (_onward(v, x, y, _reach(me)) or 0, a.text())

    # the moves offered are those the judgement (`evaluate`) may prefer, so a hero never walks off and back: one
    # waiting at the next spawn point's screen (`_waits`) is offered only the way there (and, in danger, a safe
    # square), one that fights only squares nearer the fight
    in_danger = danger.get(me.id, 0.0) > 0
    if me.id in waits:
        now = _onward(v, me.x, me.y, _reach(me)) or 0
        keep = {a.text() for a in sorted((a for a in steps if onward(a)[0] < now), key=onward)[:3]}
        if in_danger:  # (never farther from its place: the wait ends)
            keep |= {a.text() for a in sorted((a for a in steps if safe(a) and onward(a)[0] <= now), key=onward)[:3]}
        return [a for a in moves if a.cmd != "move" or a.text() in keep]
    keep = {a.text() for a in sorted((a for a in steps if rank(a)[0] < here), key=rank)[:5]}
    if _onward(v, me.x, me.y) is not None:  # the way to the next level's spawn point too, but not away from a fight
        now = _onward(v, me.x, me.y, _reach(me)) or 0
        keep |= {a.text() for a in sorted((a for a in steps if onward(a)[0] < now and rank(a)[0] <= here),
                                          key=onward)[:3]}
    if not any(_d(me.x, me.y, m.x, m.y) <= 1 for m in foes):  # (one already next to a monster does not shuffle)
        keep |= {a.text() for a in sorted((a for a in steps if next_to_foe(a)), key=rank)[:3]}
    if in_danger:  # in danger where it stands: the safe squares nearest the objective too
        keep |= {a.text() for a in sorted((a for a in steps if safe(a)), key=rank)[:3]}
    return [a for a in moves if a.cmd != "move" or a.text() in keep]


def _strikes_spawn(moves: list[Action], spawn: Any) -> bool:
    """Whether one of `moves` attacks the standing spawn point with one wound left: then the hero does not drink
    first, the search weighs the potion against the blow that breaks it (every activation the spawn point
    stands calls another monster, and its pool ends with the level's boss)."""
    if spawn is None or spawn.life - spawn.wounds > 1:
        return False
    return any(a.cmd in ("attack", "act") and parse_label(dict(a.args).get("target", "")) == (spawn.x, spawn.y)
               for a in moves)


def _in_danger(h: Any, hurt: float) -> bool:
    """Whether the wounds a hero may expect before it acts again (`threat`) may bring it down."""
    return hurt > 0.5 and hurt >= h.life - h.wounds - 1


def order(engine: Any, state: Any, players: list[str]) -> list[str]:
    """Which of the waiting heroes' players goes first when several computers may activate one (the rules let
    the heroes activate in any order; a table of players would agree on it): first a hero the monsters in reach
    may bring down before it acts (it falls back, heals or kills them now, before more reactions come), then one
    close enough to strike the standing spawn point this activation (every activation that passes calls another
    monster), then the others, the one farthest behind first (the party closes up before its front hero presses
    on). Seat order breaks ties. Reads the public view only."""
    v = engine.view(state, None)
    if v.phase != "heroes":
        return list(players)
    spawn, foes = _goals(v)
    danger = threat(v)

    def key(h: Any) -> tuple[int, float, int]:
        left, hurt = h.life - h.wounds, danger.get(h.id, 0.0)
        if _in_danger(h, hurt):
            return (2, hurt - left, -h.seat)
        gap = _gap(v, h.x, h.y, spawn, foes, _reach(h))
        if spawn is not None and gap <= h.move:
            return (1, -gap, -h.seat)
        return (0, gap, -h.seat)

    heroes = {h.id: h for h in v.heroes}
    best: dict[str, tuple[int, float, int]] = {}
    for p in players:  # a player's heroes still to activate: the ones it may `activate` now
        mine = [heroes[a.argdict["hero"]] for a in engine.legal_actions(state, p)
                if a.cmd == "activate" and a.argdict.get("hero") in heroes]
        if mine:
            best[p] = max(key(h) for h in mine)
    return sorted(players, key=lambda p: best.get(p, (-1, 0.0, 0)), reverse=True)


def determinize(engine: Any, state: Any, player: str, rng: random.Random) -> Any:
    """Deck order is hidden: the cards still in each deck are dealt in a fresh order (sorted first, so
    the real order is never read)."""
    update = {}
    for name in ("loot_deck", "treasure_deck"):
        deck = getattr(state, name, None)
        if isinstance(deck, list) and len(deck) > 1:
            fresh = sorted(deck)
            rng.shuffle(fresh)
            update[name] = fresh
    return state.model_copy(update=update) if update else state


def milestones(engine: Any, state: Any) -> dict[str, bool]:
    """What selfplay counts besides wins: how far the heroes got (level N cleared: its spawn point and every
    monster of it destroyed, so the next level opened, or the game won). A spawn point destroyed by a party that
    then fell to the monsters left does not count: the level was not cleared."""
    v = engine.view(state, None)
    st = engine.status(state)
    won = bool(st.finished and st.result and st.result.winners)
    return {f"level{n}_cleared": won or v.level >= n for n in range(1, len(v.spawns))}
