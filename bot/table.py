"""The table core: what every command that touches a game shares.

One apply path, top to bottom: lock -> load -> table checks -> rules in a thread -> one
version-guarded transaction -> cache and undo bookkeeping; then, outside the lock, the move is
described (`after_move`: text, board image, buttons, menus, status line). A per-channel lock
serialises commands of one game; the stored version guards against anything the lock cannot see
(a second process), so a stale write is refused, never applied.

The command sets (`TableCommands`, `RecordCommands`, `VoteCommands`) are given a `Table`; none of
them knows the manager.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import importlib.util
import logging
import multiprocessing
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from games.core import Action, Event, Game, IllegalAction, PlaypostError, Status, get_game
from games.core.actions import echo
from games.core.play import irreversible, replay, step
from games.core.words import possessive, says
from render import render_png
from storage import GameRecord, LogEntry, StaleVersion, Storage

from . import board_controls, computers, hand
from .defaults import DEFAULT_SETTINGS, seats_of
from .errors import NotFound
from .pipeline import Board, Boards, Limits, Stage, Turns
from .reply import Button, Context, Menu, Reply, StatusMessage
from .runtime import render_worker_init

log = logging.getLogger("playpost.manager")

# game states kept parsed, the most recently used: a hit saves a parse of 20-90 us in a rules worker, while every
# state kept costs every full garbage collection ~45 us of holding the GIL (a dungeon state is ~260 objects) and
# ~60 KB; 1,000 had a full collection hold the loop ~40 ms
STATE_CACHE = 100
UNDO_DEPTH = 20  # states kept per game for undo within a turn (their JSON)
UNDO_GAMES = 1000  # games whose turn's states are kept
STATUS_HEADER = "**Game status**"


@dataclass(frozen=True)
class Move:
    """One move's rules work: the status before and after, the move as legal, its events, the new state."""

    before: Status
    action: Action
    state: BaseModel
    events: list[Event]
    after: Status
    dumped: str


def seated_player(rec: GameRecord, given: str) -> str:
    """The user id a player-selecting option means: a user id or mention (`<@123>`), or a seated name only
    one player has. A name two players share is refused, never guessed."""
    text = given.strip()
    mention = re.fullmatch(r"<@!?(\d+)>", text)
    key = mention.group(1) if mention else text
    if key in {s.player for s in rec.seats}:
        return key
    folded = key.lstrip("@").casefold()
    named = sorted({s.player for s in rec.seats if folded in (s.name.casefold(), s.player.casefold())})
    if len(named) == 1:
        return named[0]
    if named:
        raise IllegalAction(f"{len(named)} seated players are called `{echo(text)}`.",
                            "Pick the player themselves (Discord's user option, a mention or their user id).")
    raise IllegalAction(f"`{echo(text)}` is not seated.",
                        "Seated: " + (", ".join(s.name for s in rec.seats) or "nobody") + ".")


def players_by_id(rec: GameRecord, engine: Game, written: Action) -> Action:
    """A game command's player-selecting (`user`) options as the user ids they name."""
    spec = next((c for c in engine.commands if c.name == written.cmd), None)
    users = {o.name for o in spec.options if o.kind == "user"} if spec is not None else set()
    if not any(k in users for k, _ in written.args):
        return written
    return Action(cmd=written.cmd, args=tuple((k, seated_player(rec, v) if k in users else v)
                                              for k, v in written.args))


@functools.cache
@functools.cache
def drawable(kind: str) -> bool:
    """Whether a game has a renderer (found without importing it; cached: the search stats the file system)."""
    return importlib.util.find_spec(f"render.{kind}") is not None


def draw_public(kind: str, state: BaseModel) -> bytes | None:
    """A game's public board as PNG (run in a render process)."""
    return render_png(kind, get_game(kind).view(state, None))


RECAP_LINES = 10


def keeps_deadline(player: str, before: Status, after: Status) -> bool:
    """A waiting player's own setting (a command they may give any time, e.g. standing orders) leaves the
    deadline of whoever must act as it was; only a move of someone who must act, or one that changes
    who must act, starts the clock anew."""
    return (player not in before.to_act and not after.finished and before.to_act == after.to_act
            and before.turn_key == after.turn_key)


SAID_CHARS = 160  # a recap line's share of the move's public text


SILENT = "(nothing public)"  # `said` of a move that told the table nothing (a private standing order)


def said_of(events: Sequence[Event]) -> str:
    """What a move said in public, first line, for the recap ("Ann steps to G2 (4 AP left)."); never a private
    text: a move that said nothing in public is SILENT, and the recap and the log keep it from the others."""
    for e in events:
        if e.to is None and e.text.strip():
            lines = [ln.strip() for ln in e.text.strip().splitlines() if ln.strip()]
            line = lines[0]
            if line.endswith(":") and len(lines) > 1:  # "The monsters react, closest first:" says what follows
                line = f"{line} {lines[1]}"
            return line if len(line) <= SAID_CHARS else line[:SAID_CHARS - 1].rstrip() + "…"
    return SILENT


def recap_line(e: LogEntry, names: dict[str, str], group: str) -> str:
    """One recap line: what the move said (its player named first when the text does not name them: "bob: Ruby
    moves to I7"), or, for a move logged before moves kept their text, the command."""
    name = names.get(e.player, e.player)
    if not e.said:
        return f"- {name}: `/{group} {e.action}`"
    return f"- {e.said}" if names_in(e.said, name) else f"- {name}: {e.said}"


def names_in(text: str, name: str) -> bool:
    """Whether `text` names `name` as a word of its own (any case): "you win" names "you", "Bobby" is not "Bob"."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) is not None


def recap_text(entries: Sequence[LogEntry], names: dict[str, str], group: str, told: int = 1) -> str:
    """'Since your last move:' with one line per logged action but the last `told` (the moves the message itself
    tells right below: its own, and any that played themselves after it): the newest RECAP_LINES (what led up to
    this turn matters most; 'N earlier' says how many are left out); nothing when only those happened since."""
    entries = [e for e in entries[:max(0, len(entries) - told)] if e.said != SILENT]
    if not entries:
        return ""
    lines = [recap_line(e, names, group) for e in entries[-RECAP_LINES:]]
    if len(entries) > RECAP_LINES:
        lines.insert(0, f"- {len(entries) - RECAP_LINES} earlier (`/game log` lists them), then:")
    return "**Since your last move:**\n" + "\n".join(lines)


def replay_log(rec: GameRecord, entries: Sequence[LogEntry]) -> BaseModel:
    """A game's state rebuilt from its seed and log (checked as each action was)."""
    return replay(get_game(rec.kind), rec.options, seats_of(rec), rec.seed,
                  [(e.player, Action.parse(e.action)) for e in entries])


def compute(engine: Game, state: BaseModel, player: str, written: Action) -> Move:
    """One move's rules work (pure; run in a worker thread)."""
    before = engine.status(state)
    action, new_state, events = step(engine, state, player, written)
    return Move(before, action, new_state, events, engine.status(new_state), engine.dump(new_state))


class Table:
    """Storage, clock, caches and the apply path every command set shares."""

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
        computer_workers > 0 runs computer players' decisions in that many processes (the bot: a `hard`
        search holds the GIL for up to a second or two); 0 runs them in a thread (console, scripts, tests).

        `limits` bounds the work under way at each stage (bot/pipeline.py): moves in their apply
        path, rules work in worker threads, boards being drawn; the rest waits its turn.
        """
        self.storage = storage
        self.clock = clock
        self.render_enabled = render
        self.seed_source = seed_source or (lambda: secrets.randbits(48))
        self._locks: dict[str, asyncio.Lock] = {}
        self._states: OrderedDict[int, tuple[int, BaseModel]] = OrderedDict()
        # per game: (log seq, turn key, the saved JSON of the state before that action) for the actions of the turn
        # under way, so undo is a lookup instead of a replay of the whole log (text: no work for the collector)
        self.undo_states: dict[int, list[tuple[int, str, str]]] = {}
        # drawing holds the GIL for tens of ms: in worker processes the event loop never waits on it
        self._pool = (concurrent.futures.ProcessPoolExecutor(
            render_workers, mp_context=multiprocessing.get_context("spawn"), initializer=render_worker_init)
            if render_workers > 0 else None)
        self.limits = limits = limits or Limits()
        self._rules_pool = concurrent.futures.ThreadPoolExecutor(limits.rules_workers,
                                                                 thread_name_prefix="playpost-rules")
        self.apply = Stage("apply", limits.apply_slots, limits.queue)
        self.rules = Stage("rules", limits.rules_workers, limits.queue, self._rules_pool)
        # two boards per render process in flight: the next is already there when one is done
        self.render = Stage("render", 2 * render_workers or 1, limits.queue, self._pool)
        self.boards = Boards(self.render)
        self.turns = Turns()
        self._think = (concurrent.futures.ProcessPoolExecutor(
            computer_workers, mp_context=multiprocessing.get_context("spawn"), initializer=computers.warm_worker)
            if computer_workers > 0 else None)

    def close(self) -> None:
        """Stop the workers once the commands in flight are done: queued work is cancelled, decision processes ended."""
        self.boards.cancel()
        if (pool := self._think) is not None:  # terminated, then reaped: a decision in flight is abandoned anyway
            self._think = None
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
            pool.shutdown(wait=True, cancel_futures=True)
        self._rules_pool.shutdown(wait=False, cancel_futures=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self.render.executor = None

    # ---- loading -------------------------------------------------------------
    def lock(self, key: str) -> asyncio.Lock:
        """The lock of a channel (or of any other key, e.g. a game's ballot)."""
        lk = self._locks.get(key)
        if lk is None:
            lk = self._locks[key] = asyncio.Lock()
        return lk

    def state_of(self, rec: GameRecord, engine: Game | None = None) -> BaseModel:
        """The engine state of an active game record (cached by version)."""
        engine = engine or get_game(rec.kind)
        hit = self._states.get(rec.id)
        if hit and hit[0] == rec.version:
            self._states.move_to_end(rec.id)
            return hit[1]
        assert rec.state is not None
        state = engine.load(rec.state)
        self.remember(rec, state)
        return state

    async def load(self, rec: GameRecord, engine: Game) -> BaseModel:
        """`state_of`, with a state not cached parsed by a rules worker (off the event loop)."""
        hit = self._states.get(rec.id)
        if hit and hit[0] == rec.version:
            self._states.move_to_end(rec.id)
            return hit[1]
        assert rec.state is not None
        state = await self.rules.run(engine.load, rec.state)
        self.remember(rec, state)
        return state

    def remember(self, rec: GameRecord, state: BaseModel) -> None:
        self._states[rec.id] = (rec.version, state)
        self._states.move_to_end(rec.id)
        while len(self._states) > STATE_CACHE:
            self._states.popitem(last=False)

    @property
    def cached(self) -> int:
        """How many game states are kept parsed."""
        return len(self._states)

    @staticmethod
    def names(rec: GameRecord) -> dict[str, str]:
        return {s.player: s.name for s in rec.seats}

    async def live(self, ctx: Context) -> GameRecord:
        rec = await self.storage.live_game(ctx.channel_id)
        if rec is None:
            raise NotFound("There is no game in this channel.", "Start one with `/game new game:<name>`.")
        return rec

    async def live_or_last(self, ctx: Context) -> GameRecord:
        """This channel's game, or its latest one when none is live."""
        rec = await self.storage.live_game(ctx.channel_id)
        if rec is None:
            past = await self.storage.history(ctx.channel_id, 1)
            if not past:
                raise NotFound("There is no game in this channel.", "Start one with `/game new game:<name>`.")
            rec = past[0]
        return rec

    async def image(self, kind: str, engine: Game, state: BaseModel) -> bytes | None:
        """A board drawn for its own sake (a status, a preview): waits its turn, never coalesced."""
        board = self.board(None, None, kind, engine, state)
        return None if board is None else await board.image()

    def board(self, channel: str | None, version: int | None, kind: str, engine: Game,
              state: BaseModel) -> Board | None:
        """Ask for a channel's board (None when rendering is off): while it waits to be drawn, a newer
        board of the same channel takes its place, so under a burst only the newest board is drawn."""
        if not self.render_enabled:
            return None
        return self.boards.request(channel, version, lambda: self._draw(kind, engine, state))

    async def _draw(self, kind: str, engine: Game, state: BaseModel) -> bytes | None:
        """The public board, in a render process: the state goes there (a few KB) and its view is made
        there too, so the bot's process spends nothing on it. Without processes: the view in a rules
        worker, the drawing in a thread. The caller holds a render slot."""
        if not drawable(kind):
            return None
        loop = asyncio.get_running_loop()
        if self._pool is not None:
            try:
                return await loop.run_in_executor(self._pool, draw_public, kind, state)
            except concurrent.futures.BrokenExecutor:
                log.exception("render pool broke; rendering in a thread from now on")
                self._pool = self.render.executor = None
        view = await self.rules.run(engine.view, state, None)
        return await loop.run_in_executor(None, render_png, kind, view)

    async def decide(self, kind: str, engine: Game, state: BaseModel, player: str, level: str, seed: str) -> Action:
        """A computer player's decision off the event loop: in a decision process when the table has them
        (the state goes as its JSON), else in a thread. Either way the same action (bot/computers.py)."""
        if self._think is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(
                    self._think, computers.choose_from_text, kind, engine.dump(state), player, level, seed)
            except concurrent.futures.BrokenExecutor:
                log.exception("decision pool broke; computer players decide in a thread from now on")
                self._think = None
        return await asyncio.to_thread(computers.choose, kind, state, player, level, seed)

    # ---- the apply path ------------------------------------------------------
    async def play(self, ctx: Context, kind: str, written: Action, *, expected_version: int | None = None) -> Reply:
        rec, engine, move = await self.commit(ctx, kind, written, expected_version=expected_version)
        # computer seats whose turn it now is move at once, through `commit` like anyone (bot/computers.py)
        rec, state, after, events = await computers.follow(self, rec, engine, move.state, move.after)
        # committed: everything below only describes it
        return computers.quiet(rec, await self.after_move(rec, engine, state, move.before, after,
                                                          [*move.events, *events], later=ctx.image_later,
                                                          mover=ctx.user_id))

    async def commit(self, ctx: Context, kind: str, written: Action, *,
                     expected_version: int | None = None) -> tuple[GameRecord, Game, Move]:
        """The apply path up to the committed move (no description of it yet)."""
        # the channel's moves one at a time; a bounded number of moves do storage and rules work at once
        async with self.lock(ctx.channel_id), self.apply.slot():
            rec = await self.live(ctx)
            if rec.kind != kind:
                raise IllegalAction(f"This channel's game is {get_game(rec.kind).name}, not {get_game(kind).name}.",
                                    f"Use `/{rec.kind} ...` here.")
            if expected_version is not None and rec.version != expected_version:
                raise StaleVersion("stale button")
            if rec.status != "active":
                raise IllegalAction("The game has not started yet.",
                                    "Seated players wait for the host's `/game start`.")
            if ctx.user_id not in self.names(rec):
                raise IllegalAction("You are not seated in this game.",
                                    "Spectators can follow along; join the next one.")
            engine = get_game(rec.kind)
            state = await self.load(rec, engine)
            written = players_by_id(rec, engine, written)
            # rules work runs in a worker thread: a slow engine step never stalls other channels' replies
            move = await self.rules.run(compute, engine, state, ctx.user_id, written)
            seq = await self.storage.next_seq(rec.id)
            entry = LogEntry(seq=seq, player=ctx.user_id, action=move.action.text(), turn_key=move.before.turn_key,
                             barrier=irreversible(engine, state, move.state, move.events), at=self.clock(),
                             said=said_of(move.events))
            before = rec.state or engine.dump(state)  # the state's saved JSON (an active game always has one)
            fields: dict[str, Any] = {"deadline_at": self.deadline(rec, move.after, engine, move.state)}
            if keeps_deadline(ctx.user_id, move.before, move.after):
                fields["deadline_at"] = rec.deadline_at
            if move.after.finished:
                fields["status"] = "finished"
            rec = await self.storage.append_action(rec, rec.version, entry, move.dumped, **fields)
            self.remember(rec, move.state)
            turn = [u for u in self.undo_states.get(rec.id, []) if u[1] == entry.turn_key][-(UNDO_DEPTH - 1):]
            self.undo_states[rec.id] = turn + [(seq, entry.turn_key, before)]
            if len(self.undo_states) > UNDO_GAMES:
                self.undo_states.pop(next(iter(self.undo_states)))
            log.info("move game=%s channel=%s seq=%s player=%s action=%r version=%s", rec.id, rec.channel_id,
                     seq, ctx.user_id, entry.action, rec.version)
        return rec, engine, move

    def deadline(self, rec: GameRecord, after: Status, engine: Game | None = None,
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
        state = await self.load(rec, engine)
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
        said = f"Time is up: {name} did not answer within {hours} h, so it counts as `{window[1].text()}`."
        reply.text = f"{said}\n{reply.text}"
        return reply

    async def skip(self, rec: GameRecord, player: str) -> Reply:
        """The table voted to skip `player`'s move: the game's skip action for them, on this version only.

        Raises StaleVersion when the game moved on since `rec` was read.
        """
        engine = get_game(rec.kind)
        if rec.status != "active" or rec.state is None:
            raise IllegalAction("That game is not running any more.",
                                "`/game history` lists it; `/game new` starts another.")
        action = engine.skip_action(await self.load(rec, engine), player)
        if action is None:
            raise IllegalAction(f"{engine.name} has no way to skip this move.",
                                "The other players may vote to end the game instead.")
        name = self.names(rec).get(player, player)
        ctx = Context(channel_id=rec.channel_id, user_id=player, user_name=name, guild_id=rec.guild_id)
        reply = await self.play(ctx, rec.kind, action, expected_version=rec.version)
        log.info("skip game=%s player=%s action=%r version=%s", rec.id, player, action.text(), reply.version)
        reply.text = (f"The other players voted to skip {possessive(name)} move: it counts as `{action.text()}`.\n"
                      + reply.text)
        return reply

    async def rebuild_from_log(self, rec: GameRecord) -> BaseModel:
        """Replay a game's log from its seed (the state row is only a cache)."""
        entries = await self.storage.log(rec.id)
        return await self.rules.run(replay_log, rec, entries)  # rules work: a worker thread, never the loop

    # ---- describing a move ---------------------------------------------------
    async def after_move(self, rec: GameRecord, engine: Game, state: BaseModel, before: Status | None,
                         after: Status, events: Sequence[Event], *, later: bool = False,
                         mover: str | None = None) -> Reply:
        """Describe a committed change: text, board, controls, status. Call it right after the commit:
        it takes the reply's place in the channel's order before its first await.

        `later`: the reply leaves without waiting for its board; `Reply.board` brings the image.
        `mover`: who made the move; they are never pinged for it, and while the same players must act
        in the same turn the reply continues the turn's message (`Reply.continues`). A reply that pings
        opens with a recap of the moves since the pinged player's last one.
        """
        turn = self.turns.take(rec.channel_id)
        try:
            lines = [e.text for e in events if e.to is None]
            private: dict[str, str] = {}
            for e in events:
                for who in e.to or ():
                    private[who] = (private.get(who, "") + "\n" + e.text).strip()
            newly = [p for p in after.to_act if p != mover and
                     (before is None or p not in before.to_act or before.turn_key != after.turn_key)]
            continues = (before is not None and mover is not None and not after.finished and mover in before.to_act
                         and before.turn_key == after.turn_key and before.to_act == after.to_act)
            board = self.board(rec.channel_id, rec.version, rec.kind, engine, state)
            controls: tuple[list[Button], list[Menu]] = ([], [])
            mine: dict[str, tuple[list[Button], list[Menu]]] = {}
            if not after.finished:
                controls = await self.rules.run(self.controls, engine, state, after, self.names(rec))
                mine = await self.rules.run(hand.all_controls, engine, state, after)
            status_text = self.status_line(rec, engine, after)
            reply = Reply(
                text="\n".join(lines),
                image=None if board is None or later else await board.image(),
                buttons=controls[0],
                menus=controls[1],
                private=private,
                ping=[] if after.finished else newly,
                game_id=rec.id,
                version=rec.version,
                status_text=status_text,
                finished=after.finished,
                board=board if later else None,
                status_message=self.status_message(rec, after),
                continues=continues,
                hand_controls=mine,
                replay_due=after.finished and bool(events) and (before is None or not before.finished),
                turn_message=rec.meta.get("turn_message") if continues else None,
            )
            closing = reply.status_text
            res = after.result
            if after.finished and res is not None and res.text and res.text in reply.text:  # the game told its end
                closing = self.game_over(rec, after)  # "Game over: Ann wins." once, not the account again
            reply.text = (reply.text + "\n" + closing).strip()
            if reply.ping and not continues:
                # the moves this reply tells in full (the mover's, then those the table or computers played after)
                told = sum(e.kind in ("forced", "computer") for e in events) + (mover is not None and bool(events))
                reply.recap = await self.recap(rec, reply.ping, told)
                reply.text = (reply.recap + "\n" + reply.text).strip()
            await turn.wait()  # the channel's earlier replies leave first
            return reply
        finally:
            turn.release()

    async def recap(self, rec: GameRecord, players: Sequence[str], told: int = 1) -> str:
        """What happened since the earliest last move of `players`, one line per action, from the move log, but
        the last `told` moves (the reply tells them in full below)."""
        entries = await self.storage.log(rec.id)
        last = [max((i for i, e in enumerate(entries) if e.player == p), default=-1) for p in players]
        since = entries[min(last, default=-1) + 1:]
        return recap_text(since, self.names(rec), rec.kind, told)

    def controls(self, engine: Game, state: BaseModel, status: Status,
                 names: dict[str, str] | None = None) -> tuple[list[Button], list[Menu]]:
        """The buttons under a board, and menus for the legal actions the buttons leave out."""
        return board_controls.controls(engine, state, status, names)

    buttons = staticmethod(board_controls.buttons)
    menus = staticmethod(board_controls.menus)

    def status_message(self, rec: GameRecord, st: Status | None = None) -> StatusMessage:
        """The game's standing status message as it should read now (`st`: its status, when known),
        and where it was posted."""
        engine = get_game(rec.kind)
        if rec.status == "lobby":
            seated = ", ".join(s.name for s in rec.seats) or "nobody"
            text = (f"{STATUS_HEADER} · **{engine.name}** lobby · seated: {seated}\n"
                    "Take a seat with `/game join`; the host starts with `/game start`.")
        elif rec.status == "abandoned" or rec.state is None:
            text = f"{STATUS_HEADER} · **{engine.name}** was abandoned. `/game history` lists it."
        else:
            st = st or engine.status(self.state_of(rec, engine))
            text = f"{STATUS_HEADER} · {self.status_line(rec, engine, st)}"
        meta = rec.meta
        return StatusMessage(text=text, channel_id=meta.get("status_channel"), message_id=meta.get("status_message"),
                             pinned=bool(meta.get("status_pinned")), over=rec.status in ("finished", "abandoned"))

    def game_over(self, rec: GameRecord, st: Status) -> str:
        """"Game over: Ann wins." (or "Game over." without winners), the result's own account left out."""
        res, names = st.result, self.names(rec)
        if not res or not res.winners:
            return "Game over."
        who = ", ".join(names.get(w, w) for w in res.winners)
        return f"Game over: {who} win." if len(res.winners) > 1 else f"Game over: {says(who, 'wins')}."

    def status_line(self, rec: GameRecord, engine: Game, st: Status) -> str:
        names = self.names(rec)
        if st.finished:
            res = st.result
            head = self.game_over(rec, st)
            if res and res.text and res.winners and all(names_in(res.text, names.get(w, w)) for w in res.winners):
                return f"Game over: {res.text}"  # the game's account names the winners: not "you win. you win ..."
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
        if rec.meta.get("seeded_by_host"):
            line += f" · seed {rec.seed} chosen by the host"
        return line
