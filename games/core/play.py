"""The shared checks, done once for every game: finished, whose turn, legality as membership."""
from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from .actions import Action
from .contract import Event, Game, Seat
from .errors import AmbiguousAction, IllegalAction

MAX_HINT = 12


def hint_for(engine: Game, state: BaseModel, player: str, cmd: str | None = None) -> str:
    """'Legal now: ...' listing what the player can do (of one command if given)."""
    legal = [a for a in engine.legal_actions(state, player) if a.cmd not in engine.anytime_commands or a.cmd == cmd]
    if cmd is not None:
        same = [a for a in legal if a.cmd == cmd]
        if same:
            legal = same
    if not legal:
        return "You have nothing to do right now."
    texts = [f"`{a.text()}`" for a in legal[:MAX_HINT]]
    more = f" (and {len(legal) - MAX_HINT} more)" if len(legal) > MAX_HINT else ""
    return "Legal now: " + ", ".join(texts) + more + "."


def resolve(engine: Game, state: BaseModel, player: str, written: Action) -> Action:
    """Turn what a player wrote into exactly one legal action, or say why not.

    Arguments left out are filled in when only one legal action fits, so
    `/heroball hold` works when there is one object to hold.
    """
    status = engine.status(state)
    if status.finished:
        raise IllegalAction("This game is over.", "Start a new one with `/game new`.")
    if player not in status.to_act and written.cmd not in engine.anytime_commands:
        who = status.waiting_for or "another player"
        raise IllegalAction("It is not your move.", f"Waiting for {who}.")
    action = engine.canonical(state, player, written)
    legal = engine.legal_actions(state, player)
    if action in legal:
        return action
    fits = [a for a in legal if a.matches(action)]
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1:
        shown = ", ".join(f"`{a.text()}`" for a in fits[:MAX_HINT])
        raise AmbiguousAction(f"`{written.text()}` could mean several moves.", f"Say which: {shown}.")
    if not any(a.cmd == action.cmd for a in legal) and not any(c.name == action.cmd for c in engine.commands):
        raise IllegalAction(f"`{action.cmd}` is not a {engine.name} command.", hint_for(engine, state, player))
    reason = engine.explain(state, player, action) or f"`{written.text()}` is not legal now."
    raise IllegalAction(reason, hint_for(engine, state, player, action.cmd))


def step(engine: Game, state: BaseModel, player: str, written: Action) -> tuple[Action, BaseModel, list[Event]]:
    """Resolve and apply one action; returns the action as logged."""
    action = resolve(engine, state, player, written)
    new_state, events = engine.apply(state, player, action)
    return action, new_state, events


def replay(
    engine: Game,
    options: dict[str, str],
    seats: Sequence[Seat],
    seed: int,
    log: Sequence[tuple[str, Action]],
    *,
    trusted: bool = False,
) -> BaseModel:
    """Rebuild a state from its setup and action log.

    Each action is checked against the legal set again, unless `trusted`: the log was
    checked when it was written and the rules have not changed since (undo in a running
    process), which halves the cost.
    """
    state = engine.setup(options, seats, seed)
    for player, action in log:
        if trusted:
            state, _ = engine.apply(state, player, action)
        else:
            _, state, _ = step(engine, state, player, action)
    return state
