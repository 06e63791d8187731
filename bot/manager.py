"""The game manager: every command, whatever the transport, in through one door.

It composes the parts: the table core (`Table`: lock, load, the apply path, describing a move)
and the command sets built on it (`TableCommands`, `RecordCommands`, `VoteCommands`). `/game`
commands are found in an explicit map; a command's options are bound to its handler before it
runs, so only that binding can answer "does not take those options"; whatever a command raises
becomes its reply in one place (`errors.reply_for`).
"""
from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel

from games.core import Action, Game, IllegalAction, Status, all_games, get_game
from storage import GameRecord, Storage

from .defaults import DEFAULT_SETTINGS
from .errors import BOARD_OUT_OF_DATE, MOVED_MEANWHILE, VOTE_OVERTAKEN, NotFound, StaleBoard, guarded
from .records import RecordCommands, rebuild_all, replay_export
from .reply import Button, Context, Reply
from .runtime import tune_runtime
from .suggest import Suggestions
from .table import Table
from .table_commands import TableCommands
from .votes import VoteCommands

__all__ = ["DEFAULT_SETTINGS", "GameManager", "NotFound", "rebuild_all", "replay_export", "tune_runtime"]

log = logging.getLogger("playpost.manager")

Handler = Callable[..., Awaitable[Reply]]


class GameManager:
    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        render: bool = True,
        seed_source: Callable[[], int] | None = None,
        render_workers: int = 0,
    ) -> None:
        """render_workers > 0 renders boards in that many processes (the bot); 0 uses a thread."""
        self.table = Table(storage, clock=clock, render=render, seed_source=seed_source,
                           render_workers=render_workers)
        lobby = TableCommands(self.table)
        records = RecordCommands(self.table)
        votes = VoteCommands(self.table, lobby)
        self.suggestions = Suggestions(self.table)
        self.records = records
        self.handlers: dict[str, Handler] = {
            "new": lobby.new, "join": lobby.join, "leave": lobby.leave, "start": lobby.start,
            "status": lobby.status, "undo": lobby.undo, "abandon": lobby.abandon, "export": records.export,
            "log": lobby.log, "help": lobby.help, "hand": lobby.hand, "history": lobby.history,
            "settings": lobby.settings, "pause": lobby.pause, "resume": lobby.resume, "kick": lobby.kick,
            "vote": votes.vote, "rematch": votes.rematch, "preview": lobby.preview,
        }
        self._preview_in = lobby.preview_in

    # ---- the parts others reach through the manager ----------------------------
    @property
    def storage(self) -> Storage:
        return self.table.storage

    @property
    def clock(self) -> Callable[[], float]:
        return self.table.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.table.clock = clock

    def close(self) -> None:
        self.table.close()

    def state_of(self, rec: GameRecord, engine: Game | None = None) -> BaseModel:
        return self.table.state_of(rec, engine)

    def names(self, rec: GameRecord) -> dict[str, str]:
        return self.table.names(rec)

    def buttons(self, engine: Game, state: BaseModel, status: Status,
                names: dict[str, str] | None = None) -> list[Button]:
        return self.table.buttons(engine, state, status, names)

    async def play(self, ctx: Context, kind: str, written: Action, *, expected_version: int | None = None) -> Reply:
        """The apply path itself (raises domain errors; `dispatch` answers them)."""
        return await self.table.play(ctx, kind, written, expected_version=expected_version)

    async def expire(self, rec: GameRecord, now: float | None = None) -> Reply | None:
        return await self.table.expire(rec, now)

    async def skip(self, rec: GameRecord, player: str) -> Reply:
        """Apply the game's skip action for `player` on `rec`'s version (refused if the game moved on)."""
        return await guarded(self.table.skip(rec, player), VOTE_OVERTAKEN)

    async def rebuild_from_log(self, rec: GameRecord) -> BaseModel:
        return await self.table.rebuild_from_log(rec)

    def lock(self, key: str) -> asyncio.Lock:
        return self.table.lock(key)

    # bot/bench.py reaches into these (and imports tune_runtime from here) until it moves to tools/bench
    @property
    def render_enabled(self) -> bool:
        return self.table.render_enabled

    @render_enabled.setter
    def render_enabled(self, on: bool) -> None:
        self.table.render_enabled = on

    @property
    def _states(self) -> Any:
        return self.table._states

    @property
    def _pool(self) -> Any:
        return self.table._pool

    # ---- entry points --------------------------------------------------------
    async def dispatch(self, ctx: Context, group: str, name: str, options: dict[str, Any]) -> Reply:
        """Run one command; errors become an ephemeral reply, the game untouched."""
        given = {k: v for k, v in options.items() if v is not None}
        if group == "rules":
            return await guarded(self.rules(str(given.get("game", "")), given.get("topic")))
        if group == "game":
            handler = self.handlers.get(name)
            if handler is None:
                return Reply.error(f"`/game {name}` is not a command.", "Try `/game help`.")
            try:
                bound = inspect.signature(handler).bind(ctx, **given)
            except TypeError as exc:  # the binding alone: an option this command does not take
                log.info("bad options for /%s %s: %s", group, name, exc)
                return Reply.error(f"`/{group} {name}` does not take those options.", "See `/game help`.")
            return await guarded(handler(*bound.args, **bound.kwargs))
        if group in all_games():
            if name == "preview":
                return await guarded(self._preview_in(ctx, group, str(given.get("action", ""))))
            action = Action(cmd=name, args=tuple((k, str(v)) for k, v in given.items()))
            return await guarded(self.table.play(ctx, group, action), MOVED_MEANWHILE)
        return Reply.error(f"`/{group}` is not a command.", "Try `/game help`.")

    async def press(self, ctx: Context, version: int, action_text: str) -> Reply:
        """A button press: the action it carries, refused if the board moved on since."""
        return await guarded(self._press(ctx, version, action_text), BOARD_OUT_OF_DATE)

    async def _press(self, ctx: Context, version: int, action_text: str) -> Reply:
        rec = await self.table.live(ctx)
        if rec.version != version:
            raise StaleBoard("This board is out of date.",
                             "Use the buttons under the newest board, or `/game status` to see it.")
        action = Action.parse(action_text)
        return await self.table.play(ctx, rec.kind, action, expected_version=version)

    # ---- rules reference -----------------------------------------------------
    async def rules(self, game: str, topic: str | None) -> Reply:
        engine = get_game(game)
        topics = engine.rules_topics()
        if not topics:
            return Reply(text=f"No rules reference for {engine.name} yet.", ephemeral=True)
        if not topic:
            return Reply(text=f"**{engine.name}** rules topics: " + ", ".join(f"`{t}`" for t in topics) +
                         f"\nAsk with `/rules game:{game} topic:<topic>`.", ephemeral=True)
        match = [t for t in topics if t.casefold() == topic.casefold()] or \
                [t for t in topics if topic.casefold() in t.casefold()]
        if not match:
            raise IllegalAction(f"No topic `{topic}` in the {engine.name} rules.",
                                "Topics: " + ", ".join(f"`{t}`" for t in topics) + ".")
        return Reply(text=f"**{engine.name} — {match[0]}**\n{topics[match[0]]}", ephemeral=True)

    # ---- autocomplete --------------------------------------------------------
    async def suggest(self, ctx: Context, group: str, name: str, option: str, given: dict[str, Any],
                      typed: str) -> list[str]:
        """Up to 25 legal values for an option, for this user now, best first."""
        return [value for _, value in await self.suggestions.labelled(ctx, group, name, option, given, typed)]

    async def suggest_labelled(self, ctx: Context, group: str, name: str, option: str, given: dict[str, Any],
                               typed: str) -> list[tuple[str, str]]:
        """(label, value) pairs: the label is what the list shows (the game may add detail)."""
        return await self.suggestions.labelled(ctx, group, name, option, given, typed)
