"""Tokens of the living board: the cannon, the bomb token, the rotate-board token, the rotate switch and the
character token (the rulebook's token list; the older tokens are `elements.py`).

- A cannon (`Token.dir`: where its opening points) fires when a hero enters its square: the bomb die is rolled
  (Re-roll a Die may ask first, `dice.roll_or_ask`) and that bomb rolls out of the opening (`bombs.fire`).
- A bomb token is revealed when a hero stops on it: it goes, and a basic explosion is centred on that hero,
  who stays where they are (an explosion a hero sets off is centred on the hero).
- A rotate-board token is revealed when a hero stops on it: it goes, and the hero's player turns the square
  board under it a quarter either way (`rotation.rotate_board`); on a start zone only the token goes.
- A rotate switch (a scenario token, it stays) acts when a hero stops on it: the hero's player turns the
  platform it lies on a quarter around the switch, else the square board it lies on (house: "landed on" is
  stopping there, as the plain switch's entry says "moving over and landing on" where this one does not).
- A character token is collected when a hero stops on it: the token goes and the hero it names joins on a free
  square next to it as a buddy of the collecting player (`join_buddy`, `modes/buddies.py`; the player picks the
  square if several are free, `buddy_spot`; the collection is also kept in `Hero.revealed` as `character:<id>`).
"""
from __future__ import annotations

from collections.abc import Callable

from games.core import Event
from games.core.grid import DIRS8, label, step_xy
from games.core.words import says

from . import data
from .board import hero_of, safe_spot, xy
from .bombs import fire
from .dice import roll_or_ask
from .elements import explode
from .jobs import decide, name
from .modes.bside import on_bside
from .modes.buddies import holder, make_buddy
from .platforms import turned_about
from .rotation import board_box, rotate_board
from .state import Hero, Job, QState, Token

Resolver = Callable[[QState, Hero, Job, str, list[Event]], None]
LANDING = ("bomb", "rotate_board", "switch_rotate", "character")
WAYS = ("clockwise", "counter-clockwise")


def do_enter(st: QState, job: Job, ev: list[Event]) -> None:
    """After the board elements of an entered square: a cannon there fires."""
    h = hero_of(st, job.hero)
    t = st.tokens.get(h.pos) if h.pos else None
    if t is not None and t.kind == "cannon" and h.pos is not None:
        fire_cannon(st, h, h.pos, t, ev)


def fire_cannon(st: QState, h: Hero, at: str, t: Token, ev: list[Event], *, placed: bool = False) -> None:
    """Roll the bomb die (for `h`, who may re-roll on their own turn) and fire it out of the opening."""
    if placed:
        ev.append(Event(text=f"{says(h.name, 'points')} the cannon on {at} {t.dir}; it fires at once."))
    else:
        ev.append(Event(text=f"{says(h.name, 'sets')} off the cannon at {at}, pointing {t.dir}."))
    shown = roll_or_ask(st, h, "bomb", ev, at=at, d=t.dir)
    if shown is not None:
        fire(st, at, t.dir, shown, ev, None)


def do_land(st: QState, h: Hero, t: Token, job: Job, ev: list[Event]) -> None:
    """A hero stopped on a bomb, rotate-board, rotate switch or character token."""
    assert h.pos is not None
    at = h.pos
    if t.kind == "bomb":
        del st.tokens[at]
        ev.append(Event(text=f"{says(h.name, 'reveals')} a bomb token at {at}: it explodes!", irreversible=True))
        explode(st, xy(at), ev, job.by or None)
    elif t.kind == "character":
        del st.tokens[at]
        join_buddy(st, h, t.hero, at, ev)
    elif t.kind == "rotate_board":
        del st.tokens[at]
        ev.append(Event(text=f"{says(h.name, 'reveals')} a rotate board token at {at}; the token goes."))
        if board_box(st, at) is not None:
            _ask_way(st, h, at, "the board", job, t.kind)
        else:
            ev.append(Event(text=f"{at} is on a start zone, not a square board: nothing turns."))
    elif t.kind == "switch_rotate":
        pl = next((p for p in st.platforms if at in p.cells), None)
        if pl is not None or board_box(st, at) is not None:
            _ask_way(st, h, at, "the platform" if pl is not None else "the board", job, t.kind)
        else:
            ev.append(Event(text=f"The rotate switch at {at} lies on no board or platform that can turn."))


def _ask_way(st: QState, h: Hero, at: str, what: str, job: Job, kind: str) -> None:
    decider = job.by or h.player
    decide(st, "rotate_way", decider, h, list(WAYS),
           f"{name(st, decider)}: turn {what} at {at} a quarter clockwise or counter-clockwise",
           job=Job(kind="none", hero=h.player, at=at, item=kind))


def _turned(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    clockwise = option == "clockwise"
    pl = next((p for p in st.platforms if job.at in p.cells), None) if job.item == "switch_rotate" else None
    if pl is not None:
        if not turned_about(st, pl, job.at, clockwise, ev, "rotate switch"):
            ev.append(Event(text=f"The platform under the rotate switch at {job.at} is blocked and does not turn."))
    elif board_box(st, job.at) is not None:
        rotate_board(st, job.at, clockwise, ev)


def join_buddy(st: QState, h: Hero, hero_id: str, at: str, ev: list[Event]) -> None:
    """The character token's hero joins `h`'s player next to `at` as a buddy (`modes/buddies.py`): on the one free
    square beside it, or the player chooses among several (`buddy_spot`). House: with no free square beside the
    token, or its hero already on the board, nobody joins (the token still goes)."""
    who = data.heroes()[hero_id].name if hero_id in data.heroes() else hero_id
    h.revealed.append(f"character:{hero_id}")
    spots = [label(*q) for q in (step_xy(xy(at), d) for d in DIRS8) if safe_spot(st, q)]
    head = f"{says(h.name, 'collects')} the character token of {who} at {at}"
    if hero_id not in data.heroes() or any(x.hero == hero_id for x in st.heroes):
        ev.append(Event(text=f"{head}: {who} is already on the board, so nobody joins."))
        return
    if not spots:
        ev.append(Event(text=f"{head}: no square next to it is free, so {who} cannot join."))
        return
    if len(spots) == 1:
        _add_buddy(st, h, hero_id, spots[0], head, ev)
        return
    ev.append(Event(text=f"{head}: {who} joins as a buddy next to it."))
    owner = holder(st, h)
    decide(st, "buddy_spot", h.player, h, spots, f"{owner.name}: choose where {who} joins, next to {at}",
           job=Job(kind="none", hero=h.player, at=at, item=hero_id))


def _add_buddy(st: QState, h: Hero, hero_id: str, spot: str, head: str, ev: list[Event]) -> None:
    """`hero_id` joins at `spot` as a buddy of `h`'s player (a buddy collecting brings one for its controller); it
    takes its turns after the heroes already playing, like the buddies dealt at the start."""
    owner = holder(st, h)
    hd, hv = data.heroes()[hero_id], data.house()
    movement = hv.bside_movement if on_bside(st) else hv.base_movement
    b = make_buddy(owner, hero_id, hd.name, len(st.heroes), movement, hv.base_explore, hd.default_skills)
    b.team, b.pos, b.head, b.front, b.home_front = owner.team, spot, "U", owner.home_front, owner.home_front
    st.heroes.append(b)
    ev.append(Event(text=f"{head}: {hd.name} joins at {spot} as {owner.name}'s buddy.", irreversible=True))


def _spot_chosen(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    _add_buddy(st, h, job.item, option, f"{h.name}'s buddy", ev)


def _pointed(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    """A cannon placed (the Cannon Rune, `cards.py`) points the way its placer chose and fires at once; the
    placement is its firing, so Underdog adds no second shot when it lies under the placer."""
    t = st.tokens.get(job.at)
    if t is None or t.kind != "cannon":
        return
    t = st.tokens[job.at] = t.model_copy(update={"dir": option})  # tokens are frozen: a turned one is new
    fire_cannon(st, h, job.at, t, ev, placed=True)


RESOLVE: dict[str, Resolver] = {"rotate_way": _turned, "buddy_spot": _spot_chosen, "cannon_dir": _pointed}
