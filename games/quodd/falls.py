"""Falling: into a pit, an open trap door or off the map; what the fallen hero carried; the respawn.

Each question a fall asks (where a dropped collectible lands, which respawn point, which space
beside a taken one) is answered through `RESOLVE[kind]`, defined next to it.
"""
from __future__ import annotations

from collections.abc import Callable

from games.core import Event
from games.core.grid import DIRS4, DIRS8, label, manhattan, step_xy
from games.core.words import agrees, says

from .board import XY, hero_at, hero_of, is_mover, is_pit, on_map, point, safe_spot, squares, standable, xy
from .jobs import decide, end_movement, push_front
from .state import Hero, Job, QState

Resolver = Callable[[QState, Hero, Job, str, list[Event]], None]


def do_fall(st: QState, job: Job, ev: list[Event]) -> None:
    """Into a pit (or off the map): drop what you carry next to it, then respawn Q-up."""
    h = hero_of(st, job.hero)
    at = point(job.at)
    h.pos = None
    ev.append(Event(text=f"{says(h.name, 'falls')} into {'a pit at ' + job.at if on_map(st, at) else 'the void'}."))
    if is_mover(st, h) and not st.m.ended:
        end_movement(st, ev, "fell")
    jobs = [Job(kind="drop_fallen", hero=h.player, at=job.at, item=it) for it in h.carrying]
    h.carrying = []
    jobs.append(Job(kind="respawn", hero=h.player, at=job.at, prev=job.prev))
    push_front(st, jobs)


def do_drop_fallen(st: QState, job: Job, ev: list[Event]) -> None:
    h = hero_of(st, job.hero)
    at = point(job.at)
    spots = [label(*step_xy(at, d)) for d in DIRS8 if safe_spot(st, step_xy(at, d))]
    item = job.item.replace('-', ' ')
    if not spots:
        ev.append(Event(text=f"The {item} {h.name} carried is lost: no safe spot beside the pit."))
        return
    if len(spots) == 1:
        put_down(st, job.item, spots[0], ev)
        return
    decide(st, "drop", h.player, h, spots, f"{h.name}: choose a safe spot for the {item}", job=job)


def put_down(st: QState, item: str, lab: str, ev: list[Event]) -> None:
    st.ground.setdefault(lab, []).append(item)
    ev.append(Event(text=f"A {item.replace('-', ' ')} lands on {lab}."))


def respawn_points(st: QState, h: Hero, at: XY, prev: str) -> list[str]:
    """Nearest safe respawn points; in races never one ahead of where you were."""
    safe = [q for q in squares(st) if st.rows[q[1]][q[0]] == "R" and standable(st, q)  # (not under a beam)
            and any(on_map(st, step_xy(q, d)) and not is_pit(st, step_xy(q, d)) for d in DIRS4)]
    if st.objective in ("race", "trial") and prev and h.progress < len(st.rally):
        goal = xy(st.rally[str(h.progress + 1)])
        limit = manhattan(xy(prev), goal)
        behind = [q for q in safe if manhattan(q, goal) >= limit]
        safe = behind or safe
    if not safe:
        return []
    best = min(manhattan(q, at) for q in safe)
    return [label(*q) for q in safe if manhattan(q, at) == best]


def do_respawn(st: QState, job: Job, ev: list[Event]) -> None:
    h = hero_of(st, job.hero)
    at = point(job.at) if job.at else (xy(h.pos) if h.pos else (xy(st.rally[str(h.progress + 1)])
                                                               if str(h.progress + 1) in st.rally else (0, 0)))
    pts = respawn_points(st, h, at, job.prev)
    if not pts:
        ev.append(Event(text=f"{says(h.name, 'finds')} no safe respawn point"
                             f" and {agrees(h.name, 'stays')} out this turn."))
        return
    if len(pts) > 1:
        decide(st, "respawn", h.player, h, pts, f"{h.name}: choose the respawn point", job=job)
        return
    place_respawn(st, h, pts[0], job, ev)


def place_respawn(st: QState, h: Hero, lab: str, job: Job, ev: list[Event]) -> None:
    if hero_at(st, xy(lab), but=h.player) is not None:
        spots = [label(*step_xy(xy(lab), d)) for d in DIRS8 if standable(st, step_xy(xy(lab), d))
                 and not is_pit(st, step_xy(xy(lab), d)) and hero_at(st, step_xy(xy(lab), d)) is None]
        if not spots:
            ev.append(Event(text=f"{says(h.name, 'finds')} the respawn point {lab} crowded"
                                 f" and {agrees(h.name, 'stays')} out this turn."))
            return
        if len(spots) == 1:
            lab = spots[0]
        else:
            decide(st, "respawn_beside", h.player, h, spots,
                   f"{h.name}: the respawn point {lab} is taken; choose a space next to it", job=job)
            return
    h.pos = lab
    h.head, h.front = "U", h.home_front
    ev.append(Event(text=f"{says(h.name, 'respawns')} Q-up at {lab}."))


def _dropped(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    put_down(st, job.item, option, ev)


def _respawned(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    place_respawn(st, h, option, job, ev)


def _respawned_beside(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    h.pos = option
    h.head, h.front = "U", h.home_front
    ev.append(Event(text=f"{says(h.name, 'respawns')} Q-up at {option}, next to the taken respawn point."))


RESOLVE: dict[str, Resolver] = {"drop": _dropped, "respawn": _respawned, "respawn_beside": _respawned_beside}
