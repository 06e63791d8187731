"""The game manager: every command, whatever the transport, in through one door.

It composes the parts: the table core (`Table`: lock, load, the apply path, describing a move)
and the command sets built on it (`TableCommands`, `RecordCommands`, `VoteCommands`). `/game`
commands are found in an explicit map; a command's options are bound to its handler before it
runs, so only that binding can answer "does not take those options"; whatever a command raises
becomes its reply in one place (`errors.reply_for`).
"""
from __future__ import annotations

import asyncio
import difflib
import inspect
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel

from games.core import Action, Game, IllegalAction, Status, all_games, get_game
from games.core.actions import echo
from storage import GameRecord, Storage

from . import hand
from .defaults import DEFAULT_SETTINGS
from .errors import BOARD_OUT_OF_DATE, MOVED_MEANWHILE, VOTE_OVERTAKEN, NotFound, StaleBoard, guarded
from .pipeline import Limits
from .records import RecordCommands, rebuild_all, replay_export
from .replays import ReplayCommands, end_replay
from .reply import INDEX_MARK, Button, Context, Reply
from .suggest import Suggestions
from .table import Table
from .table_commands import TableCommands
from .votes import VoteCommands

__all__ = ["DEFAULT_SETTINGS", "GameManager", "NotFound", "rebuild_all", "replay_export"]

log = logging.getLogger("playpost.manager")

Handler = Callable[..., Awaitable[Reply]]
ALWAYS_PRIVATE = {"help", "hand", "log", "history", "preview"}  # /game commands whose answer is only for the caller


def _fold(text: str) -> str:
    """A topic name as it is compared: case, spaces, hyphens and underscores ignored."""
    return re.sub(r"[\s_-]+", "", text.casefold())


def topic_matches(topics: list[str], typed: str) -> list[str]:
    """The rules topics `typed` names: the one it spells (case, spaces and hyphens aside), else those with a word
    starting with it ("slime" -> every slime; "foo" is not Surefoot), else those whose name starts with it."""
    want = _fold(typed)
    if not want:
        return []
    exact = [t for t in topics if _fold(t) == want]
    if exact:
        return exact[:1]
    words = typed.casefold().split()
    by_word = [t for t in topics if all(any(w.startswith(x) for w in re.split(r"[\s_()-]+", t.casefold()))
                                         for x in words)]
    return by_word or [t for t in topics if _fold(t).startswith(want)]


class GameManager:
    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        render: bool = True,
        seed_source: Callable[[], int] | None = None,
        render_workers: int = 0,
        limits: Limits | None = None,
        computer_workers: int = 0,
    ) -> None:
        """render_workers > 0 renders boards in that many processes (the bot); 0 uses a thread.
        computer_workers > 0: computer players decide in that many processes (the bot); 0: in a thread.
        `limits`: how much work is under way at once (bot/pipeline.py)."""
        self.table = Table(storage, clock=clock, render=render, seed_source=seed_source,
                           render_workers=render_workers, limits=limits, computer_workers=computer_workers)
        game = TableCommands(self.table)
        records = RecordCommands(self.table)
        votes = VoteCommands(self.table, game)
        self.suggestions = Suggestions(self.table)
        # every `/game` subcommand of bot/commands.py, and what runs it
        self.handlers: dict[str, Handler] = {
            "new": game.new, "join": game.join, "leave": game.leave, "start": game.start,
            "status": game.status, "undo": game.undo, "abandon": game.abandon, "export": records.export,
            "replay": ReplayCommands(self.table).replay,
            "log": game.log, "help": game.help, "hand": game.hand, "history": game.history,
            "settings": game.settings, "pause": game.pause, "resume": game.resume, "kick": game.kick,
            "vote": votes.vote, "rematch": votes.rematch, "preview": game.preview,
            "computer": game.computer, "takeover": game.takeover,
        }
        self._preview_in = game.preview_in  # `/<game> preview`

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
        """The buttons under the board as posted (moves that do not fit are in menus: `Table.controls`)."""
        return self.table.controls(engine, state, status, names)[0]

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

    async def image(self, kind: str, engine: Game, state: BaseModel) -> bytes | None:
        """A game's public board as PNG, drawn off the event loop (None when rendering is off)."""
        return await self.table.image(kind, engine, state)

    # ---- entry points --------------------------------------------------------
    async def dispatch(self, ctx: Context, group: str, name: str, options: dict[str, Any]) -> Reply:
        """Run one command; errors become an ephemeral reply, the game untouched."""
        return await self._with_status(await self._dispatch(ctx, group, name, options))

    async def _dispatch(self, ctx: Context, group: str, name: str, options: dict[str, Any]) -> Reply:
        given = {k: v for k, v in options.items() if v is not None}
        if group == "rules":
            return await guarded(self.rules(str(given.get("game", "")), given.get("topic")))
        if group == "game":
            handler = self.handlers.get(name)
            if handler is None:
                return Reply.error(f"`/game {echo(name)}` is not a command.", "Try `/game help`.")
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
        return Reply.error(f"`/{echo(group)}` is not a command.", "Try `/game help`.")

    async def press(self, ctx: Context, version: int, carried: str, *, menu: str | None = None) -> Reply:
        """A button press (or a choice in a board's `menu`): the action it carries, checked against the
        board as stored. Refused (and flagged stale) if the game moved past that board; refused if the
        control is not the user's. `ctx.acknowledge()` runs once those quick checks pass."""
        reply = await guarded(self._press(ctx, version, carried, menu), BOARD_OUT_OF_DATE)
        if reply.stale:
            reply.board_url = await self._newest_board(ctx.channel_id)
        return await self._with_status(reply)

    async def _press(self, ctx: Context, version: int, carried: str, menu: str | None) -> Reply:
        rec = await self.table.live(ctx)
        if rec.version != version:
            raise StaleBoard("This board is out of date.",
                             "Use the buttons under the newest board, or `/game status` to see it.")
        if rec.status != "active" or rec.state is None:
            raise IllegalAction("The game has not started yet.", "Seated players wait for the host's `/game start`.")
        engine = get_game(rec.kind)
        state = await self.table.load(rec, engine)
        # the board's controls as stored, worked out by a rules worker (legal actions can take a while)
        buttons, menus = await self.table.rules.run(self.table.controls, engine, state, engine.status(state),
                                                    self.table.names(rec))
        action = carried
        if menu is not None:
            owners = {m.player for m in menus if m.cmd == menu and any(v == action for _, v in m.options)}
        else:
            if action.startswith(INDEX_MARK):  # the n-th button of the board: its action text was too long to carry
                n = int(action[1:]) if action[1:].isdigit() else -1
                action = buttons[n].action if 0 <= n < len(buttons) else ""
            owners = {b.player for b in buttons if b.action == action}
        if ctx.user_id not in owners:  # not on the board: one of the presser's private controls (bot/hand.py)?
            action = hand.resolve(engine, state, ctx.user_id, carried, menu) or ""
            owners = {ctx.user_id} if action else set()
        if ctx.user_id not in owners:
            raise IllegalAction(f"That {'menu' if menu is not None else 'button'} is not yours to use.",
                                "Only the player who must act can use it; `/game help` shows what you can do.")
        await ctx.acknowledge()
        return await self.table.play(ctx, rec.kind, Action.parse(action), expected_version=version)

    # ---- what a transport keeps about its posts (meta: the game's version stays) ----------------------
    async def _with_status(self, reply: Reply) -> Reply:
        """A public reply about a game carries the game's status message as it should read now (a move's
        reply brings it from its commit: no read here, so replies of a channel leave in commit order)."""
        if not reply.ephemeral and reply.game_id is not None and reply.status_message is None:
            rec = await self.table.storage.get_game(reply.game_id)
            if rec is not None:
                reply.status_message = self.table.status_message(rec)
        return reply

    async def _newest_board(self, channel_id: str) -> str:
        """A link to the game's newest board, if one of its current version was posted."""
        rec = await self.table.storage.live_game(channel_id)
        if rec is None or rec.status != "active" or rec.meta.get("board_version") != rec.version:
            return ""  # no board of this version posted yet (a click that lost a race to it)
        return str(rec.meta.get("board_url", ""))

    async def end_replay(self, game_id: int) -> Reply | None:
        """The animated replay to post once a move has ended game `game_id` (drawn in the render pool), or None."""
        return await end_replay(self.table, game_id)

    async def remember_board(self, game_id: int, version: int, url: str) -> None:
        """Where the newest board with buttons was posted, so a stale button can point to it."""
        await self.table.storage.update_meta(game_id, {"board_url": url, "board_version": version})

    async def remember_turn(self, game_id: int, message: dict[str, Any]) -> None:
        """Which message shows the turn under way (and its text), so the turn's next move edits it even after
        a restart (it comes back in `Reply.turn_message`)."""
        await self.table.storage.update_meta(game_id, {"turn_message": message})

    async def remember_status(self, game_id: int, channel_id: str, message_id: str, pinned: bool) -> None:
        """Where the game's status message was posted (it is edited there after every public change)."""
        await self.table.storage.update_meta(game_id, {"status_message": message_id, "status_channel": channel_id,
                                                       "status_pinned": pinned})

    async def answers_privately(self, ctx: Context, group: str, name: str) -> bool:
        """Whether a command's answer is private whatever happens (so a transport may defer privately)."""
        if group == "rules":
            return True
        if group != "game":
            return name == "preview"  # a game's preview is a picture only the caller sees
        if name in ALWAYS_PRIVATE:
            return True
        if name == "export":  # a running game's record is only for the caller
            rec = await self.table.storage.live_game(ctx.channel_id)
            return rec is not None and rec.status == "active"
        return False

    # ---- rules reference -----------------------------------------------------
    async def rules(self, game: str, topic: str | None) -> Reply:
        engine = get_game(game)
        topics = engine.rules_topics()
        if not topics:
            return Reply(text=f"No rules reference for {engine.name} yet.", ephemeral=True)
        if not topic:
            return Reply(text=f"**{engine.name}** rules topics: " + ", ".join(f"`{t}`" for t in topics) +
                         f"\nAsk with `/rules game:{game} topic:<topic>`.", ephemeral=True)
        match = topic_matches(list(topics), topic)
        if len(match) != 1:
            listing = f"`/rules game:{game}` lists all {len(topics)} topics."
            if match:  # several: say which, never pick one silently
                shown = ", ".join(f"`{t}`" for t in match[:12]) + (f" and {len(match) - 12} more" if len(match) > 12
                                                                   else "")
                raise IllegalAction(f"`{echo(topic)}` could be several {engine.name} topics: {shown}.",
                                    "Ask again with the whole name.")
            near = difflib.get_close_matches(topic.casefold(), [t.casefold() for t in topics], n=5, cutoff=0.6) \
                if len(topic) <= 60 else []
            by_fold = {t.casefold(): t for t in topics}
            hint = ("Did you mean " + ", ".join(f"`{by_fold[n]}`" for n in near) + "? ") if near else ""
            raise IllegalAction(f"No topic `{echo(topic)}` in the {engine.name} rules.", hint + listing)
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
