"""The game manager: one apply path for every command, whatever the transport.

load -> authorise -> validate -> apply -> persist -> render (off the event loop) -> Reply.
A per-channel lock serialises commands of one game; the stored version guards against
anything the lock cannot see (a second process), so a stale write is refused, never applied.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import logging
import multiprocessing
import secrets
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from games.core import (
    Action,
    Event,
    Game,
    IllegalAction,
    PlaypostError,
    Status,
    all_games,
    get_game,
)
from games.core.play import replay, resolve, step
from render import render_png
from storage import GameRecord, LogEntry, StaleVersion, Storage

from . import commands
from .records import RecordCommands, rebuild_all, replay_export
from .reply import Button, Context, Reply
from .shared import DEFAULT_SETTINGS, NotFound, _seats, _squash
from .table import TableCommands
from .votes import VoteCommands

__all__ = ["DEFAULT_SETTINGS", "GameManager", "NotFound", "rebuild_all", "replay_export"]

log = logging.getLogger("playpost.manager")

MAX_BUTTONS = 20
STATE_CACHE = 1000
UNDO_DEPTH = 20  # states kept per game for undo within a turn


def tune_runtime() -> None:
    """Keep the event loop responsive while worker threads do rules work.

    Garbage is collected in fewer, larger steps, with what start-up built left out of every
    scan: the bot keeps many long-lived game states, and with CPython's default thresholds
    the collector scanned them so often that the loop stalled 50-80 ms under load (bench,
    paced 500 channels: loop lag max 80 -> 16 ms). A shorter GIL switch interval hands the
    loop thread the interpreter sooner when a worker thread is busy (max 15 -> 13 ms, p99 8 -> 5 ms).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)
    sys.setswitchinterval(0.001)


def _compute(engine: Game, state: BaseModel, player: str,
             written: Action) -> tuple[Status, Action, BaseModel, list[Event], Status, str]:
    """One move's rules work (pure; run in a worker thread): status before, the move, status after, JSON."""
    before = engine.status(state)
    action, new_state, events = step(engine, state, player, written)
    return before, action, new_state, events, engine.status(new_state), engine.dump(new_state)


async def _nothing() -> list[Button]:
    return []


class GameManager(TableCommands, RecordCommands, VoteCommands):
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
        self.storage = storage
        self.clock = clock
        self.render_enabled = render
        self.seed_source = seed_source or (lambda: secrets.randbits(48))
        self._locks: dict[str, asyncio.Lock] = {}
        self._states: OrderedDict[int, tuple[int, BaseModel]] = OrderedDict()
        # per game: (log seq, state before that action) for the actions of the turn under way,
        # so undo is a lookup instead of a replay of the whole log
        self._undo: dict[int, list[tuple[int, str, BaseModel]]] = {}
        # drawing holds the GIL for tens of ms: in worker processes the event loop never waits on it
        self._pool = (concurrent.futures.ProcessPoolExecutor(
            render_workers, mp_context=multiprocessing.get_context("spawn")) if render_workers > 0 else None)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    # ---- plumbing ------------------------------------------------------------
    def lock(self, channel_id: str) -> asyncio.Lock:
        lk = self._locks.get(channel_id)
        if lk is None:
            lk = self._locks[channel_id] = asyncio.Lock()
        return lk

    def state_of(self, rec: GameRecord, engine: Game | None = None) -> BaseModel:
        """The engine state of an active game record (cached by version)."""
        return self._state(rec, engine or get_game(rec.kind))

    def _state(self, rec: GameRecord, engine: Game) -> BaseModel:
        hit = self._states.get(rec.id)
        if hit and hit[0] == rec.version:
            self._states.move_to_end(rec.id)
            return hit[1]
        assert rec.state is not None
        state = engine.load(rec.state)
        self._remember(rec, state)
        return state

    def _remember(self, rec: GameRecord, state: BaseModel) -> None:
        self._states[rec.id] = (rec.version, state)
        self._states.move_to_end(rec.id)
        while len(self._states) > STATE_CACHE:
            self._states.popitem(last=False)

    def names(self, rec: GameRecord) -> dict[str, str]:
        return {s.player: s.name for s in rec.seats}

    async def image(self, kind: str, engine: Game, state: BaseModel) -> bytes | None:
        if not self.render_enabled:
            return None
        view = await asyncio.to_thread(engine.view, state, None)
        if self._pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(self._pool, render_png, kind, view)
            except concurrent.futures.BrokenExecutor:
                log.exception("render pool broke; rendering in a thread from now on")
                self._pool = None
        return await asyncio.to_thread(render_png, kind, view)

    async def _live(self, ctx: Context) -> GameRecord:
        rec = await self.storage.live_game(ctx.channel_id)
        if rec is None:
            raise NotFound("There is no game in this channel.", "Start one with `/game new game:<name>`.")
        return rec

    # ---- entry points --------------------------------------------------------
    async def dispatch(self, ctx: Context, group: str, name: str, options: dict[str, Any]) -> Reply:
        """Run one command; domain errors become an ephemeral reply, the game untouched."""
        try:
            if group == "rules":
                return self.rules(options.get("game", ""), options.get("topic"))
            if group == "game":
                handler = getattr(self, f"cmd_{name}", None)
                if handler is None:
                    raise IllegalAction(f"`/game {name}` is not a command.", "Try `/game help`.")
                return await handler(ctx, **{k: v for k, v in options.items() if v is not None})
            if group in all_games():
                if name == "preview":
                    return await self.preview(ctx, group, str(options.get("action", "")))
                return await self.play(ctx, group, Action(cmd=name, args=tuple(
                    (k, str(v)) for k, v in options.items() if v is not None)))
            raise IllegalAction(f"`/{group}` is not a command.", "Try `/game help`.")
        except PlaypostError as exc:
            return Reply.error(exc.reason, exc.hint)
        except StaleVersion:
            return Reply.error("Someone else moved at the same moment; nothing was changed.",
                               "Look at the new board and try again.")
        except TypeError as exc:  # an option the command does not take
            log.info("bad options for /%s %s: %s", group, name, exc)
            return Reply.error(f"`/{group} {name}` does not take those options.", "See `/game help`.")

    async def press(self, ctx: Context, version: int, action_text: str) -> Reply:
        """A button press: the action it carries, refused if the board moved on since."""
        try:
            rec = await self._live(ctx)
        except PlaypostError as exc:
            return Reply.error(exc.reason, exc.hint)
        if rec.version != version:
            return Reply.error("This board is out of date.",
                               "Use the buttons under the newest board, or `/game status` to see it.")
        try:
            action = Action.parse(action_text)
        except PlaypostError as exc:
            return Reply.error(exc.reason, exc.hint)
        return await self.dispatch_action(ctx, rec.kind, action, expected_version=version)

    async def dispatch_action(self, ctx: Context, kind: str, action: Action, *, expected_version: int | None) -> Reply:
        try:
            return await self.play(ctx, kind, action, expected_version=expected_version)
        except PlaypostError as exc:
            return Reply.error(exc.reason, exc.hint)
        except StaleVersion:
            return Reply.error("This board is out of date.", "Use `/game status` to see the current one.")

    # ---- playing -------------------------------------------------------------
    async def play(self, ctx: Context, kind: str, written: Action, *, expected_version: int | None = None) -> Reply:
        async with self.lock(ctx.channel_id):
            rec = await self._live(ctx)
            if rec.kind != kind:
                raise IllegalAction(f"This channel's game is {get_game(rec.kind).name}, not {get_game(kind).name}.",
                                    f"Use `/{rec.kind} ...` here.")
            if expected_version is not None and rec.version != expected_version:
                raise StaleVersion("stale button")
            if rec.status != "active":
                raise IllegalAction("The game has not started yet.", "Seated players wait for the host's `/game start`.")
            if ctx.user_id not in self.names(rec):
                raise IllegalAction("You are not seated in this game.", "Spectators can follow along; join the next one.")
            engine = get_game(rec.kind)
            state = self._state(rec, engine)
            # rules work runs in a thread: a slow engine step never stalls other channels' replies
            before, action, new_state, events, after, dumped = await asyncio.to_thread(
                _compute, engine, state, ctx.user_id, written)
            seq = await self.storage.next_seq(rec.id)
            entry = LogEntry(seq=seq, player=ctx.user_id, action=action.text(), turn_key=before.turn_key,
                             barrier=any(e.irreversible for e in events), at=self.clock())
            fields: dict[str, Any] = {"deadline_at": self._deadline(rec, after, engine, new_state)}
            if after.finished:
                fields["status"] = "finished"
            rec = await self.storage.append_action(rec, rec.version, entry, dumped, **fields)
            self._remember(rec, new_state)
            turn = [u for u in self._undo.get(rec.id, []) if u[1] == entry.turn_key][-(UNDO_DEPTH - 1):]
            self._undo[rec.id] = turn + [(seq, entry.turn_key, state)]
            if len(self._undo) > STATE_CACHE:
                self._undo.pop(next(iter(self._undo)))
            log.info("move game=%s channel=%s seq=%s player=%s action=%r version=%s", rec.id, rec.channel_id,
                     seq, ctx.user_id, entry.action, rec.version)
        # committed: everything below only describes it
        return await self._after_move(rec, engine, new_state, before, after, events)

    async def cmd_preview(self, ctx: Context, action: str) -> Reply:
        """`/game preview action:`: a preview in whatever game this channel plays."""
        return await self.preview(ctx, None, str(action))

    async def preview(self, ctx: Context, kind: str | None, action_text: str) -> Reply:
        """Where an action would take you: an image only you see; the stored game is untouched."""
        rec = await self._live(ctx)
        if (kind is not None and rec.kind != kind) or rec.status != "active":
            raise IllegalAction("There is no running game of that kind here.", "`/game status` shows this channel's game.")
        engine = get_game(rec.kind)
        state = self._state(rec, engine)
        written = Action.parse(action_text)
        if written.cmd == "preview":
            raise IllegalAction("A preview of a preview shows nothing new.", "Preview a move, e.g. `tumble direction:N`.")
        no_previews = IllegalAction(f"{engine.name} has no previews.",
                                    "Make the move, and `/game undo` takes it back within your turn.")
        if not commands.previews(engine):
            raise no_previews
        action = resolve(engine, state, ctx.user_id, written)
        result = engine.preview(state, ctx.user_id, action)
        if result is None:
            raise no_previews
        seen, events = result
        text = "\n".join(e.text for e in events if e.to is None or ctx.user_id in e.to)
        dice = "; dice are stand-ins" if any(e.irreversible for e in events) else ""
        return Reply(text=f"Preview of `{action.text()}` (nothing has changed{dice}):\n{text}".strip(),
                     image=await self.image(rec.kind, engine, seen), ephemeral=True)

    def _deadline(self, rec: GameRecord, after: Status, engine: Game | None = None,
                  state: BaseModel | None = None) -> float | None:
        settings = {**DEFAULT_SETTINGS, **rec.settings}
        if after.finished or settings["paused"]:
            return None
        window = engine.timeout(state, rec.options) if engine is not None and state is not None else None
        hours = window[0] if window else float(settings["deadline_hours"])
        return self.clock() + hours * 3600

    async def expire(self, rec: GameRecord, now: float | None = None) -> Reply | None:
        """Close a decision window whose time ran out with the action the game names (a pass)."""
        now = self.clock() if now is None else now
        if rec.status != "active" or rec.deadline_at is None or rec.deadline_at > now or rec.state is None:
            return None
        engine = get_game(rec.kind)
        state = self.state_of(rec, engine)
        window = engine.timeout(state, rec.options)
        st = engine.status(state)
        if window is None or st.finished or not st.to_act:
            return None
        player = st.to_act[0]
        name = self.names(rec).get(player, player)
        ctx = Context(channel_id=rec.channel_id, user_id=player, user_name=name, guild_id=rec.guild_id)
        try:
            reply = await self.play(ctx, rec.kind, window[1], expected_version=rec.version)
        except (PlaypostError, StaleVersion):
            return None  # someone answered in the meantime
        hours = f"{window[0]:g}"
        reply.text = f"Time is up: {name} did not answer within {hours} h, so it counts as `{window[1].text()}`.\n" + reply.text
        return reply

    async def skip(self, rec: GameRecord, player: str) -> Reply:
        """The table voted to skip `player`'s move: the game's skip action for them, on this version only."""
        try:
            engine = get_game(rec.kind)
            if rec.status != "active" or rec.state is None:
                raise IllegalAction("That game is not running any more.", "`/game history` lists it; `/game new` starts another.")
            action = engine.skip_action(self.state_of(rec, engine), player)
            if action is None:
                raise IllegalAction(f"{engine.name} has no way to skip this move.",
                                    "The other players may vote to end the game instead.")
            name = self.names(rec).get(player, player)
            ctx = Context(channel_id=rec.channel_id, user_id=player, user_name=name, guild_id=rec.guild_id)
            reply = await self.play(ctx, rec.kind, action, expected_version=rec.version)
        except PlaypostError as exc:
            return Reply.error(exc.reason, exc.hint)
        except StaleVersion:
            return Reply.error("The game moved on before the vote was counted; nothing was skipped.",
                               "`/game status` shows the current board.")
        log.info("skip game=%s player=%s action=%r version=%s", rec.id, player, action.text(), reply.version)
        reply.text = f"The other players voted to skip {name}'s move: it counts as `{action.text()}`.\n" + reply.text
        return reply

    async def _after_move(self, rec: GameRecord, engine: Game, state: BaseModel, before: Status | None,
                          after: Status, events: Sequence[Any]) -> Reply:
        lines = [e.text for e in events if e.to is None]
        private: dict[str, str] = {}
        for e in events:
            for who in e.to or ():
                private[who] = (private.get(who, "") + "\n" + e.text).strip()
        newly = [p for p in after.to_act if before is None or p not in before.to_act or before.turn_key != after.turn_key]
        names = self.names(rec)
        image, buttons = await asyncio.gather(
            self.image(rec.kind, engine, state),
            asyncio.to_thread(self.buttons, engine, state, after, names) if not after.finished else _nothing())
        reply = Reply(
            text="\n".join(lines),
            image=image,
            buttons=buttons,
            private=private,
            ping=[] if after.finished else newly,
            game_id=rec.id,
            version=rec.version,
            status_text=self.status_line(rec, engine, after),
            finished=after.finished,
        )
        reply.text = (reply.text + "\n" + reply.status_text).strip()
        return reply

    def buttons(self, engine: Game, state: BaseModel, status: Status,
                names: dict[str, str] | None = None) -> list[Button]:
        """Buttons for the legal actions of whoever must act, when there are few enough to show.

        When several players would get the same label ("Keep these skills"), those labels
        start with the player's name, so everyone can tell which button is theirs.
        """
        rows: list[tuple[str, str, str]] = []  # label, action, player
        for player in status.to_act:
            # settings a player may change any time are commands, not buttons under every board
            legal = [a for a in engine.legal_actions(state, player) if a.cmd not in engine.anytime_commands]
            rows.extend((engine.label(state, a), a.text(), player)
                        for a in engine.button_actions(state, player, legal)[:MAX_BUTTONS])
        owners: dict[str, set[str]] = {}
        for label, _, player in rows:
            owners.setdefault(label, set()).add(player)
        out = [Button(label=(f"{(names or {}).get(p, p)}: {label}" if len(owners[label]) > 1 else label)[:80],
                      action=action, player=p) for label, action, p in rows]
        return out[:MAX_BUTTONS]

    def status_line(self, rec: GameRecord, engine: Game, st: Status) -> str:
        names = self.names(rec)
        if st.finished:
            res = st.result
            if res and res.winners:
                who = ", ".join(names.get(w, w) for w in res.winners)
                head = f"Game over: {who} {'win' if len(res.winners) > 1 else 'wins'}."
            else:
                head = "Game over."
            return f"{head} {res.text if res else ''}".strip()
        parts = [engine.name]
        if st.round:
            parts.append(f"{st.round_name} {st.round}")
        parts.append(st.phase)
        waiting = st.waiting_for or ", ".join(names.get(p, p) for p in st.to_act)
        line = " · ".join(parts) + f" · waiting for {waiting}"
        if rec.deadline_at:
            line += f" (deadline <t:{int(rec.deadline_at)}:R>)"
        elif {**DEFAULT_SETTINGS, **rec.settings}["paused"]:
            line += " (paused)"
        return line

    # ---- rules reference -----------------------------------------------------
    def rules(self, game: str, topic: str | None) -> Reply:
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
            return Reply.error(f"No topic `{topic}` in the {engine.name} rules.",
                               "Topics: " + ", ".join(f"`{t}`" for t in topics) + ".")
        return Reply(text=f"**{engine.name} — {match[0]}**\n{topics[match[0]]}", ephemeral=True)

    # ---- autocomplete --------------------------------------------------------
    async def suggest(self, ctx: Context, group: str, name: str, option: str, given: dict[str, Any],
                      typed: str) -> list[str]:
        """Up to 25 legal values for an option, for this user now, best first."""
        return [value for _, value in await self.suggest_labelled(ctx, group, name, option, given, typed)]

    async def suggest_labelled(self, ctx: Context, group: str, name: str, option: str, given: dict[str, Any],
                               typed: str) -> list[tuple[str, str]]:
        """(label, value) pairs: the label is what the list shows (the game may add detail)."""
        values = await self._suggest(ctx, group, name, option, given)
        labels = {v: v for v in values}
        if group in all_games() or (group, name) == ("game", "preview"):
            rec = await self.storage.live_game(ctx.channel_id)
            if rec is not None and rec.status == "active" and group in (rec.kind, "game"):
                engine = get_game(rec.kind)
                state = self._state(rec, engine)
                labels = {v: engine.value_label(state, ctx.user_id, name, option, v) or v for v in values}
        t = _squash(typed)
        starts = [v for v in values if _squash(v).startswith(t) or _squash(labels[v]).startswith(t)]
        contains = [v for v in values if v not in starts and (t in _squash(v) or t in _squash(labels[v]))]
        return [(labels[v], v) for v in (starts + contains)[:25]]

    async def _suggest(self, ctx: Context, group: str, name: str, option: str, given: dict[str, Any]) -> list[str]:
        if group == "rules" and option == "topic":
            try:
                return list(get_game(str(given.get("game", ""))).rules_topics())
            except PlaypostError:
                return []
        if group == "game" and name == "new":
            game = given.get("game")
            if game in all_games():
                return get_game(game).option_choices(option)
            return []
        rec = await self.storage.live_game(ctx.channel_id)
        if rec is None:
            return []
        engine = get_game(rec.kind)
        if group == "game" and name == "join":
            return engine.seat_choices(rec.options, [s for s in _seats(rec) if s.player != ctx.user_id], option)
        if group == "game" and name == "kick":
            return [s.name for s in rec.seats]
        if group not in (rec.kind, "game") or rec.status != "active" or ctx.user_id not in self.names(rec):
            return []
        state = self._state(rec, engine)
        if name == "preview" and option == "action":  # any legal action can be previewed
            return [a.text() for a in engine.legal_actions(state, ctx.user_id) if a.cmd not in engine.anytime_commands]
        try:
            partial = Action(cmd=name, args=tuple((k, str(v)) for k, v in given.items()
                                                  if v is not None and k != option))
        except Exception:
            return []
        if group == "game":
            return []
        seen: list[str] = []
        for a in engine.legal_actions(state, ctx.user_id):
            if a.matches(partial):
                v = a.get(option)
                if v is not None and v not in seen:
                    seen.append(v)
        return seen

    # ---- recovery ------------------------------------------------------------
    async def rebuild_from_log(self, rec: GameRecord) -> BaseModel:
        """Replay a game's log from its seed (the state row is only a cache)."""
        engine = get_game(rec.kind)
        entries = await self.storage.log(rec.id)
        return replay(engine, rec.options, _seats(rec), rec.seed, [(e.player, Action.parse(e.action)) for e in entries])


def command_specs() -> dict[str, Any]:
    return commands.groups()
