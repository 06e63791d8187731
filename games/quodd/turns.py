"""The turn and round sequence: who plays next, the phase changes of a turn, and the end of the round.

Each phase module (`phases/`) calls these when its phase is done; entering the movement phase
runs movement, so it lives with that phase (`phases/move.py`).
"""
from __future__ import annotations

from games.core import Event
from games.core.words import agrees, possessive, says

from .abilities.exploring import explore_bonus as explore_kinds
from .board import active, walled_in
from .deck import HAND_LIMIT, can_draw, explore_count, refill_lineup
from .events import explore_bonus, movement_bonus, play_event
from .goals import game_over_at_limit
from .modes.bside import face_explores
from .modes.buddies import holder
from .movement import run
from .state import MoveCtx, QState
from .upgrades import upgrade_actions
from .upkeep import upkeep


def placement_order(n: int, first: int) -> list[int]:
    """From the player right of the first player, counter-clockwise; the first player places last."""
    return [(first - k) % n for k in range(1, n + 1)]


def start_turn(st: QState, seat: int, ev: list[Event]) -> None:
    st.turn = seat
    st.turn_no += 1
    st.phase = "power"
    h = st.heroes[seat]
    h.iced = []  # an ice bomb's frost lasts until the hero's next turn
    h.awake = []  # B-side: a face's ability works from its activation until the hero's next turn
    bonus = movement_bonus(st)  # ongoing world events
    st.m = MoveCtx(blocked_at_start=walled_in(st, h), boost={"all": bonus} if bonus else {})
    ev.append(Event(text=f"Round {st.round}: {possessive(h.name)} turn (phase 1, power-up).", kind="turn"))


def to_recovery(st: QState, ev: list[Event]) -> None:
    st.phase = "recovery"
    st.m.ready = ""
    ev.append(Event(text=f"{active(st).name}: phase 3, recovery."))


def to_explore(st: QState, ev: list[Event]) -> None:
    """Phase 4: the explorations owed (icons, passive bonuses, earned this turn) become draws."""
    st.phase = "explore"
    h = active(st)
    explore_kinds(st, h, ev)  # upgrade abilities that explore a card of a kind or from the deck
    st.m.draws = explore_count(h) + explore_bonus(st) + face_explores(h, st.m.used, st.m.q_used or st.m.power_used)
    h.explores_earned = 0
    ev.append(Event(text=f"{h.name}: phase 4, exploration ({st.m.draws} to draw)."))
    if not can_draw(st):
        st.m.draws = 0
    if st.m.draws == 0:
        finish_exploring(st, ev)


def finish_exploring(st: QState, ev: list[Event]) -> None:
    """The draws are done: discard down to the hand limit (a choice), else the turn ends."""
    st.m.draws = 0
    h = holder(st, active(st))  # a buddy's draws went to its controller's hand
    if len(h.hand) > HAND_LIMIT:
        st.m.discarding = True
        ev.append(Event(text=f"{says(h.name, 'holds')} {len(h.hand)} cards"
                             f" and {agrees(h.name, 'discards')} down to {HAND_LIMIT}."))
        return
    end_turn(st, ev)


def end_turn(st: QState, ev: list[Event]) -> None:
    st.m.discarding = False
    refill_lineup(st, ev)
    nxt = (st.turn + 1) % len(st.heroes)
    if nxt == st.first:
        end_round(st, ev)
    else:
        start_turn(st, nxt, ev)


def end_round(st: QState, ev: list[Event]) -> None:
    """The rulebook's order: 1 upkeep (`upkeep.py`: bombs, platforms, beams, sheep), 2 a world event (game
    option `events`), 3 the time tracker (the game may end), 4 upgrades, 5 the first player coin. Steps 1 and 2
    move heroes through the movement queue; a choice they hand a player waits (`decide`) and `resume_round`
    goes on after it."""
    st.phase = "upkeep"
    st.eor = 1
    upkeep(st, ev)
    resume_round(st, ev)


def resume_round(st: QState, ev: list[Event]) -> None:
    """Drain what steps 1 and 2 queued, then the steps after them."""
    while True:
        run(st, ev)
        if st.phase == "over" or st.pending is not None:
            return
        if st.eor == 1 and st.events_on:
            st.eor = 2
            play_event(st, ev)
            continue
        break
    st.eor = 0
    if st.round >= st.round_limit:
        game_over_at_limit(st, ev)
        return
    if any(upgrade_actions(h, st.board) for h in st.heroes):
        st.phase = "upgrade"
        st.ready = []
        ev.append(Event(text=f"End of round {st.round}: every hero takes an upgrade tile (`/quodd upgrade`).",
                        kind="round"))
        return
    next_round(st, ev)


def next_round(st: QState, ev: list[Event]) -> None:
    """The first player coin passes and the next round begins."""
    passes = st.pass_coin and len(st.heroes) > 1
    if passes:
        st.first = (st.first + 1) % len(st.heroes)
    st.round += 1
    coin = "takes" if passes else "keeps"
    ev.append(Event(text=f"End of round {st.round - 1}. {says(st.heroes[st.first].name, coin)} the first player coin.",
                    kind="round"))
    start_turn(st, st.first, ev)
