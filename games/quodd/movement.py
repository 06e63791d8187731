"""Movement resolution: a queue of small jobs (a step, a jump, entering a square, landing).

Board elements act on every step in the rulebook's priority order (`elements`); falls and
respawns are in `falls`. When the rules give a player a choice, the queue stops with a
`Decision`; `answer` resolves it through the `RESOLVE` table of the module that asked, and the
movement phase resumes the queue.
"""
from __future__ import annotations

from collections.abc import Callable

from games.core import Event
from games.core.grid import DIRS8, label, step_xy
from games.core.words import says

from . import beams, data, dice, elements, events, falls, gadgets, sheep, upkeep
from .abilities import moving, stealing
from .abilities.moving import after_jump, after_push, after_tumble_skill, crush, leave_behind
from .board import (
    REVEAL,
    XY,
    can_enter,
    hero_at,
    hero_of,
    is_drop,
    is_mover,
    is_wall,
    jump_landing_ok,
    kind,
    on_map,
    point_text,
    token,
    xy,
)
from .collectibles import RESOLVE as STEAL_RESOLVE
from .collectibles import offer_steal
from .cube import tumble
from .deck import take_reveal
from .goals import check_win
from .jobs import cancel_seq, decide, end_movement, move_hero, name, push_chain, push_front
from .modes.buddies import carry_cap
from .sheep import blow, pick_up
from .skills import skill_points, top_skill, turns_freely
from .state import Hero, Job, QState
from .upgrades import RESOLVE as UPGRADE_RESOLVE
from .upgrades import offer_token_upgrade

HOW_OWN = ("tumble", "slide", "dash", "jump", "skill")
Resolver = Callable[[QState, Hero, Job, str, list[Event]], None]


def run(st: QState, ev: list[Event]) -> None:
    """Resolve jobs until the queue is empty, a decision waits or the game is won.

    It never changes the phase of the turn (except to `over`): the movement phase looks at the
    drained queue and moves on itself (`phases.move.settle`).
    """
    guard = data.house().chain_guard
    n = 0
    seen: dict[tuple, tuple[int, list[Job]]] = {}  # position before a current's step -> current steps so far, rest
    carried: list[str] = []  # the hero of each current's step, in order
    names: list[str] = []
    if st.beams:  # something done outside the queue (a card, a Q-power) may have moved a beam
        beams.refresh(st, ev)
    while st.pending is None and st.queue and st.phase != "over":
        n += 1
        job = st.queue[0]
        looped = n > guard
        if job.kind == "step" and job.how == "current":
            key = position_key(st)
            if key in seen and _untouched(seen[key][1], st.queue):
                looped = True
                names = [hero_of(st, p).name for p in dict.fromkeys(carried[seen[key][0]:])]
            seen[key] = (len(carried), st.queue[1:])
            carried.append(job.hero)
        if looped:
            st.queue.clear()
            who = " and ".join(filter(None, [", ".join(names[:-1]), names[-1]])) if names else "everything"
            ev.append(Event(text=f"The currents carry {who} round in a circle back to the same position; "
                                 "everything comes to rest here."))
            if st.phase == "move":
                end_movement(st, ev, "caught in a loop")
            break
        st.queue.pop(0)
        HANDLERS[job.kind](st, job, ev)
        if st.beams:
            beams.refresh(st, ev)
        check_win(st, ev)


def position_key(st: QState) -> tuple:
    """The whole position a loop of currents could bring back: heroes, what lies on the board, the dice, the
    movement's own counts and the job about to run. Only currents move heroes for free, so every endless loop
    passes through a current's step; `run` compares this key there only (the rulebook is silent on loops: we stop
    at the first repeat, when nothing new can happen any more)."""
    return (tuple((h.pos, h.head, h.front, tuple(h.carrying)) for h in st.heroes), tuple(st.tokens.items()),
            tuple((k, tuple(v)) for k, v in st.ground.items()), repr(st.sheep), repr(st.platforms), repr(st.m),
            repr(st.rng), repr(st.queue[0]))


def _untouched(rest: list[Job], queue: list[Job]) -> bool:
    """Whether the jobs that waited behind a current's step are still all there, at the back of the queue: then
    everything since came from that step alone, and the same position runs the same way again, forever (jobs are
    only ever added at the front)."""
    return len(queue) > len(rest) and all(a is b for a, b in zip(reversed(rest), reversed(queue), strict=False))


def do_step(st: QState, job: Job, ev: list[Event]) -> None:
    h = hero_of(st, job.hero)
    if h.pos is None:
        return
    frm = xy(h.pos)
    d = job.dir
    if not can_enter(st, h, frm, d):
        ev.append(Event(text=f"{says(h.name, 'is')} blocked going {d} from {h.pos}."))
        cancel_seq(st, job.seq)
        return
    to = step_xy(frm, d)
    jobs: list[Job] = []
    other = hero_at(st, to, but=h.player)
    if other is not None:
        push_chain(st, other, d, job.by or h.player, ev, jobs)
    if job.how in ("tumble", "quake"):
        h.head, h.front = tumble(h.head, h.front, d)
    if job.seq and job.seq == st.m.seq and job.how in HOW_OWN and is_mover(st, h) and not job.n:
        st.m.taken += 1  # a step job's `n` marks a free glide on ice (Freeze-O-Tron)
    move_hero(st, h, to)
    crush(st, h, [to], ev)
    leave_behind(st, h, frm, job, ev)
    verb = {"tumble": "tumbles", "quake": "tumbles", "wind": "is blown", "current": "is carried by the current",
            "push": "is pushed"}.get(job.how, "moves") if not job.n else "glides"
    where = f"to {h.pos}" if h.pos else "off the map"
    if job.how != "push":
        ev.append(Event(text=f"{says(h.name, verb)} {d} {where}."))
    if h.pos is None:
        jobs.append(Job(kind="fall", hero=h.player, at=point_text(to), prev=label(*frm), by=job.by))
    else:
        jobs.append(Job(kind="enter", hero=h.player, how=job.how, by=job.by, seq=job.seq))
        if other is not None:
            jobs += after_push(st, h, job)
    push_front(st, jobs)


def do_jump(st: QState, job: Job, ev: list[Event]) -> None:
    """Jump over `n` spaces: only the landing square counts; walls may be landed on."""
    h = hero_of(st, job.hero)
    if h.pos is None:
        return
    frm = xy(h.pos)
    d = job.dir
    if not jump_landing_ok(st, frm, d, job.n):
        ev.append(Event(text=f"{h.name} cannot jump {d}: an impassable wall is in the way."))
        cancel_seq(st, job.seq)
        return
    to = step_xy(frm, d, job.n + 1)
    other = hero_at(st, to, but=h.player)
    if other is not None:
        dirs = [x for x in DIRS8 if can_enter(st, other, to, x)]
        decider = job.by or h.player
        if not dirs:
            spots = [label(*step_xy(to, x)) for x in DIRS8 if on_map(st, step_xy(to, x))
                     and kind(st, step_xy(to, x)) != "impassable_up" and hero_at(st, step_xy(to, x)) is None]
            if not spots:
                ev.append(Event(text=f"{h.name} cannot land on {other.name}, who cannot move; the jump fails."))
                return
            decide(st, "land_beside", other.player, h, spots,
                   f"{other.name}: choose where {says(h.name, 'lands')} ({other.name} cannot be moved)", job=job)
            return
        if len(dirs) == 1:
            _land_on_hero(st, job, dirs[0], ev)
            return
        decide(st, "push_dir", decider, h, dirs,
               f"{name(st, decider)}: choose where {says(h.name, 'pushes')} {other.name} from {label(*to)}", job=job)
        return
    _finish_jump(st, job, to, ev)


def _finish_jump(st: QState, job: Job, to: XY, ev: list[Event]) -> None:
    h = hero_of(st, job.hero)
    assert h.pos is not None
    frm = xy(h.pos)
    if job.seq and job.seq == st.m.seq and is_mover(st, h) and job.how == "jump":
        st.m.taken += max(1, job.n)
    move_hero(st, h, to)
    crush(st, h, [step_xy(frm, job.dir, i) for i in range(1, job.n + 2)], ev)
    leave_behind(st, h, frm, job, ev)
    ev.append(Event(text=f"{says(h.name, 'jumps')} {job.dir} over {job.n} {'to ' + h.pos if h.pos else 'off the map'}"
                    + (" (on top of a wall)." if h.pos and is_wall(st, to) else ".")))
    if h.pos is None:
        push_front(st, [Job(kind="fall", hero=h.player, at=point_text(to), prev=label(*frm), by=job.by)])
    else:
        push_front(st, [Job(kind="enter", hero=h.player, how=job.how, by=job.by, seq=job.seq)]
                   + after_jump(st, h, job))


def _land_on_hero(st: QState, job: Job, d: str, ev: list[Event]) -> None:
    h = hero_of(st, job.hero)
    assert h.pos is not None
    to = step_xy(xy(h.pos), job.dir, job.n + 1)
    other = hero_at(st, to, but=h.player)
    assert other is not None
    jobs: list[Job] = []
    ev.append(Event(text=f"{says(h.name, 'lands')} on {other.name}."))
    take_off, h.pos = h.pos, None  # in the air: its square is free, and the push never moves the jumper itself
    push_chain(st, other, d, job.by or h.player, ev, jobs)
    h.pos = take_off
    _finish_jump(st, job, to, ev)
    st.queue[1:1] = jobs + after_push(st, h, job)  # after the jumper's own landing job


def do_land(st: QState, job: Job, ev: list[Event]) -> None:
    """What happens where a hero comes to rest: secrets, reveal tokens, pick-ups, deliveries."""
    h = hero_of(st, job.hero)
    if h.pos is None:
        return
    p = xy(h.pos)
    t = token(st, p)
    if t and t.kind == "secret" and not t.hidden:  # a preview never learns what a secret is
        ev.append(Event(text=f"{h.name} would reveal the secret token at {h.pos} here."))
        return
    if t and t.kind == "secret":
        t = st.tokens[label(*p)] = t.model_copy(update={"kind": t.hidden, "hidden": ""})  # tokens are frozen
        ev.append(Event(text=f"{says(h.name, 'reveals')} a secret token at {h.pos}: {data.token_kinds()[t.kind].name}.",
                        irreversible=True))
        push_front(st, [Job(kind="enter", hero=h.player, how="secret", by=job.by, seq=job.seq),
                        Job(kind="land", hero=h.player, by=job.by)])
        return
    if t and t.kind in gadgets.LANDING:
        gadgets.do_land(st, h, t, job, ev)
    if t and t.kind in REVEAL:
        del st.tokens[h.pos]
        h.revealed.append(t.kind)
        ev.append(Event(text=f"{says(h.name, 'takes')} the {t.kind} token at {h.pos}."))
        take_reveal(st, h, t.kind, ev)
        if t.kind == "upgrade":
            offer_token_upgrade(st, h, ev)
    pick_up(st, h, ev)  # a sheep standing here (sheep.py)
    here = st.ground.get(h.pos)
    while here and len(h.carrying) < carry_cap(st, h):
        item = here.pop(0)
        h.carrying.append(item)
        ev.append(Event(text=f"{says(h.name, 'picks')} up a {item.replace('-', ' ')} at {h.pos}."))
    if h.pos in st.ground and not st.ground[h.pos]:
        del st.ground[h.pos]
    if st.objective == "heist" and is_drop(st, p) and h.carrying:
        ev.append(Event(text=f"{says(h.name, 'delivers')} {len(h.carrying)} at the drop zone {h.pos}."))
        h.banked.extend(h.carrying)
        h.carrying.clear()


def do_skill_end(st: QState, job: Job, ev: list[Event]) -> None:
    m = st.m
    if job.seq != m.seq or m.ended:
        return
    h = hero_of(st, job.hero)
    if (m.current == "dash" or turns_freely(h, m.current)) and m.points > 0 and h.pos is not None:
        m.ready = m.current  # a path: the points left stay ready for the next `move path:`
    else:
        push_front(st, after_tumble_skill(st, h, job))
        m.ready = ""
        m.points = 0
    m.current = ""


def do_activate(st: QState, job: Job, ev: list[Event]) -> None:
    """After a tumble: the face now on top decides the skill (or Q-powers)."""
    m = st.m
    h = hero_of(st, job.hero)
    if m.ended or h.pos is None:
        return
    sk = top_skill(h)
    if sk == "q":
        m.ready, m.points = ("q", 0) if m.q_left() else ("", 0)
        ev.append(Event(text=f"{says(h.name, 'has')} the Q on top: Q-powers."))
    elif sk in m.used:
        m.ready, m.points = "", 0
        ev.append(Event(text=f"{says(h.name, 'has')} {data.skills()[sk].name} on top, already used this turn."))
    elif sk in h.iced:
        m.ready, m.points = "", 0
        ev.append(Event(text=f"{says(h.name, 'has')} {data.skills()[sk].name} on top, frozen by an ice bomb."))
    else:
        m.ready, m.points = sk, skill_points(h, sk, m.boost)
        pts = f"{m.points} point{'s' if m.points != 1 else ''}"
        ev.append(Event(text=f"{says(h.name, 'has')} {data.skills()[sk].name} on top: {pts}."))


def _pushed_dir(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    _land_on_hero(st, job, option, ev)


def _landed_beside(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    _finish_jump(st, job, xy(option), ev)


def do_enter(st: QState, job: Job, ev: list[Event]) -> None:
    """Entering a square: stealing first (on your own move), then the board element (`elements.do_enter`)."""
    if not offer_steal(st, job):
        elements.do_enter(st, job, ev)
        if st.pending is None:
            gadgets.do_enter(st, job, ev)


HANDLERS: dict[str, Callable[[QState, Job, list[Event]], None]] = {
    "step": do_step, "jump": do_jump, "enter": do_enter, "land": do_land, "fall": falls.do_fall,
    "drop_fallen": falls.do_drop_fallen, "respawn": falls.do_respawn, "skill_end": do_skill_end,
    "activate": do_activate, "blow": lambda st, job, ev: blow(st, job.dir, job.n, ev),
    "sheep_offer": sheep.ask_pickup, **moving.HANDLERS,
}
RESOLVE: dict[str, Resolver] = {"push_dir": _pushed_dir, "land_beside": _landed_beside,
                                **elements.RESOLVE, **dice.RESOLVE, **falls.RESOLVE, **events.RESOLVE,
                                **STEAL_RESOLVE, **moving.RESOLVE, **gadgets.RESOLVE, **stealing.RESOLVE,
                                **UPGRADE_RESOLVE, **upkeep.RESOLVE, **sheep.RESOLVE}


def answer(st: QState, option: str, ev: list[Event]) -> None:
    """Resolve the pending decision with `option`; the caller resumes the queue."""
    d = st.pending
    assert d is not None
    st.pending = None
    h = hero_of(st, d.hero)
    job = d.job if d.job is not None else Job(kind="none", hero=h.player)
    RESOLVE[d.kind](st, h, job, option, ev)
