"""The shared checks, done once for every game: finished, whose turn, legality as membership."""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from .actions import ECHO_LIMIT, Action, echo
from .contract import Event, Game, Seat
from .errors import AmbiguousAction, IllegalAction
from .rng import Rng

OTHER_HINT = 4  # other commands' moves after a command's own
MAX_HINT = 12


def hint_for(engine: Game, state: BaseModel, player: str, cmd: str | None = None) -> str:
    """'Legal now: ...' listing what the player can do (of one command if given)."""
    legal = [a for a in engine.legal_actions(state, player) if a.cmd not in engine.anytime_commands or a.cmd == cmd]
    others: list[Action] = []
    if cmd is not None:
        same = [a for a in legal if a.cmd == cmd]
        if same:  # that command's moves, and a few of the rest (a refused `reroll` still names `keep`)
            legal, others = same, [a for a in legal if a.cmd != cmd]
    if not legal:
        return "You have nothing to do right now."
    texts = [f"`{a.text()}`" for a in legal[:MAX_HINT]]
    more = f" (and {len(legal) - MAX_HINT} more)" if len(legal) > MAX_HINT else ""
    also = ""
    if others:
        also = " Or: " + ", ".join(f"`{a.text()}`" for a in others[:OTHER_HINT]) + \
            (f" (and {len(others) - OTHER_HINT} more)" if len(others) > OTHER_HINT else "") + "."
    return "Legal now: " + ", ".join(texts) + more + "." + also


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
        raise IllegalAction(engine.idle_reason(state, player) or "It is not your move.", f"Waiting for {who}.")
    action = engine.canonical(state, player, written)
    legal = engine.legal_actions(state, player)
    if action in legal:
        return action
    fits = [a for a in legal if a.matches(action)]
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1:
        shown = ", ".join(f"`{a.text()}`" for a in fits[:MAX_HINT])
        more = f" (and {len(fits) - MAX_HINT} more)" if len(fits) > MAX_HINT else ""
        raise AmbiguousAction(f"`{echo(written.text())}` could mean several moves.", f"Say which: {shown}{more}.")
    if not any(a.cmd == action.cmd for a in legal) and not any(c.name == action.cmd for c in engine.commands):
        raise IllegalAction(f"`{echo(action.cmd)}` is not a {engine.name} command.", hint_for(engine, state, player))
    reason = _short_echoes(engine.explain(state, player, action), written, action) or \
        f"`{echo(written.text())}` is not legal now."
    raise IllegalAction(reason, hint_for(engine, state, player, action.cmd))


def _short_echoes(text: str, *actions: Action) -> str:
    """A game's refusal with every long value the player wrote cut to the prefix `echo` keeps."""
    for a in actions:
        for value in (a.cmd, *(v for _, v in a.args)):
            if len(value) > ECHO_LIMIT and value in text:
                text = text.replace(value, echo(value))
    return text


def step(engine: Game, state: BaseModel, player: str, written: Action) -> tuple[Action, BaseModel, list[Event]]:
    """Resolve and apply one action; returns the action as logged."""
    action = resolve(engine, state, player, written)
    new_state, events = engine.apply(state, player, action)
    return action, new_state, events


def secrets_mark(engine: Game, state: BaseModel) -> tuple[Any, str]:
    """Where the state's generator stands and the game's fingerprint of its other hidden parts."""
    rng = getattr(state, "rng", None)
    return ((rng.seed, rng.counter) if isinstance(rng, Rng) else None), engine.hidden_digest(state)


def irreversible(engine: Game, before: BaseModel, after: BaseModel, events: Sequence[Event]) -> bool:
    """Whether an action may never be undone: it rolled dice or revealed or consumed something hidden.

    Decided by the platform, whatever the events say: an action that moved the generator or changed
    a hidden part (`Game.hidden_digest`) is a barrier even when no event was marked irreversible.
    """
    return any(e.irreversible for e in events) or secrets_mark(engine, before) != secrets_mark(engine, after)


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


def replay_details(
    engine: Game,
    options: dict[str, str],
    seats: Sequence[Seat],
    seed: int,
    log: Sequence[tuple[str, Action]],
    since: int,
) -> dict[int, str]:
    """The full account (`Event.detail`) of each public event from log position `since` on, by position: the log
    is played again from the setup (it was checked when it was written)."""
    state = engine.setup(options, seats, seed)
    out: dict[int, str] = {}
    for i, (player, action) in enumerate(log):
        state, events = engine.apply(state, player, action)
        if i >= since:
            text = "\n".join(e.detail for e in events if e.to is None and e.detail)
            if text:
                out[i] = text
    return out


def public_rng(engine: Game, state: BaseModel, player: str, action: Action) -> Rng:
    """A generator seeded by public facts only (the public view, the player, the action): stand-in dice for a
    preview that the real seed, deck order or secrets cannot sway, and that tell nothing about them."""
    seen = engine.view(state, None).model_dump_json()
    digest = hashlib.sha256(f"{seen}\n{player}\n{action.text()}".encode()).digest()
    return Rng(seed=int.from_bytes(digest[:8], "big") >> 1)
