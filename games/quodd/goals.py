"""How a scenario is won: its mode's goal (race, heist, solo), the end at the round limit, the scores.

Further modes (co-op, teams, overlord, buddies: issue 15) add their goal here.
"""
from __future__ import annotations

from games.core import Event

from .state import Hero, QState


def check_win(st: QState, ev: list[Event]) -> None:
    if st.phase == "over":
        return
    for h in st.heroes:
        if st.mode == "race" and h.progress >= len(st.rally) > 0:
            finish(st, [h.player], f"{h.name} reaches the last rally marker in round {st.round} and wins!", ev)
            return
        if st.mode == "heist" and len(h.banked) >= st.target:
            finish(st, [h.player], f"{h.name} banks {len(h.banked)} crystals and wins the heist!", ev)
            return
    if st.mode == "solo" and all(h.progress >= len(st.rally) > 0 for h in st.heroes):
        who = " and ".join(h.name for h in st.heroes)
        finish(st, [h.player for h in st.heroes], f"{who} beat the clock in round {st.round}!", ev)


def finish(st: QState, winners: list[str], text: str, ev: list[Event]) -> None:
    st.phase = "over"
    st.winners = winners
    st.result_text = text
    st.queue.clear()
    st.pending = None
    ev.append(Event(text=text, kind="result"))


def game_over_at_limit(st: QState, ev: list[Event]) -> None:
    st.next_part = ""  # a multi-part scenario is lost as a whole when time runs out in any part
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


def scores(st: QState) -> dict[str, int]:
    return {h.player: (len(h.banked) if st.mode == "heist" else h.progress) for h in st.heroes}


def objective(st: QState, h: Hero) -> str:
    """The export summary's words for a hero's progress."""
    if st.mode == "heist":
        return f"{len(h.banked)}/{st.target} crystals banked"
    return f"{h.progress}/{len(st.rally)} rally markers"
