"""World events: the deck of `data/events.json`, one card drawn by the first player at the end of each round
(step 2) when the game option `events` is on, and its global effect.

Effects: wind slides every hero (the direction die, or the first player's choice), an earthquake tumbles
every hero (`sweep`), a whirl spins every hero, the lineup is wiped, every hero explores, ongoing events stay
in play (their bonuses count in every turn) until Clear Skies sends them away. A new event replaces the
current one unless that one is ongoing; an empty deck takes its discard pile back, shuffled.
"""
from __future__ import annotations

from collections.abc import Callable

from games.core import Event, Rng
from games.core.grid import DIRS8
from games.core.words import says

from . import data
from .abilities.track import ignores_world_events
from .cube import spin
from .deck import draw_top, wipe_lineup
from .jobs import decide
from .state import Hero, Job, QState
from .sweep import parts, roll_direction, sweep

Resolver = Callable[[QState, Hero, Job, str, list[Event]], None]


def new_event_deck(rng: Rng) -> list[str]:
    deck = [e.id for e in data.world_events().values() for _ in range(e.count)]
    rng.shuffle(deck)
    return deck


def event_name(eid: str) -> str:
    return data.world_events()[eid].name


def movement_bonus(st: QState) -> int:
    return sum(data.world_events()[e].movement for e in st.ongoing)


def explore_bonus(st: QState) -> int:
    return sum(data.world_events()[e].explore for e in st.ongoing)


def play_event(st: QState, ev: list[Event]) -> None:
    """End of round step 2: the first player draws the top world event and everybody carries it out."""
    if not st.event_deck and st.event_discard:
        st.event_deck = list(st.event_discard)
        st.event_discard.clear()
        st.rng.shuffle(st.event_deck)
        ev.append(Event(text="The world event discard pile is shuffled into a new deck.", irreversible=True))
    if not st.event_deck:
        return
    eid = st.event_deck.pop(0)
    if st.event_now and st.event_now not in st.ongoing:
        st.event_discard.append(st.event_now)
    st.event_now = eid
    st.events_played.append(eid)
    e = data.world_events()[eid]
    first = st.heroes[st.first]
    ev.append(Event(text=f"World event, drawn by {first.name}: {e.name}. {e.text}", irreversible=True, kind="round"))
    carry_out(st, eid, ev)


def carry_out(st: QState, eid: str, ev: list[Event]) -> None:
    e = data.world_events()[eid]
    first = st.heroes[st.first]
    if e.do in ("wind", "quake") and e.aim == "choice":
        decide(st, f"event_{e.do}", first.player, first, list(DIRS8),
               f"{first.name}: choose the direction of the {e.name} (every hero moves that way)",
               job=Job(kind="none", hero=first.player, n=e.n))
    elif e.do in ("wind", "quake"):
        d = roll_direction(st)
        ev.append(Event(text=f"The direction die shows {d}.", irreversible=True))
        _blow(st, e.do, d, e.n, ev)
    elif e.do == "spin":
        decide(st, "event_spin", first.player, first, ["cw", "ccw"],
               f"{first.name}: spin every hero clockwise (cw) or counter-clockwise (ccw)")
    elif e.do == "wipe":
        wipe_lineup(st, ev)
    elif e.do == "explore":
        for k in range(len(st.heroes)):
            draw_top(st, st.heroes[(st.first + k) % len(st.heroes)], e.n, ev)
    elif e.do == "ongoing":
        st.ongoing.append(eid)
    elif e.do == "clear":
        gone = [event_name(o) for o in st.ongoing]
        st.event_discard += st.ongoing
        st.ongoing = []
        ev.append(Event(text="Ongoing events leave play: " + (", ".join(gone) or "none were in play") + "."))


def _spared(st: QState, ev: list[Event]) -> tuple[str, ...]:
    """Heroes with Ignore World Events are not moved or spun by one (house: the good ones still count)."""
    spare = tuple(h.player for h in st.heroes if ignores_world_events(h) and h.pos is not None)
    for p in spare:
        who = next(h.name for h in st.heroes if h.player == p)
        ev.append(Event(text=f"{says(who, 'ignores')} the world event "
                             "(Ignore World Events)."))
    return spare


def _blow(st: QState, do: str, d: str, n: int, ev: list[Event]) -> None:
    spare = _spared(st, ev)
    if do == "wind":
        sweep(st, "wind", d, n, ev, split=False, spare=spare)
    else:
        ev.append(Event(text=f"Every hero tumbles {' then '.join(parts(d))}."))
        sweep(st, "quake", d, 1, ev, split=True, spare=spare)


def _aimed(do: str) -> Resolver:
    def resolve(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
        ev.append(Event(text=f"{says(h.name, 'sends')} it {option}."))
        _blow(st, do, option, job.n, ev)
    return resolve


def _spun_all(st: QState, h: Hero, job: Job, option: str, ev: list[Event]) -> None:
    spare = _spared(st, ev)
    for o in st.heroes:
        if o.pos is not None and o.player not in spare:
            o.head, o.front = spin(o.head, o.front, option == "cw")
    ev.append(Event(text=f"Every hero spins {'clockwise' if option == 'cw' else 'counter-clockwise'}."))


RESOLVE: dict[str, Resolver] = {"event_wind": _aimed("wind"), "event_quake": _aimed("quake"), "event_spin": _spun_all}
