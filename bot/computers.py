"""Computer seats at the table, and moves nobody has to choose: both are played at once after a move.

A seat is played by a computer when its player id is in the game's meta `computers` (player id ->
level). Seats added with `/game computer` in the lobby get ids `computer-1`, `computer-2`, ...;
a human's seat handed over (the host for a player who left, or a vote after a missed deadline)
keeps the human's id, so the engine state and the log never change hands: the human takes it
back with `/game takeover`. After every committed move `follow` lets each computer that must act
(its turn, a reaction window, a mid-move choice) decide off the event loop (`Table.decide`: a worker
process of the bot's decision pool, or a thread in the console and `playpost script`) and commits its move
through the same apply path as a human's, logged under its seat, until a human must act. A player (human or
computer) who must act with nothing to choose (`Game.forced_action`: a hero with no AP left and only "end turn",
the last hero left to activate, a mid-move choice with one answer) has that move played for them the same way,
said in the reply ("Nothing left to choose for Ann: `...` plays itself.").
"""
from __future__ import annotations

import logging
import random
from typing import Any

from pydantic import BaseModel

from games.core import Action, Event, Game, IllegalAction, PlaypostError, Status, get_game
from games.core.ai import LEVELS, first_to_act, make_player
from storage import GameRecord, StaleVersion

from .reply import Context, Reply

log = logging.getLogger("playpost.manager")

PREFIX = "computer-"
DEFAULT_LEVEL = "normal"
MAX_CHAIN = 500  # computer moves in a row before the table waits (a game of computers only)
LEVEL_NAMES = tuple(k for k in LEVELS if k != "random")  # what /game computer offers: easy, normal, hard


def seats(rec: GameRecord) -> dict[str, str]:
    """Player id -> level of every seat a computer plays now."""
    return dict(rec.meta.get("computers") or {})


def choose(kind: str, state: BaseModel, player: str, level: str, seed: str) -> Action:
    """One computer decision (pure; runs in a worker process, or a thread without one). Only `player`'s view
    is used: the player re-samples every hidden part before it looks ahead (games.core.ai). The same
    arguments give the same action wherever it runs: the budget counts engine steps, not seconds."""
    engine = get_game(kind)
    return make_player(level).decide(engine, state, player, random.Random(seed))


def choose_from_text(kind: str, state_text: str, player: str, level: str, seed: str) -> Action:
    """`choose` in a worker process: the state travels as its saved JSON (small, and loads exactly)."""
    engine = get_game(kind)
    return choose(kind, engine.load(state_text), player, level, seed)


def warm_worker() -> None:
    """A decision process's start: import the games and their computer players once, before the first
    decision waits on it."""
    from games.core import all_games
    from games.core.ai.base import heuristic_for

    for gid in all_games():
        heuristic_for(gid)


async def follow(table: Any, rec: GameRecord, engine: Game, state: BaseModel,
                 after: Status) -> tuple[GameRecord, BaseModel, Status, list[Event]]:
    """Let computers move while one must act; returns the record, state and status after the last."""
    events: list[Event] = []
    for _ in range(MAX_CHAIN):
        if after.finished:
            break
        try:
            forced = await table.rules.run(forced_move, engine, state, after)
        except Exception:  # as below: the move already committed keeps its reply
            log.exception("forced move check failed game=%s", rec.id)
            break
        if forced is not None:  # nothing to choose: the move plays itself, logged under its player
            player, action = forced
            name = table.names(rec).get(player, player)
            ctx = Context(channel_id=rec.channel_id, user_id=player, user_name=name, guild_id=rec.guild_id)
            try:
                rec, engine, move = await table.commit(ctx, rec.kind, action, expected_version=rec.version)
            except (PlaypostError, StaleVersion):
                log.info("forced move overtaken game=%s player=%s", rec.id, player)
                break
            except Exception:  # a fault here must not cost the move committed before it its reply
                log.exception("forced move failed game=%s player=%s", rec.id, player)
                break
            events.append(Event(text=f"Nothing left to choose for {name}: `{action.text()}` plays itself.",
                                kind="forced"))
            events.extend(move.events)
            state, after = move.state, move.after
            continue
        comps = seats(rec)
        if not comps:
            break
        waiting = [p for p in after.to_act if p in comps]
        if not waiting:
            break
        # several computer heroes may move (the dungeon): the team picks who goes, as in selfplay
        player = waiting[0] if len(waiting) == 1 else await table.rules.run(first_to_act, engine, state, waiting)
        name = table.names(rec).get(player, player)
        seed = f"{rec.id}:{rec.version}:{player}"
        try:
            action = await table.decide(rec.kind, engine, state, player, comps[player], seed)
            ctx = Context(channel_id=rec.channel_id, user_id=player, user_name=name, guild_id=rec.guild_id)
            rec, engine, move = await table.commit(ctx, rec.kind, action, expected_version=rec.version)
        except (PlaypostError, StaleVersion):
            log.info("computer move overtaken game=%s player=%s", rec.id, player)
            break  # someone else moved meanwhile: their move lets the computers follow
        except Exception:  # a fault in a decision must not undo the move already committed before it
            log.exception("computer move failed game=%s player=%s", rec.id, player)
            break
        events.append(Event(text=f"{name} (computer) plays `{move.action.text()}`.", kind="computer"))
        events.extend(move.events)
        state, after = move.state, move.after
    return rec, state, after, events


def forced_move(engine: Game, state: BaseModel, after: Status) -> tuple[str, Action] | None:
    """The first player who must act with nothing to choose, and the move the game plays for them."""
    for player in after.to_act:
        action = engine.forced_action(state, player)
        if action is not None:
            return player, action
    return None


def quiet(rec: GameRecord, reply: Reply) -> Reply:
    """Nobody pings or messages a computer."""
    comps = seats(rec)
    if comps:
        reply.ping = [p for p in reply.ping if p not in comps]
        reply.private = {p: t for p, t in reply.private.items() if p not in comps}
        reply.hand_controls = {p: c for p, c in reply.hand_controls.items() if p not in comps}
    return reply


def level_of(value: str | None) -> str:
    level = (value or DEFAULT_LEVEL).casefold()
    if level not in LEVELS:
        raise IllegalAction(f"`{value}` is not a computer level.", "Levels: " + ", ".join(LEVEL_NAMES) + ".")
    return level


async def hand_over(table: Any, rec: GameRecord, players: list[str], level: str) -> Reply | None:
    """Mark `players`' seats as played by a computer and let them move if they must; None if nobody must."""
    comps = seats(rec)
    comps.update({p: level for p in players})
    await table.storage.update_meta(rec.id, {"computers": comps})
    fresh = await table.storage.get_game(rec.id)
    engine = get_game(fresh.kind)
    state = await table.load(fresh, engine)
    before = engine.status(state)
    rec2, state, after, events = await follow(table, fresh, engine, state, before)
    if not events:
        return None
    return quiet(rec2, await table.after_move(rec2, engine, state, before, after, events))
