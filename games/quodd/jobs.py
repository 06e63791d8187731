"""The movement job queue's primitives: queueing jobs, asking a decision, ending a movement, pushing heroes.

A job is one small piece of movement resolution (`state.Job`); `movement.run` drains the queue.
When the rules hand a player a choice, a `Decision` is stored and the queue waits for `choose`.
"""
from __future__ import annotations

from games.core import Event
from games.core.grid import label, step_xy
from games.core.words import possessive, says

from . import marks
from .board import XY, active, hero_at, hero_of, is_mover, on_map, point_text, xy
from .state import Decision, Hero, Job, QState


def name(st: QState, player: str) -> str:
    return hero_of(st, player).name


def push_front(st: QState, jobs: list[Job]) -> None:
    st.queue[0:0] = jobs


def decide(st: QState, kind_: str, player: str, h: Hero, options: list[str], prompt: str,
           job: Job | None = None, allow_rearrange: bool = False) -> None:
    st.pending = Decision(kind=kind_, player=player, hero=h.player, options=options, prompt=prompt,
                          job=job, allow_rearrange=allow_rearrange)


def cancel_seq(st: QState, seq: int, *, keep: tuple[str, ...] = ("land", "skill_end", "activate")) -> None:
    if seq:
        st.queue = [j for j in st.queue if j.seq != seq or j.kind in keep]


def end_movement(st: QState, ev: list[Event], why: str) -> None:
    m = st.m
    if m.ended:
        return
    m.ended = True
    m.ready = ""
    m.points = 0
    cancel_seq(st, m.seq, keep=("land",))
    ev.append(Event(text=f"{possessive(active(st).name)} movement ends ({why})."))


def keep_points(st: QState, ev: list[Event], why: str) -> None:
    """Teleport or Tunnel Mastery: instead of ending the movement, the rest of the skill's steps are dropped
    and their points stay ready for the same skill (`move` again)."""
    m = st.m
    left = sum(1 for j in st.queue if j.seq == m.seq and j.kind in ("step", "jump"))
    if m.ended or not m.current or left == 0:
        return
    cancel_seq(st, m.seq, keep=("land",))
    m.points += left
    m.ready = m.current
    m.seq += 1  # the cut skill's own end no longer clears the points
    ev.append(Event(text=f"{says(active(st).name, 'keeps')} {m.points} point{'s' if m.points != 1 else ''} after the "
                         f"{why} ({why.title()} Mastery)."))


def move_hero(st: QState, h: Hero, to: XY) -> None:
    """Put `h` on `to` (off the map: nowhere); the mover's path on the board image grows."""
    start, h.pos = h.pos, label(*to) if on_map(st, to) else None
    marks.went(st, h, start, h.pos)
    if is_mover(st, h) and h.pos:
        st.last_path.append(h.pos)


def push_chain(st: QState, other: Hero, d: str, by: str, ev: list[Event], out: list[Job]) -> None:
    """Push `other` one space towards `d`, pushing whoever stands beyond first."""
    assert other.pos is not None
    frm = xy(other.pos)
    to = step_xy(frm, d)
    nxt = hero_at(st, to, but=other.player)
    if nxt is not None:
        push_chain(st, nxt, d, by, ev, out)
    where = "to " + label(*to) if on_map(st, to) else "off the map"
    ev.append(Event(text=f"{says(other.name, 'is')} pushed {d} {where}."))
    if on_map(st, to):
        other.pos = label(*to)
        marks.went(st, other, label(*frm), other.pos)  # the board image numbers a push like any other move
        out.append(Job(kind="enter", hero=other.player, how="push", by=by))
        out.append(Job(kind="land", hero=other.player, by=by))
    else:
        other.pos = None
        out.append(Job(kind="fall", hero=other.player, at=point_text(to), prev=label(*frm), by=by))
