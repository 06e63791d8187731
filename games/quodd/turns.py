"""Turn structure: setup placement, the four phases of a turn, and the end of the round."""
from __future__ import annotations

from games.core import Event

from .board import walled_in
from .rules import active, finish, run
from .state import Job, MoveCtx, QState


def placement_order(n: int, first: int) -> list[int]:
    """From the player right of the first player, counter-clockwise; the first player places last."""
    return [(first - k) % n for k in range(1, n + 1)]


def start_turn(st: QState, seat: int, ev: list[Event]) -> None:
    st.turn = seat
    st.turn_no += 1
    st.phase = "power"
    h = st.heroes[seat]
    st.m = MoveCtx(blocked_at_start=walled_in(st, h))
    ev.append(Event(text=f"Round {st.round}: {h.name}'s turn (phase 1, power-up).", kind="turn"))


def to_move(st: QState, ev: list[Event]) -> None:
    """Phase 2 begins; a hero walled in on all four sides respawns first (FAQ)."""
    st.phase = "move"
    st.last_path = []
    h = active(st)
    ev.append(Event(text=f"{h.name}: phase 2, movement."))
    st.last_mover = h.player
    if h.pos:
        st.last_path.append(h.pos)
    if h.pos is None:  # still out after a crowded respawn: come back first
        st.queue.append(Job(kind="respawn", hero=h.player, at="", prev=""))
        run(st, ev)
        return
    if walled_in(st, h):
        ev.append(Event(text=f"{h.name} is walled in on all four sides and respawns."))
        st.queue.append(Job(kind="respawn", hero=h.player, at=h.pos or "", prev=h.pos or ""))
        if not st.m.blocked_at_start:
            st.m.ended = True  # walled in during phase 1: movement ends on respawn (FAQ)
        h.pos = None
        run(st, ev)
        if st.phase == "move" and st.m.ended and st.pending is None:
            to_recovery(st, ev)


def to_recovery(st: QState, ev: list[Event]) -> None:
    st.phase = "recovery"
    st.m.ready = ""
    ev.append(Event(text=f"{active(st).name}: phase 3, recovery."))


def to_explore(st: QState, ev: list[Event]) -> None:
    st.phase = "explore"
    ev.append(Event(text=f"{active(st).name}: phase 4, exploration."))


def end_turn(st: QState, ev: list[Event]) -> None:
    h = active(st)
    h.explores_earned += h.explore
    ev.append(Event(text=f"{h.name} explores {h.explore} (recorded until the cards arrive)."))
    nxt = (st.turn + 1) % len(st.heroes)
    if nxt == st.first:
        end_round(st, ev)
    else:
        start_turn(st, nxt, ev)


def end_round(st: QState, ev: list[Event]) -> None:
    """Upkeep (nothing moves yet), world event (later), time tracker, upgrades (later), coin."""
    if st.round >= st.round_limit:
        game_over_at_limit(st, ev)
        return
    passes = st.pass_coin and len(st.heroes) > 1
    if passes:
        st.first = (st.first + 1) % len(st.heroes)
    st.round += 1
    coin = "takes" if passes else "keeps"
    ev.append(Event(text=f"End of round {st.round - 1}. {st.heroes[st.first].name} {coin} the first player coin.",
                    kind="round"))
    start_turn(st, st.first, ev)


def game_over_at_limit(st: QState, ev: list[Event]) -> None:
    if st.mode == "solo":
        finish(st, [], f"Time is up after round {st.round}: the clock wins.", ev)
        return
    if st.mode == "race":
        best = max(h.progress for h in st.heroes)
        what = "rally markers"
        win = [h for h in st.heroes if h.progress == best]
    else:
        best = max(len(h.banked) for h in st.heroes)
        what = "crystals banked"
        win = [h for h in st.heroes if len(h.banked) == best]
    if best == 0:
        finish(st, [], f"Time is up after round {st.round}; nobody scored.", ev)
        return
    names = " and ".join(h.name for h in win)
    verb = "share the win" if len(win) > 1 else "wins"
    finish(st, [h.player for h in win], f"Time is up after round {st.round}: {names} {verb} with {best} {what}.", ev)
