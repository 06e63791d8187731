"""Moving every hero at once: winds slide them, earthquakes tumble them (world events, the Earthquake Q-power).

Heroes go one by one, the one furthest along the direction first, so a hero moves before anyone behind
it could push it; a hero that still bumps into another pushes it as usual, and board elements act on
every square entered (their choices go to each hero's own controller). Skills never activate. A
diagonal direction of the direction die is taken one part at a time, north or south first (FAQ);
a blocked part is simply not made. A wind blows the sheep too, once the heroes have slid (a `blow` job).
"""
from __future__ import annotations

from games.core import Event
from games.core.grid import DIRS8

from .board import xy
from .jobs import push_front
from .state import Job, QState

DIRECTION_DIE = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def roll_direction(st: QState) -> str:
    return DIRECTION_DIE[st.rng.d(8) - 1]


def parts(d: str) -> list[str]:
    """A diagonal one direction at a time, north or south first (FAQ: NW is N, then W)."""
    return [d] if len(d) == 1 else [d[0], d[1]]


def sweep(st: QState, how: str, d: str, n: int, ev: list[Event], *, split: bool, spare: tuple[str, ...] = ()) -> None:
    """Queue `n` steps `d` for every hero on the map (`how`: wind slides, quake tumbles), but the players in
    `spare` (Ignore World Events; pushed by a hero that moves, they still move).

    With `split` a diagonal goes as its two parts (a tumble rolls only orthogonally); a wind slides diagonally."""
    jobs: list[Job] = []
    for part in parts(d) if split else [d]:
        dx, dy = DIRS8[part]
        order = sorted((h for h in st.heroes if h.pos is not None and h.player not in spare),
                       key=lambda h: (-(dx * xy(h.pos or "A1")[0] + dy * xy(h.pos or "A1")[1]), h.seat))
        for _ in range(n):
            jobs += [Job(kind="step", hero=h.player, dir=part, how=how) for h in order]
    jobs += [Job(kind="land", hero=h.player) for h in st.heroes if h.pos is not None and h.player not in spare]
    if how == "wind" and st.sheep:  # then the wind blows the sheep (`sheep.blow`)
        jobs.append(Job(kind="blow", hero="", dir=d, n=n))
    push_front(st, jobs)
