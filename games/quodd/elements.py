"""Board elements: what the square a hero enters does to it, each element with its question and its answer.

`do_enter` applies the element of the entered square in the rulebook's order (an active token
covers the printed feature). An element that hands a player a choice asks it with `decide`;
the answer comes back through `RESOLVE[kind]`, defined next to the question.
"""
from __future__ import annotations

from collections.abc import Callable

from games.core import Event
from games.core.grid import DIRS4, DIRS8, label, manhattan, step_xy
from games.core.words import agrees, says

from . import data, marks
from .abilities.track import has, mark, used
from .board import (
    ACTIVE,
    XY,
    active,
    can_enter,
    current_dir,
    glides,
    hero_at,
    hero_of,
    is_mover,
    is_pit,
    jump_landing_ok,
    kind,
    occupancy,
    on_map,
    squares,
    standable,
    token,
    xy,
)
from .cube import spin
from .jobs import decide, end_movement, keep_points, name, push_chain, push_front
from .state import Hero, Job, QState, Sheep

Resolver = Callable[[QState, Hero, Job, str, list[Event]], None]


def do_enter(st: QState, job: Job, ev: list[Event]) -> None:
    """Board elements of the square a hero just entered (token first; an active token covers the print)."""
    h = hero_of(st, job.hero)
    if h.pos is None:
        return
    p = xy(h.pos)
    decider = job.by or h.player
    own = is_mover(st, h) and not job.by and job.how not in ("push", "explosion", "wind", "quake")
    if is_pit(st, p):
        push_front(st, [Job(kind="fall", hero=h.player, at=h.pos, prev=job.prev or h.pos, by=job.by)])
        return
    t = token(st, p)
    k = t.kind if t else ""
    if t is not None and k == "rally" and st.objective in ("race", "trial") and t.number == h.progress + 1:
        h.progress += 1
        ev.append(Event(text=f"{says(h.name, 'reaches')} rally marker {t.number}."))
        if h.progress == len(st.rally):
            h.finished_round = st.round
    if t is not None and k in ("switch", "switch_colour"):
        flip_group(st, t.group, ev)
    if k in ("q", "rearrange"):
        _rearrange_token(st, h, k, own, job)
    elif k in ("spring", "super_spring"):
        _spring(st, h, k, decider, job, ev)
    elif k in ("teleporter", "super_teleporter"):
        teleport(st, h, p, k, decider, job, ev)
    elif k == "tunnel":
        _tunnel(st, h, own, job)
    elif k in ACTIVE:
        return
    elif (has(h, "flow") or glides(h)) and (current_dir(st, p) or st.rows[p[1]][p[0]] == "@"):
        return  # Flow, or Freeze-O-Tron's ice: currents and whirlpools leave this hero alone
    elif current_dir(st, p):
        push_front(st, [Job(kind="step", hero=h.player, dir=current_dir(st, p) or "", how="current", by=job.by)])
    elif st.rows[p[1]][p[0]] == "@":
        _whirlpool(st, h, decider)
    elif st.rows[p[1]][p[0]] == "w" and job.how != "link":
        _water(st, h, decider, job, ev)


# ---- Q and rearrange tokens ----------------------------------------------------------------

def _rearrange_token(st: QState, h: Hero, k: str, own: bool, job: Job) -> None:
    """Your own move stopping on a Q or rearrange token offers a rearrange (answered by `rearrange` or `skip`)."""
    if own and not st.m.ended:
        what = "use Q-powers (rearrange skills)" if k == "q" else "rearrange skills"
        decide(st, "token", h.player, h, ["skip"], f"{h.name}: {what} at {h.pos} (rearrange), or skip",
               job=job, allow_rearrange=True)


def _token_skipped(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    ev.append(Event(text=f"{says(h.name, 'leaves')} the skills as they are."))


# ---- springs --------------------------------------------------------------------------------

def _spring(st: QState, h: Hero, k: str, decider: str, job: Job, ev: list[Event]) -> None:
    assert h.pos is not None
    over = 1 if k == "spring" else 2
    dirs = [d for d in DIRS4 if jump_landing_ok(st, xy(h.pos), d, over)]
    if not dirs:
        ev.append(Event(text=f"The {k.replace('_', ' ')} at {h.pos} cannot throw {h.name} anywhere."))
    elif len(dirs) == 1:
        push_front(st, [Job(kind="jump", hero=h.player, dir=dirs[0], n=over, how="spring", by=job.by)])
    else:
        decide(st, "spring", decider, h, dirs,
               f"{name(st, decider)}: choose where the {k.replace('_', ' ')} throws {h.name}",
               job=Job(kind="jump", hero=h.player, n=over, how="spring", by=job.by))


def _sprung(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    push_front(st, [job.model_copy(update={"dir": option})])


# ---- teleporters and explosions ---------------------------------------------------------------

def teleport(st: QState, h: Hero, p: XY, k: str, decider: str, job: Job, ev: list[Event]) -> None:
    rolls = [st.rng.d(6)] if k == "teleporter" else [st.rng.d(6), st.rng.d(6)]
    roller = hero_of(st, decider)
    if has(roller, "re-roll") and decider == active(st).player and not used(st, "re-roll"):
        shown = "+".join("Q" if r == 6 and k == "teleporter" else str(r) for r in rolls)
        ev.append(Event(text=f"{says(name(st, decider), 'rolls')} {shown} for the {k.replace('_', ' ')} at {h.pos}.",
                        irreversible=True))
        decide(st, "reroll", decider, h, ["keep", "reroll"],
               f"{name(st, decider)}: keep the roll of {shown} or roll again (Re-roll a Die, once a turn)",
               job=job.model_copy(update={"item": k, "at": label(*p), "prev": ",".join(map(str, rolls))}))
        return
    _rolled(st, h, p, k, decider, job, rolls, ev)


def _rerolled(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    rolls = [int(r) for r in job.prev.split(",")]
    decider = job.by or h.player
    if option == "reroll":
        mark(st, "re-roll")
        rolls = [st.rng.d(6) for _ in rolls]
        ev.append(Event(text=f"{says(name(st, decider), 'rolls')} again (Re-roll a Die).", irreversible=True))
    _rolled(st, h, xy(job.at), job.item, decider, job.model_copy(update={"item": "", "at": "", "prev": ""}),
            rolls, ev)


def _rolled(st: QState, h: Hero, p: XY, k: str, decider: str, job: Job, rolls: list[int], ev: list[Event]) -> None:
    """Where the rolled teleporter sends `h` (Teleport +2 of whoever rolled reaches 2 further)."""
    own = is_mover(st, h) and not job.by
    plus = 2 if has(hero_of(st, decider), "teleport-plus-two") else 0
    if k == "teleporter":
        roll = rolls[0]
        broken, reach, shown = roll == 6, roll + plus, "Q" if roll == 6 else str(roll)
    else:
        a, b = rolls
        broken, reach, shown = a == b, a + b + plus, f"{a}+{b}"
    if plus and not broken:
        shown += " (+2, Teleport +2)"
    who = name(st, decider)
    what = k.replace('_', ' ')
    if broken:
        ev.append(Event(text=f"{says(who, 'rolls')} {shown} for the {what} at {h.pos}: it explodes!",
                        irreversible=True))
        del st.tokens[label(*p)]
        explode(st, p, ev)
        if own:
            end_movement(st, ev, "teleporter destroyed")
        return
    dests = [label(*q) for q in squares(st) if 1 <= manhattan(p, q) <= reach and standable(st, q)
             and hero_at(st, q) is None]
    ev.append(Event(text=f"{says(who, 'rolls')} {shown} for the {what} at {h.pos}.", irreversible=True))
    if own and has(h, "teleport-mastery"):
        keep_points(st, ev, "teleport")
    elif own:
        end_movement(st, ev, "teleporter")
    if not dests:
        return
    decide(st, "teleport", decider, h, dests,
           f"{who}: choose where {says(h.name, 'teleports')} (up to {reach} space{'s' if reach != 1 else ''})", job=job)


def _teleported(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    ev.append(Event(text=f"{says(h.name, 'teleports')} to {option}."))
    marks.went(st, h, h.pos, option)
    h.pos = option
    if is_mover(st, h):
        st.last_path.append(option)
    push_front(st, [Job(kind="enter", hero=h.player, how="teleport", by=job.by),
                    Job(kind="land", hero=h.player, by=job.by)])


def explode(st: QState, c: XY, ev: list[Event], by: str | None = None) -> list[Hero]:
    """Basic explosion: walls in radius 1 break, common tokens vanish, heroes jump 1 away (the heroes
    caught are returned). `by` decides for them where they land (default: the active player)."""
    kinds = data.token_kinds()
    jobs: list[Job] = []
    caught: list[Hero] = []
    decider = active(st).player if by is None else by
    for d in ("", *DIRS8):  # the centre too: a wall the bomb hit breaks with the others
        q = step_xy(c, d) if d else c
        if not on_map(st, q):
            continue
        lab = label(*q)
        t = st.tokens.get(lab)
        if t and t.kind == "wall":
            st.tokens[lab] = t.model_copy(update={"kind": "broken_wall"})  # tokens are frozen
        elif t and not kinds[t.kind].scenario:
            del st.tokens[lab]
        flock = [s for s in st.sheep if s.at == lab] if d else []
        if flock:
            _throw_sheep(st, flock[0], d, ev)
        other = hero_at(st, q) if d else None
        if other is not None:
            caught.append(other)
            jobs.append(Job(kind="jump", hero=other.player, dir=d, n=1, how="explosion", by=decider))
    ev.append(Event(text=f"An explosion at {label(*c)} breaks walls and scatters tokens around it."))
    marks.exploded(st, label(*c))
    push_front(st, jobs)
    return caught


def _throw_sheep(st: QState, s: Sheep, d: str, ev: list[Event]) -> None:
    """A sheep in the blast jumps over one space directly away, as a hero does: lost in a pit or off the map,
    staying put when the landing is taken (a wall, a hero, another sheep, a crystal)."""
    to = step_xy(xy(s.at), d, 2)
    if not on_map(st, to) or is_pit(st, to):
        st.sheep.remove(s)
        ev.append(Event(text=f"The explosion throws the {s.colour} sheep from {s.at} away; it is lost."))
        return
    lab = label(*to)
    taken = hero_at(st, to) is not None or any(o.at == lab for o in st.sheep) or st.ground.get(lab)
    if kind(st, to) in ("wall", "impassable_up") or taken or not jump_landing_ok(st, xy(s.at), d, 1):
        return
    ev.append(Event(text=f"The explosion throws the {s.colour} sheep from {s.at} to {lab}."))
    s.at = lab


# ---- switches -------------------------------------------------------------------------------

def flip_group(st: QState, group: str, ev: list[Event]) -> None:
    flips = {"trap_door": "trap_door_open", "trap_door_open": "trap_door",
             "impassable_up": "impassable_down", "impassable_down": "impassable_up"}
    jobs: list[Job] = []
    for lab, t in list(st.tokens.items()):
        if t.group == group and t.kind in flips:
            t = st.tokens[lab] = t.model_copy(update={"kind": flips[t.kind]})  # tokens are frozen
            if t.kind == "trap_door_open":
                lost = st.ground.pop(lab, []) + [f"the {s.colour} sheep" for s in st.sheep if s.at == lab]
                st.sheep = [s for s in st.sheep if s.at != lab]
                if lost:
                    ev.append(Event(text=f"{', '.join(lost)} at {lab} fall through the trap door and are lost."))
                victim = hero_at(st, xy(lab))
                if victim is not None:
                    jobs.append(Job(kind="fall", hero=victim.player, at=lab, prev=lab))
    ev.append(Event(text=f"Switch: the {group} trap doors and walls flip."))
    push_front(st, jobs)


# ---- whirlpools -----------------------------------------------------------------------------

def _whirlpool(st: QState, h: Hero, decider: str) -> None:
    """A whirlpool spins the hero a quarter turn; its controller (or whoever pushed it there) picks the way."""
    who = "your hero" if decider == h.player else h.name
    decide(st, "spin", decider, h, ["cw", "ccw"],
           f"{name(st, decider)}: spin {who} on the whirlpool clockwise (cw) or counter-clockwise (ccw)")


def _spun(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    h.head, h.front = spin(h.head, h.front, option == "cw")
    way = "clockwise" if option == "cw" else "counter-clockwise"
    ev.append(Event(text=f"{says(h.name, 'spins')} {way} on the whirlpool."))


# ---- tunnels and water connections: coming up somewhere else ------------------------------------

def _tunnel(st: QState, h: Hero, own: bool, job: Job) -> None:
    """Only on your own move, and it ends the move: pick another tunnel to come up at, or stay."""
    if own and job.how != "tunnel" and not st.m.ended:
        others = [lab for lab, tk in st.tokens.items() if tk.kind == "tunnel" and lab != h.pos]
        if others:
            decide(st, "tunnel", h.player, h, others + ["stay"], f"{h.name}: enter the tunnel (pick an exit), or stay")


def _tunnelled(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    if option != "stay":
        ev.append(Event(text=f"{says(h.name, 'goes')} through the tunnel to {option}."))
        if has(h, "tunnel-mastery"):
            keep_points(st, ev, "tunnel")
        else:
            end_movement(st, ev, "tunnel")
        surface(st, h, option, Job(kind="surface", hero=h.player, at=option, how="tunnel"), ev)
    else:
        ev.append(Event(text=f"{says(h.name, 'stays')} out of the tunnel."))


def _water(st: QState, h: Hero, decider: str, job: Job, ev: list[Event]) -> None:
    assert h.pos is not None
    letter = st.links[h.pos]
    ends = [lab for lab, le in st.links.items() if le == letter and lab != h.pos]
    if len(ends) == 1:
        link_to(st, h, ends[0], job, ev)
    elif ends:
        decide(st, "link", decider, h, ends,
               f"{name(st, decider)}: choose the water connection {letter} {says(h.name, 'surfaces')} at", job=job)


def link_to(st: QState, h: Hero, dest: str, job: Job, ev: list[Event]) -> None:
    ev.append(Event(text=f"{says(h.name, 'rides')} the water connection from {h.pos} to {dest}."))
    surface(st, h, dest, Job(kind="surface", hero=h.player, at=dest, how="link", by=job.by, seq=job.seq), ev)


def _linked(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    link_to(st, h, option, job, ev)


def _follow_up(job: Job) -> list[Job]:
    """What comes after surfacing: a water connection lets the move go on, a tunnel is a landing."""
    if job.how == "tunnel":
        return [Job(kind="enter", hero=job.hero, how="tunnel"), Job(kind="land", hero=job.hero)]
    return [Job(kind="enter", hero=job.hero, how=job.how, by=job.by, seq=job.seq)]


def _arrive(st: QState, h: Hero, dest: str, job: Job, pushed: list[Job]) -> None:
    marks.went(st, h, h.pos, dest)
    h.pos = dest
    if is_mover(st, h):
        st.last_path.append(dest)
    push_front(st, _follow_up(job) + pushed)  # the arriving hero first, then whoever it pushed


def surface(st: QState, h: Hero, dest: str, job: Job, ev: list[Event]) -> None:
    """Come up at `dest` (a tunnel exit or water connection). A hero standing there is pushed one space
    in a direction the mover picks, as when a jump lands on them; if they cannot move at all, their
    controller picks the space next to it where the arriving hero comes up."""
    to = xy(dest)
    other = hero_at(st, to, but=h.player)
    if other is None:
        _arrive(st, h, dest, job, [])
        return
    occ = {q: pid for q, pid in occupancy(st).items() if pid != h.player}
    dirs = [d for d in DIRS8 if can_enter(st, other, to, d, occ=occ)]
    decider = job.by or h.player
    if len(dirs) == 1:
        _surface_push(st, h, other, dirs[0], job, ev)
    elif dirs:
        decide(st, "surface_push", decider, h, dirs,
               f"{name(st, decider)}: {says(h.name, 'comes')} up under {other.name} at {dest}; "
               f"choose where {says(other.name, 'is')} pushed", job=job)
    else:
        spots = [label(*q) for q in (step_xy(to, d) for d in DIRS8)
                 if on_map(st, q) and kind(st, q) != "impassable_up" and hero_at(st, q, but=h.player) is None]
        if not spots:
            ev.append(Event(text=f"{h.name} cannot come up under {other.name} at {dest}"
                                 f" and {agrees(h.name, 'stays')} at {h.pos}."))
            return
        decide(st, "surface_beside", other.player, h, spots,
               f"{other.name}: choose where {says(h.name, 'comes')} up next to {dest} ({other.name} cannot be moved)",
               job=job)


def _surface_push(st: QState, h: Hero, other: Hero, d: str, job: Job, ev: list[Event]) -> None:
    ev.append(Event(text=f"{says(h.name, 'comes')} up under {other.name} at {job.at}."))
    h.pos = None  # already on the way: the push never runs into the arriving hero's old square
    pushed: list[Job] = []
    push_chain(st, other, d, job.by or h.player, ev, pushed)
    _arrive(st, h, job.at, job, pushed)


def _surface_pushed(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    other = hero_at(st, xy(job.at), but=h.player)
    assert other is not None
    _surface_push(st, h, other, option, job, ev)


def _surfaced_beside(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    ev.append(Event(text=f"{says(h.name, 'comes')} up at {option}, next to {job.at}."))
    _arrive(st, h, option, job, [])


RESOLVE: dict[str, Resolver] = {
    "token": _token_skipped, "spring": _sprung, "reroll": _rerolled, "teleport": _teleported, "spin": _spun,
    "tunnel": _tunnelled,
    "link": _linked, "surface_push": _surface_pushed, "surface_beside": _surfaced_beside,
}
