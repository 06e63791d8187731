"""Sheep: the flock wanders at the end-of-round upkeep (step 1, after bombs, platforms and beams).

Each sheep spends its speed one point at a time (grey 1, white 2, black 3): it walks one space the way it
faces, or, when it cannot, turns a quarter clockwise instead. Sheep go north to south, west to east, each
spending all its points before the next. Grey and white sheep are stopped by walls, pits, heroes, other
sheep, crystals and lying bombs; a black sheep pushes heroes, sheep and crystals along (into a pit, if one
lies beyond) and is stopped only by walls, pits, bombs and the edge. No sheep walks into a pit on purpose.

Board elements act on the square a sheep walks onto: currents carry it on, a whirlpool turns it a quarter
clockwise (house: no one to ask), a spring throws it over one space the way it walks (super spring: two),
a teleporter rolls the direction die and the teleporter die (a Q: it stays), a switch flips its group.
Tunnels and water connections are plain ground to a sheep. A sheep that comes down on a hero (a spring, a
teleporter, a bomb's throw) is picked up by that hero when it has room: at once in the scenarios written before
rule 4 was asked (`QState.sheep_ask` off), else the hero is asked (`ask_pickup`, queued as a `sheep_offer` job so
the step that brought the sheep down ends first; the sheep waits on the hero's square meanwhile and walks no
further that round); a sheep left there stays on that square with the hero, as one a hero with no room stops on
does. A hero picks up a sheep by stopping on its square (`pick_up`). A carried sheep is the collectible
`<colour>-sheep`; set down on the ground it walks again from the next upkeep.

Sheep rule 1: a scenario sheep whose facing is chosen (`"facing": "choose"`, stored as `""`) gets it from the
first player once the heroes are placed, one question a sheep, north-west first (`ask_facing`).

Winds (Random Wind, Strong Wind and the world events) blow the sheep after the heroes have slid (`blow`),
the one furthest along first, space by space as a hero slides: blown into a pit or off the map it is lost,
it stops before a wall, a bomb, a beam, a hero, another sheep or a crystal (house: a blown sheep pushes
nothing, not even a black one), and board elements act on every square it enters. It keeps its facing.
"""
from __future__ import annotations

from games.core import Event
from games.core.grid import label, step_xy
from games.core.words import says

from .board import XY, current_dir, hero_at, hero_of, is_pit, jump_landing_ok, kind, on_map, xy
from .elements import flip_group
from .jobs import decide, push_front
from .modes.buddies import carry_cap
from .skills import SKILLS_HINT
from .state import Hero, Job, QState, Sheep
from .sweep import roll_direction

SPEED: dict[str, int] = {"grey": 1, "white": 2, "black": 3}
FACINGS = ("N", "E", "S", "W")
CLOCKWISE = {"N": "E", "E": "S", "S": "W", "W": "N"}
STOPS = ("wall", "impassable_up")
CHAIN_GUARD = 40  # currents running in a circle carry a sheep at most this far in one upkeep


def sheep_at(st: QState, p: XY) -> Sheep | None:
    lab = label(*p)
    return next((s for s in st.sheep if s.at == lab), None)


def _crystal(st: QState, p: XY) -> str:
    return next((c for c in st.ground.get(label(*p), []) if "crystal" in c), "")


def _bomb(st: QState, p: XY) -> bool:
    lab = label(*p)
    return any(b.at == lab for b in st.bombs)


def _solid(st: QState, p: XY) -> bool:
    """Nothing walks or is pushed onto this square: off the map, a wall or an impassable wall up, a lying bomb,
    a beam."""
    return not on_map(st, p) or kind(st, p) in STOPS or _bomb(st, p) or label(*p) in st.lit


def _occupied(st: QState, p: XY) -> bool:
    return hero_at(st, p) is not None or sheep_at(st, p) is not None or bool(_crystal(st, p))


def _push_line(st: QState, frm: XY, d: str) -> list[XY] | None:
    """The squares of the line of heroes, sheep and crystals a black sheep pushes from `frm` towards `d`
    (nearest first), or None when the line is stopped by a wall, a bomb or the edge."""
    line: list[XY] = []
    q = step_xy(frm, d)
    while _occupied(st, q) and not is_pit(st, q):
        line.append(q)
        q = step_xy(q, d)
    if not on_map(st, q):
        return line  # pushed off the edge: that is a fall
    return None if _solid(st, q) else line


def _can_step(st: QState, s: Sheep, d: str) -> bool:
    to = step_xy(xy(s.at), d)
    if _solid(st, to) or is_pit(st, to):
        return False  # a sheep never walks into a pit on purpose, nor off the edge
    if s.colour == "black":
        return _push_line(st, xy(s.at), d) is not None
    return not _occupied(st, to)


def _push(st: QState, line: list[XY], d: str, ev: list[Event], jobs: list[Job]) -> None:
    """Shove every piece of the line one space towards `d`, the far end first."""
    for q in reversed(line):
        to = step_xy(q, d)
        lab, tlab = label(*q), label(*to)
        h = hero_at(st, q)
        other = sheep_at(st, q)
        if h is not None:
            where = tlab if on_map(st, to) else "off the map"
            ev.append(Event(text=f"The black sheep pushes {h.name} {d} to {where}."))
            if on_map(st, to):
                h.pos = tlab
                jobs += [Job(kind="enter", hero=h.player, how="push"), Job(kind="land", hero=h.player)]
            else:
                h.pos = None
                jobs.append(Job(kind="fall", hero=h.player, at=f"{to[0]},{to[1]}", prev=lab))
        elif other is not None:
            other.at = tlab
            ev.append(Event(text=f"The black sheep pushes a {other.colour} sheep {d} to {tlab}."))
            if is_pit(st, to):
                _lost(st, other, "is pushed into the pit" if on_map(st, to) else "is pushed off the map", ev)
        else:
            item = _crystal(st, q)
            st.ground[lab].remove(item)
            if not st.ground[lab]:
                del st.ground[lab]
            if is_pit(st, to):
                ev.append(Event(text=f"The black sheep pushes the {item.replace('-', ' ')} at {lab} into a pit."))
            else:
                st.ground.setdefault(tlab, []).append(item)
                ev.append(Event(text=f"The black sheep pushes the {item.replace('-', ' ')} {d} to {tlab}."))


def _lost(st: QState, s: Sheep, why: str, ev: list[Event]) -> None:
    if s in st.sheep:
        st.sheep.remove(s)
    ev.append(Event(text=f"The {s.colour} sheep {why} and is lost."))


def _picked(st: QState, s: Sheep, h: Hero, ev: list[Event]) -> bool:
    """A sheep coming down on a hero: the hero picks it up when it has room (house: no question at upkeep)."""
    if len(h.carrying) >= carry_cap(st, h):
        return False
    st.sheep.remove(s)
    h.carrying.append(f"{s.colour}-sheep")
    ev.append(Event(text=f"{says(h.name, 'picks')} up the {s.colour} sheep at {h.pos}."))
    return True


def _set_down(st: QState, s: Sheep, to: XY, ev: list[Event], how: str) -> None:
    """A sheep thrown by a spring or a teleporter comes down on `to`."""
    if not on_map(st, to) or is_pit(st, to):
        _lost(st, s, f"{how} into a pit" if on_map(st, to) else f"{how} off the map", ev)
        return
    lab = label(*to)  # on the map: a square west or north of it has no label
    h = hero_at(st, to)
    if _solid(st, to) or sheep_at(st, to) is not None or _crystal(st, to) or (
            h is not None and len(h.carrying) >= carry_cap(st, h)):
        ev.append(Event(text=f"The {s.colour} sheep cannot come down on {lab} and stays at {s.at}."))
        return
    s.at = lab
    ev.append(Event(text=f"The {s.colour} sheep {how} to {lab}."))
    if h is not None and st.sheep_ask:
        push_front(st, [Job(kind="sheep_offer", hero=h.player, at=lab)])
    elif h is not None:
        _picked(st, s, h, ev)


def ask_pickup(st: QState, job: Job, ev: list[Event]) -> None:
    """Sheep rule 4: the hero a sheep came down on may pick it up, a question to that hero's player (on a deadline
    the sheep is left, the quiet answer). Nothing is asked if by now the hero or the sheep has gone, or the hero
    has no room."""
    h = hero_of(st, job.hero)
    s = sheep_at(st, xy(job.at))
    if s is None or h.pos != job.at or len(h.carrying) >= carry_cap(st, h):
        return
    decide(st, "sheep_pickup", h.player, h, ["pick_up", "skip"],
           f"{h.name}: the {s.colour} sheep came down on you at {s.at}; pick it up or leave it there",
           job=Job(kind="none", hero=h.player, at=s.at))


def _pickup_answered(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    s = sheep_at(st, xy(job.at))
    if s is None:
        return
    if option == "pick_up":
        _picked(st, s, h, ev)
    else:
        ev.append(Event(text=f"{says(h.name, 'leaves')} the {s.colour} sheep at {s.at}."))


def ask_facing(st: QState) -> bool:
    """Sheep rule 1: the first player chooses which way a new sheep faces, one sheep at a time, north to south
    then west to east; False when every sheep faces somewhere."""
    left = sorted((s for s in st.sheep if not s.facing), key=lambda s: (xy(s.at)[1], xy(s.at)[0]))
    if not left:
        return False
    s, who = left[0], st.heroes[st.first]
    decide(st, "sheep_facing", who.player, who, list(FACINGS),
           f"{who.name}: choose the way the new {s.colour} sheep at {s.at} faces (it walks that way at the end "
           "of each round)", job=Job(kind="none", hero=who.player, at=s.at))
    return True


def _faced(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    s = sheep_at(st, xy(job.at))
    if s is not None:
        s.facing = option
        ev.append(Event(text=f"{says(h.name, 'turns')} the {s.colour} sheep at {s.at} to face {option}."))
    if not ask_facing(st):
        ev.append(Event(text=SKILLS_HINT))


def _elements(st: QState, s: Sheep, d: str, ev: list[Event]) -> None:
    """What the square the sheep walked onto does to it (currents may carry it on, square after square)."""
    for _ in range(CHAIN_GUARD):
        if s not in st.sheep:
            return
        p = xy(s.at)
        t = st.tokens.get(s.at)
        k = t.kind if t else ""
        if t is not None and k in ("switch", "switch_colour"):
            flip_group(st, t.group, ev)
            if s not in st.sheep:
                return
        f = st.rows[p[1]][p[0]]
        if k in ("spring", "super_spring"):
            over = 1 if k == "spring" else 2
            if jump_landing_ok(st, p, d, over):
                _set_down(st, s, step_xy(p, d, over + 1), ev, f"springs {d}")
            return
        if k in ("teleporter", "super_teleporter"):
            way, far = roll_direction(st), st.rng.d(6)
            if far == 6:
                ev.append(Event(text=f"The teleporter rolls Q for the {s.colour} sheep: it stays at {s.at}."))
                return
            _set_down(st, s, step_xy(p, way, far), ev, f"teleports {far} {way}")
            return
        if k:
            return  # any other token covers the printed square (tunnels are plain ground to a sheep)
        arrow = current_dir(st, p)
        if f == "@":
            s.facing = CLOCKWISE[s.facing]
            ev.append(Event(text=f"The whirlpool turns the {s.colour} sheep at {s.at} to face {s.facing}."))
            return
        if arrow is None:
            return
        to = step_xy(p, arrow)
        if _solid(st, to) or _occupied(st, to):
            return
        if is_pit(st, to):
            s.at = label(*to) if on_map(st, to) else s.at
            _lost(st, s, "is carried into a pit by the current", ev)
            return
        s.at = label(*to)
        ev.append(Event(text=f"The current carries the {s.colour} sheep {arrow} to {s.at}."))
        d = arrow


def throw(st: QState, s: Sheep, d: str, ev: list[Event]) -> None:
    """A bomb hits a sheep: it jumps two spaces directly away (as a hero would), before the explosion."""
    _set_down(st, s, step_xy(xy(s.at), d, 2), ev, f"is thrown {d}")


def walk(st: QState, s: Sheep, ev: list[Event], jobs: list[Job]) -> None:
    """One sheep spends its speed: a step forward, or a quarter turn clockwise when it cannot step."""
    for _ in range(SPEED[s.colour]):
        if s not in st.sheep:
            return
        d = s.facing
        if not _can_step(st, s, d):
            s.facing = CLOCKWISE[d]
            ev.append(Event(text=f"The {s.colour} sheep at {s.at} cannot walk {d} and turns to face {s.facing}."))
            continue
        frm = xy(s.at)
        if s.colour == "black":
            line = _push_line(st, frm, d) or []
            _push(st, line, d, ev, jobs)
        s.at = label(*step_xy(frm, d))
        ev.append(Event(text=f"The {s.colour} sheep walks {d} to {s.at}."))
        _elements(st, s, d, ev)
        if st.sheep_ask and s in st.sheep and hero_at(st, xy(s.at)) is not None:
            return  # it came down on a hero: it waits there for the hero's answer (`ask_pickup`)


def blow(st: QState, d: str, n: int, ev: list[Event]) -> None:
    """A wind slides every sheep `n` spaces towards `d` (any of the eight), the one furthest along first."""
    dx, dy = step_xy((0, 0), d)
    for s in sorted(st.sheep, key=lambda s: -(dx * xy(s.at)[0] + dy * xy(s.at)[1])):
        for _ in range(n):
            if s not in st.sheep:
                break
            to = step_xy(xy(s.at), d)
            if not on_map(st, to) or is_pit(st, to):
                _lost(st, s, f"is blown {d} into a pit" if on_map(st, to) else f"is blown {d} off the map", ev)
                break
            if _solid(st, to) or _occupied(st, to):
                ev.append(Event(text=f"The {s.colour} sheep at {s.at} is blown {d} but cannot go on."))
                break
            s.at = label(*to)
            ev.append(Event(text=f"The wind blows the {s.colour} sheep {d} to {s.at}."))
            _elements(st, s, d, ev)


def upkeep_sheep(st: QState, ev: list[Event]) -> None:
    """End of round step 1, last part: sheep set down on the ground walk again; every sheep walks, north to
    south, west to east (by where each stood when the upkeep began)."""
    for lab in sorted(st.ground):
        for item in [i for i in st.ground[lab] if i.endswith("-sheep")]:
            st.ground[lab].remove(item)
            st.sheep.append(Sheep(at=lab, colour=item.removesuffix("-sheep"), facing="N"))
        if not st.ground[lab]:
            del st.ground[lab]
    jobs: list[Job] = []
    for s in sorted(st.sheep, key=lambda s: (xy(s.at)[1], xy(s.at)[0])):
        if st.sheep_ask and any(j.kind == "sheep_offer" and j.at == s.at for j in st.queue):
            continue  # brought down on a hero earlier in the upkeep (a bomb's throw): it waits for the answer
        walk(st, s, ev, jobs)
    push_front(st, jobs)


def pick_up(st: QState, h: Hero, ev: list[Event]) -> None:
    """A hero stopping on a sheep's square picks it up when it has room (rule 9: landing, not passing)."""
    if h.pos is None:
        return
    s = sheep_at(st, xy(h.pos))
    if s is not None:
        _picked(st, s, h, ev)


RESOLVE = {"sheep_facing": _faced, "sheep_pickup": _pickup_answered}
