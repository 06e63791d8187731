"""How a scenario is won: its objective (race, heist, time trial) reached by a side, the end at the round limit,
the scores.

The objective says what counts; the play mode (`modes/`) says who wins together: a side is one hero in a
free-for-all, a team in teams, every hero at the table in solo and co-op.
- race: a side wins when one of its heroes reaches the last rally marker;
- trial: a side wins when every one of its heroes has reached the last rally marker;
- heist: a side wins when its heroes have banked `target` crystals between them (a sheep banked counts as one).
At the round limit solo and co-op lose together (the clock wins); in a free-for-all or teams the best side wins
(race: its furthest hero; trial: its markers together; heist: its crystals banked together), sharing ties.
Overlord scenarios: the heroes' side plays for the objective above, the overlord for its own `overlord_target`
(crystals it banks, or rally markers it reaches in order); at the round limit the overlord wins.
"""
from __future__ import annotations

from games.core import Event
from games.core.words import agrees, says

from .modes import TOGETHER, side_name, sides
from .modes.overlord import OVERLORD
from .state import Hero, QState


def _finished(st: QState, h: Hero) -> bool:
    return h.progress >= len(st.rally) > 0


def _done(st: QState, side: str, hs: list[Hero]) -> bool:
    if side == OVERLORD:  # the overlord's own objective: `overlord_target` crystals banked or markers reached
        return _side_score(st, hs) >= st.overlord_target
    if st.objective == "race":
        return any(_finished(st, h) for h in hs)
    if st.objective == "heist":
        return sum(len(h.banked) for h in hs) >= st.target
    return all(_finished(st, h) for h in hs)


def _overlord_score(st: QState, h: Hero) -> int:
    return len(h.banked) if st.objective == "heist" else h.progress


def _side_score(st: QState, hs: list[Hero]) -> int:
    """The overlord's side (the overlord and any buddy it collected): crystals banked between them, or the
    furthest rally marker one of them reached."""
    scores = [_overlord_score(st, h) for h in hs]
    return sum(scores) if st.objective == "heist" else max(scores)


def loot(st: QState, banked: list[str]) -> str:
    """What a heist side banked, in words: "3 crystals", or in a game with the rulebook's flock rules
    (`QState.sheep_ask`, e.g. flock) the crystals and sheep ("1 crystal and 2 sheep"): a sheep delivered to a drop
    zone counts like a crystal. (Games of older scenarios keep the old words, so their stored result replays.)"""
    sheep = sum(c.endswith("-sheep") for c in banked) if st.sheep_ask else 0
    if not sheep:
        return f"{len(banked)} crystals"
    crystals = len(banked) - sheep
    gems = f"{crystals} crystal{'s' if crystals != 1 else ''} and " if crystals else ""
    return f"{gems}{sheep} sheep"


def _banked_words(st: QState) -> str:
    """How a heist's score is named: "crystals banked", or with the flock rules "crystals and sheep banked"."""
    return "crystals and sheep banked" if st.sheep_ask else "crystals banked"


def _win_text(st: QState, side: str, hs: list[Hero]) -> str:
    who = side_name(st, side)
    if side == OVERLORD:
        what = "banks" if st.objective == "heist" else "reaches"
        unit = "crystals" if st.objective == "heist" else "rally markers"
        return f"The overlord {says(hs[0].name, what)} {_side_score(st, hs)} {unit} and {agrees(hs[0].name, 'wins')}!"
    verb = "wins" if len(hs) == 1 or side.startswith("team:") else "win together"
    if st.objective == "race":
        h = next(h for h in hs if _finished(st, h))
        if len(hs) == 1:
            return f"{says(h.name, 'reaches')} the last rally marker in round {st.round} and {agrees(h.name, 'wins')}!"
        return f"{says(h.name, 'reaches')} the last rally marker in round {st.round}: {who} {verb}!"
    if st.objective == "heist":
        if len(hs) == 1:
            return (f"{says(hs[0].name, 'banks')} {loot(st, hs[0].banked)}"
                    f" and {agrees(hs[0].name, 'wins')} the heist!")
        n = loot(st, [c for h in hs for c in h.banked])
        if side.startswith("team:"):
            return f"{who} ({', '.join(h.name for h in hs)}) banks {n} and wins the heist!"
        return f"{who} bank {n} between them and win the heist together!"
    return f"{who} beat the clock in round {st.round}!"


def check_win(st: QState, ev: list[Event]) -> None:
    if st.phase == "over":
        return
    for side, hs in sides(st).items():
        if _done(st, side, hs):
            finish(st, [h.player for h in hs], _win_text(st, side, hs), ev)
            return


def finish(st: QState, winners: list[str], text: str, ev: list[Event]) -> None:
    """End the game. `text` is the whole result, a sentence naming the winner (or that nobody won): the bot's
    closing line is "Game over: " and this text, a sentence of its own ("You reach ...": a name keeps its case)."""
    if text.startswith("you "):
        text = "Y" + text[1:]
    st.phase = "over"
    st.winners = winners
    st.result_text = text
    st.queue.clear()
    st.pending = None
    ev.append(Event(text=text, kind="result"))


def side_score(st: QState, hs: list[Hero]) -> int:
    """A side's score at the round limit (see the module's text)."""
    if st.objective == "heist":
        return sum(len(h.banked) for h in hs)
    if st.objective == "race":
        return max(h.progress for h in hs)
    return sum(h.progress for h in hs)


def game_over_at_limit(st: QState, ev: list[Event]) -> None:
    st.next_part = ""  # a multi-part scenario is lost as a whole when time runs out in any part
    if st.mode in TOGETHER:
        finish(st, [], f"Time is up after round {st.round}: the clock wins.", ev)
        return
    lord = next((h for h in st.heroes if h.overlord), None)
    if st.mode == "overlord" and lord is not None:  # the heroes did not stop the overlord in time
        finish(st, [lord.player], f"Time is up after round {st.round}: the overlord {says(lord.name, 'wins')}!", ev)
        return
    scored = {side: side_score(st, hs) for side, hs in sides(st).items()}
    best = max(scored.values())
    what = _banked_words(st) if st.objective == "heist" else "rally markers"
    if best == 0:
        finish(st, [], f"Time is up after round {st.round}; nobody scored.", ev)
        return
    win = [side for side, n in scored.items() if n == best]
    names = " and ".join(side_name(st, side) for side in win)
    verb = "share the win" if len(win) > 1 or not win[0].startswith(("team:", "hero:")) else "wins"
    winners = [h.player for side in win for h in sides(st)[side]]
    said = says(names, verb) if verb == "wins" else f"{names} {verb}"  # "you win", "Ann wins"
    finish(st, winners, f"Time is up after round {st.round}: {said} with {best} {what}.", ev)


def scores(st: QState) -> dict[str, int]:
    return {h.player: (len(h.banked) if st.objective == "heist" else h.progress) for h in st.heroes}


def objective(st: QState, h: Hero) -> str:
    """The export summary's words for a hero's progress."""
    if h.overlord:
        unit = "crystals banked" if st.objective == "heist" else "rally markers"
        return f"{_overlord_score(st, h)}/{st.overlord_target} {unit} (overlord)"
    if st.objective == "heist":
        return f"{len(h.banked)}/{st.target} {_banked_words(st)}"
    return f"{h.progress}/{len(st.rally)} rally markers"
