"""The game manager: one apply path for every command, whatever the transport.

load -> authorise -> validate -> apply -> persist -> render (off the event loop) -> Reply.
A per-channel lock serialises commands of one game; the stored version guards against
anything the lock cannot see (a second process), so a stale write is refused, never applied.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import json
import logging
import multiprocessing
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from games.core import (
    Action,
    Game,
    IllegalAction,
    OptionSpec,
    PlaypostError,
    Seat,
    Status,
    all_games,
    get_game,
)
from games.core.play import hint_for, replay, resolve, step
from render import render_png
from storage import ChannelBusy, GameRecord, LogEntry, SeatRecord, StaleVersion, Storage

from . import commands
from .reply import Attachment, Button, Context, Reply

log = logging.getLogger("playpost.manager")

DEFAULT_SETTINGS: dict[str, Any] = {"deadline_hours": 48, "reminder_hours": 24, "paused": False}
EXPORT_FORMAT = "playpost-export"
EXPORT_VERSION = 1
MAX_BUTTONS = 20
STATE_CACHE = 1000
UNDO_DEPTH = 20  # states kept per game for undo within a turn


class NotFound(PlaypostError):
    """No game where the command expects one."""


def _squash(text: str) -> str:
    """Case, spaces and punctuation do not matter when matching typed text: 'Von W' finds 'vonwilding'."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _pick(spec: OptionSpec, value: str, game: str) -> str:
    """A value for an option with fixed choices, spelled as the choice is (any case accepted)."""
    if not spec.choices:
        return value
    for choice in spec.choices:
        if choice.casefold() == value.strip().casefold():
            return choice
    raise IllegalAction(f"`{value}` is not a {spec.name} in {game}.", "Choose one of: " + ", ".join(spec.choices) + ".")


def _seats(rec: GameRecord) -> list[Seat]:
    return [Seat(player=s.player, name=s.name, choices=dict(s.choices)) for s in rec.seats]


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
        view = engine.view(state, None)
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
                return await self.play(ctx, group, Action(cmd=name, args={
                    k: str(v) for k, v in options.items() if v is not None}))
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
            before = engine.status(state)
            action, new_state, events = step(engine, state, ctx.user_id, written)
            after = engine.status(new_state)
            seq = await self.storage.next_seq(rec.id)
            entry = LogEntry(seq=seq, player=ctx.user_id, action=action.text(), turn_key=before.turn_key,
                             barrier=any(e.irreversible for e in events), at=self.clock())
            fields: dict[str, Any] = {"deadline_at": self._deadline(rec, after, engine, new_state)}
            if after.finished:
                fields["status"] = "finished"
            rec = await self.storage.append_action(rec, rec.version, entry, engine.dump(new_state), **fields)
            self._remember(rec, new_state)
            turn = [u for u in self._undo.get(rec.id, []) if u[1] == entry.turn_key][-(UNDO_DEPTH - 1):]
            self._undo[rec.id] = turn + [(seq, entry.turn_key, state)]
            if len(self._undo) > STATE_CACHE:
                self._undo.pop(next(iter(self._undo)))
            log.info("move game=%s channel=%s seq=%s player=%s action=%r version=%s", rec.id, rec.channel_id,
                     seq, ctx.user_id, entry.action, rec.version)
        # committed: everything below only describes it
        return await self._after_move(rec, engine, new_state, before, after, events)

    async def preview(self, ctx: Context, kind: str, action_text: str) -> Reply:
        """Where an action would take you: an image only you see; the stored game is untouched."""
        rec = await self._live(ctx)
        if rec.kind != kind or rec.status != "active":
            raise IllegalAction("There is no running game of that kind here.", "`/game status` shows this channel's game.")
        engine = get_game(rec.kind)
        state = self._state(rec, engine)
        written = Action.parse(action_text)
        if written.cmd == "preview":
            raise IllegalAction("A preview of a preview shows nothing new.", "Preview a move, e.g. `tumble direction:N`.")
        action = resolve(engine, state, ctx.user_id, written)
        result = engine.preview(state, ctx.user_id, action)
        if result is None:
            raise IllegalAction(f"{engine.name} has no previews.", "")
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
                raise IllegalAction("That game is not running any more.", "")
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
        reply = Reply(
            text="\n".join(lines),
            image=await self.image(rec.kind, engine, state),
            private=private,
            ping=[] if after.finished else newly,
            game_id=rec.id,
            version=rec.version,
            status_text=self.status_line(rec, engine, after),
            finished=after.finished,
        )
        reply.text = (reply.text + "\n" + reply.status_text).strip()
        if not after.finished:
            reply.buttons = self.buttons(engine, state, after, self.names(rec))
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
            parts.append(f"round {st.round}")
        parts.append(st.phase)
        waiting = st.waiting_for or ", ".join(names.get(p, p) for p in st.to_act)
        line = " · ".join(parts) + f" · waiting for {waiting}"
        if rec.deadline_at:
            line += f" (deadline <t:{int(rec.deadline_at)}:R>)"
        elif {**DEFAULT_SETTINGS, **rec.settings}["paused"]:
            line += " (paused)"
        return line

    # ---- /game commands ------------------------------------------------------
    async def cmd_new(self, ctx: Context, game: str, seed: int | None = None, thread: bool | None = None,
                      deadline: int | None = None, **options: Any) -> Reply:
        engine = get_game(str(game))
        known = {o.name: o for o in engine.options}
        unknown = [k for k in options if k not in known]
        if unknown:
            raise IllegalAction(f"{engine.name} has no option `{unknown[0]}`.",
                                "Its options: " + (", ".join(known) or "none") + ".")
        opts = {k: str(v) for k, v in options.items()}
        for name, spec in known.items():
            if name not in opts and spec.default is not None:
                opts[name] = spec.default
            if name in opts:
                opts[name] = _pick(spec, opts[name], engine.name)
        engine.check_options(opts)
        settings = dict(DEFAULT_SETTINGS)
        if deadline is not None:
            if not 1 <= int(deadline) <= 24 * 30:
                raise IllegalAction("The deadline must be between 1 hour and 30 days.", "Example: `deadline:48`.")
            settings["deadline_hours"] = int(deadline)
        rec = GameRecord(
            channel_id=ctx.channel_id, guild_id=ctx.guild_id, kind=engine.id, host_id=ctx.user_id,
            options=opts, seats=[SeatRecord(player=ctx.user_id, name=ctx.user_name)],
            seed=int(seed) if seed is not None else self.seed_source(), rules_version=engine.rules_version,
            created_at=self.clock(), settings=settings,
        )
        engine.check_seat(opts, [], Seat(player=ctx.user_id, name=ctx.user_name))
        async with self.lock(ctx.channel_id):
            try:
                rec = await self.storage.create_game(rec)
            except ChannelBusy:
                live = await self.storage.live_game(ctx.channel_id)
                what = get_game(live.kind).name if live else "a game"
                raise IllegalAction(f"This channel already has {what} going.",
                                    "Finish or `/game abandon` it, or start the new game in a thread.") from None
        optdesc = ", ".join(f"{k}: {v}" for k, v in opts.items())
        text = (f"{ctx.user_name} opened a game of **{engine.name}**" + (f" ({optdesc})" if optdesc else "") +
                f". Seats: {engine.min_seats}-{engine.max_seats}. Join with `/game join`"
                + self._join_hint(engine) + "; the host starts it with `/game start`.")
        return Reply(text=text, game_id=rec.id, version=rec.version,
                     thread_name=f"{engine.name} #{rec.id}" if thread is not False else None)

    @staticmethod
    def _join_hint(engine: Game) -> str:
        if not engine.seat_options:
            return ""
        return " (" + ", ".join(f"`{o.name}:`" for o in engine.seat_options) + " optional)"

    async def cmd_join(self, ctx: Context, **choices: Any) -> Reply:
        async with self.lock(ctx.channel_id):
            rec = await self._live(ctx)
            engine = get_game(rec.kind)
            if rec.status != "lobby":
                raise IllegalAction("The game has already started.", "Wait for the next game, or watch this one.")
            known = {o.name for o in engine.seat_options}
            unknown = [k for k in choices if k not in known]
            if unknown:
                raise IllegalAction(f"{engine.name} has no seat option `{unknown[0]}`.",
                                    "Seat options: " + (", ".join(sorted(known)) or "none") + ".")
            chosen = {k: _pick(spec, str(choices[k]), engine.name) for k, spec in
                      ((o.name, o) for o in engine.seat_options) if k in choices}
            seats = list(rec.seats)
            mine = [i for i, s in enumerate(seats) if s.player == ctx.user_id]
            replace = mine[-1] if mine and (not engine.multi_seat or not seats[mine[-1]].choices) else None
            others = [_s for i, _s in enumerate(_seats(rec)) if i != replace]
            if replace is None and len(seats) >= engine.max_seats:
                raise IllegalAction(f"{engine.name} seats at most {engine.max_seats}.", "The table is full.")
            new = Seat(player=ctx.user_id, name=ctx.user_name, choices=chosen)
            engine.check_seat(rec.options, others, new)
            record = SeatRecord(player=ctx.user_id, name=ctx.user_name, choices=chosen)
            if replace is None:
                seats.append(record)
                verb = "joins"
            else:
                seats[replace] = record
                verb = "is seated"
            rec = await self.storage.update_game(rec, rec.version, seats=seats)
        what = ", ".join(f"{k} {v}" for k, v in chosen.items())
        return Reply(text=f"{ctx.user_name} {verb}" + (f" ({what})" if what else "") +
                     f". Seated: {self._seat_list(rec)}.", game_id=rec.id, version=rec.version)

    @staticmethod
    def _seat_list(rec: GameRecord) -> str:
        return ", ".join(
            s.name + (f" ({', '.join(f'{k} {v}' for k, v in s.choices.items())})" if s.choices else "")
            for s in rec.seats) or "nobody"

    async def cmd_leave(self, ctx: Context) -> Reply:
        async with self.lock(ctx.channel_id):
            rec = await self._live(ctx)
            if rec.status != "lobby":
                raise IllegalAction("You cannot leave a game in progress.",
                                    "Ask the host to `/game abandon` it if it cannot go on.")
            seats = [s for s in rec.seats if s.player != ctx.user_id]
            if len(seats) == len(rec.seats):
                raise IllegalAction("You are not seated in this game.", "Join with `/game join`.")
            rec = await self.storage.update_game(rec, rec.version, seats=seats)
        return Reply(text=f"{ctx.user_name} leaves. Seated: {self._seat_list(rec)}.", game_id=rec.id,
                     version=rec.version)

    async def cmd_kick(self, ctx: Context, player: str) -> Reply:
        async with self.lock(ctx.channel_id):
            rec = await self._live(ctx)
            self._require_host(ctx, rec, "remove a player")
            if rec.status != "lobby":
                raise IllegalAction("Players can be removed only before the game starts.",
                                    "`/game abandon` ends a game that cannot go on.")
            key = player.strip().lstrip("@").casefold()
            seats = [s for s in rec.seats if s.player.casefold() != key and s.name.casefold() != key]
            if len(seats) == len(rec.seats):
                raise IllegalAction(f"`{player}` is not seated.", "Seated: " + self._seat_list(rec) + ".")
            rec = await self.storage.update_game(rec, rec.version, seats=seats)
        return Reply(text=f"{player} was removed. Seated: {self._seat_list(rec)}.", game_id=rec.id,
                     version=rec.version)

    @staticmethod
    def _require_host(ctx: Context, rec: GameRecord, what: str) -> None:
        if ctx.user_id != rec.host_id and not ctx.can_manage:
            raise IllegalAction(f"Only the game's host or someone with Manage Channel may {what}.",
                                "Ask the host.")

    async def cmd_start(self, ctx: Context) -> Reply:
        async with self.lock(ctx.channel_id):
            rec = await self._live(ctx)
            engine = get_game(rec.kind)
            if rec.status != "lobby":
                raise IllegalAction("The game has already started.", "`/game status` shows the board.")
            self._require_host(ctx, rec, "start the game")
            if not engine.min_seats <= len(rec.seats) <= engine.max_seats:
                raise IllegalAction(f"{engine.name} needs {engine.min_seats}-{engine.max_seats} seats; "
                                    f"{len(rec.seats)} taken.", "More players join with `/game join`.")
            state = engine.setup(rec.options, _seats(rec), rec.seed)
            st = engine.status(state)
            rec = await self.storage.update_game(rec, rec.version, status="active", state=engine.dump(state),
                                                 deadline_at=self._deadline(rec, st, engine, state))
            self._remember(rec, state)
        reply = await self._after_move(rec, engine, state, None, st, [])
        reply.text = f"**{engine.name}** begins! Players: {self._seat_list(rec)}.\n" + reply.text
        return reply

    async def cmd_status(self, ctx: Context) -> Reply:
        rec = await self._live(ctx)
        engine = get_game(rec.kind)
        if rec.status == "lobby":
            return Reply(text=f"**{engine.name}** lobby. Seated: {self._seat_list(rec)}. "
                              f"The host starts it with `/game start`.", game_id=rec.id, version=rec.version)
        state = self._state(rec, engine)
        st = engine.status(state)
        return Reply(text=self.status_line(rec, engine, st), image=await self.image(rec.kind, engine, state),
                     game_id=rec.id, version=rec.version, status_text=self.status_line(rec, engine, st),
                     buttons=self.buttons(engine, state, st, self.names(rec)))

    async def cmd_help(self, ctx: Context) -> Reply:
        rec = await self.storage.live_game(ctx.channel_id)
        lines = ["**playpost** hosts play-by-post games. `/game new game:<name>` opens one; players "
                 "`/game join`, the host `/game start`s. Games: " +
                 ", ".join(f"{e.name} (`{gid}`)" for gid, e in sorted(all_games().items())) + "."]
        if rec is not None and rec.status == "active":
            engine = get_game(rec.kind)
            state = self._state(rec, engine)
            cmds = ", ".join(f"`/{rec.kind} {c.name}`" for c in engine.commands)
            lines.append(f"This channel plays {engine.name}. Commands: {cmds}.")
            if ctx.user_id in self.names(rec):
                lines.append(hint_for(engine, state, ctx.user_id))
        lines.append("Rules at hand: `/rules game:<name> topic:<topic>`.")
        return Reply(text="\n".join(lines), ephemeral=True)

    async def cmd_hand(self, ctx: Context) -> Reply:
        rec = await self._live(ctx)
        if rec.status != "active" or ctx.user_id not in self.names(rec):
            raise IllegalAction("You have no private information in this game.", "Only seated players do.")
        engine = get_game(rec.kind)
        state = self._state(rec, engine)
        text = engine.private_text(state, ctx.user_id) or "Nothing is hidden from the others in this game."
        return Reply(text=text + "\n" + hint_for(engine, state, ctx.user_id), ephemeral=True)

    async def cmd_undo(self, ctx: Context) -> Reply:
        async with self.lock(ctx.channel_id):
            rec = await self._live(ctx)
            if rec.status != "active":
                raise IllegalAction("There is nothing to undo.", "The game is not running.")
            engine = get_game(rec.kind)
            state = self._state(rec, engine)
            st = engine.status(state)
            entries = await self.storage.log(rec.id)
            if not entries:
                raise IllegalAction("There is nothing to undo yet.", "No move has been made.")
            last = entries[-1]
            if last.player != ctx.user_id:
                raise IllegalAction("The last action was not yours.", "You can undo only your own actions.")
            if last.turn_key != st.turn_key:
                raise IllegalAction("Your turn has passed on; undo works only within your current turn.",
                                    hint_for(engine, state, ctx.user_id))
            if last.barrier:
                raise IllegalAction("Dice were rolled or something hidden was revealed; that cannot be undone.",
                                    hint_for(engine, state, ctx.user_id))
            cached = [u for u in self._undo.get(rec.id, []) if u[0] == last.seq]
            if cached:
                rebuilt = cached[0][2]
            else:  # after a restart: rebuild from the log (checked when it was written)
                rebuilt = replay(engine, rec.options, _seats(rec), rec.seed,
                                 [(e.player, Action.parse(e.action)) for e in entries[:-1]], trusted=True)
            after = engine.status(rebuilt)
            rec = await self.storage.mark_undone(rec, rec.version, last.seq, engine.dump(rebuilt))
            self._remember(rec, rebuilt)
            self._undo[rec.id] = [u for u in self._undo.get(rec.id, []) if u[0] != last.seq]
        reply = await self._after_move(rec, engine, rebuilt, st, after, [])
        reply.text = f"{ctx.user_name} takes back `{last.action}`.\n" + reply.text
        reply.ping = []
        return reply

    async def cmd_abandon(self, ctx: Context) -> Reply:
        async with self.lock(ctx.channel_id):
            rec = await self._live(ctx)
            self._require_host(ctx, rec, "abandon the game")
            rec = await self.storage.update_game(rec, rec.version, status="abandoned", deadline_at=None)
        return Reply(text=f"{ctx.user_name} abandoned the game of {get_game(rec.kind).name}. "
                          "It stays in `/game history`.", game_id=rec.id, version=rec.version, finished=True)

    async def cmd_log(self, ctx: Context, count: int = 15) -> Reply:
        rec = await self._live_or_last(ctx)
        entries = await self.storage.log(rec.id)
        names = self.names(rec)
        count = max(1, min(int(count), 50))
        shown = entries[-count:]
        if not shown:
            return Reply(text="No moves yet.", ephemeral=True)
        lines = [f"{e.seq}. {names.get(e.player, e.player)}: `{e.action}`" for e in shown]
        return Reply(text=f"Last {len(shown)} of {len(entries)} actions:\n" + "\n".join(lines), ephemeral=True)

    async def _live_or_last(self, ctx: Context) -> GameRecord:
        rec = await self.storage.live_game(ctx.channel_id)
        if rec is None:
            past = await self.storage.history(ctx.channel_id, 1)
            if not past:
                raise NotFound("There is no game in this channel.", "Start one with `/game new game:<name>`.")
            rec = past[0]
        return rec

    async def cmd_history(self, ctx: Context) -> Reply:
        past = await self.storage.history(ctx.channel_id, 10)
        if not past:
            return Reply(text="No finished games in this channel yet.", ephemeral=True)
        lines = []
        for rec in past:
            engine = get_game(rec.kind)
            result = rec.status
            if rec.status == "finished" and rec.state:
                result = self.status_line(rec, engine, engine.status(engine.load(rec.state)))
            players = ", ".join(s.name for s in rec.seats)
            lines.append(f"#{rec.id} {engine.name} ({players}): {result}")
        return Reply(text="\n".join(lines), ephemeral=True)

    async def cmd_settings(self, ctx: Context, deadline: int | None = None, reminder: int | None = None) -> Reply:
        async with self.lock(ctx.channel_id):
            rec = await self._live(ctx)
            self._require_host(ctx, rec, "change the settings")
            settings = {**DEFAULT_SETTINGS, **rec.settings}
            if deadline is not None:
                if not 1 <= int(deadline) <= 24 * 30:
                    raise IllegalAction("The deadline must be between 1 hour and 30 days.", "Example: `deadline:48`.")
                settings["deadline_hours"] = int(deadline)
            if reminder is not None:
                if not 1 <= int(reminder) <= 24 * 30:
                    raise IllegalAction("Reminders must be between 1 hour and 30 days apart.",
                                        "Example: `reminder:24`.")
                settings["reminder_hours"] = int(reminder)
            fields: dict[str, Any] = {"settings": settings}
            if rec.status == "active" and not settings["paused"] and deadline is not None:
                fields["deadline_at"] = self.clock() + settings["deadline_hours"] * 3600
            rec = await self.storage.update_game(rec, rec.version, **fields)
        return Reply(text=f"Turn deadline {settings['deadline_hours']} h, reminders every "
                          f"{settings['reminder_hours']} h.", game_id=rec.id, version=rec.version)

    async def cmd_pause(self, ctx: Context) -> Reply:
        return await self._set_paused(ctx, True)

    async def cmd_resume(self, ctx: Context) -> Reply:
        return await self._set_paused(ctx, False)

    async def _set_paused(self, ctx: Context, paused: bool) -> Reply:
        async with self.lock(ctx.channel_id):
            rec = await self._live(ctx)
            if ctx.user_id not in self.names(rec) and not ctx.can_manage:
                raise IllegalAction("Only seated players may pause or resume the game.", "")
            settings = {**DEFAULT_SETTINGS, **rec.settings, "paused": paused}
            deadline = None if paused or rec.status != "active" else self.clock() + settings["deadline_hours"] * 3600
            rec = await self.storage.update_game(rec, rec.version, settings=settings, deadline_at=deadline)
        if paused:
            return Reply(text=f"{ctx.user_name} paused the game: no deadlines until `/game resume`.",
                         game_id=rec.id, version=rec.version)
        return Reply(text=f"{ctx.user_name} resumed the game; the turn deadline runs again.", game_id=rec.id,
                     version=rec.version)

    # ---- export and replay ---------------------------------------------------
    async def cmd_export(self, ctx: Context) -> Reply:
        rec = await self._live_or_last(ctx)
        if rec.status == "lobby":
            raise IllegalAction("The game has not started; there is nothing to export.", "")
        entries = await self.storage.log(rec.id)
        data = self.export_data(rec, entries)
        body = json.dumps(data, indent=1, sort_keys=False).encode()
        return Reply(text=f"Game record of #{rec.id} ({len(entries)} actions).",
                     files=[Attachment(name=f"playpost-{rec.kind}-{rec.id}.json", data=body)],
                     ephemeral=rec.status == "active")

    def export_data(self, rec: GameRecord, entries: Sequence[LogEntry]) -> dict[str, Any]:
        engine = get_game(rec.kind)
        state = engine.load(rec.state) if rec.state else None
        finished = rec.status != "active"
        return {
            "format": EXPORT_FORMAT,
            "format_version": EXPORT_VERSION,
            "game": rec.kind,
            "id": rec.id,
            "status": rec.status,
            "rules_version": rec.rules_version,
            "options": rec.options,
            # the seed predicts future dice: it is shared only once the game is over
            "seed": rec.seed if finished else None,
            "seats": [s.model_dump() for s in rec.seats],
            "log": [{"seq": e.seq, "player": e.player, "action": e.action, "at": e.at} for e in entries],
            "state_sha256": hashlib.sha256(rec.state.encode()).hexdigest() if rec.state and finished else None,
            "summary": self.summary(rec, engine, state) if state is not None else None,
        }

    def summary(self, rec: GameRecord, engine: Game, state: BaseModel) -> dict[str, Any]:
        st = engine.status(state)
        names = self.names(rec)
        extra = engine.summary(state)
        out: dict[str, Any] = {
            "game": rec.kind,
            "round": st.round,
            "phase": st.phase,
            "to_act": [names.get(p, p) for p in st.to_act],
            "finished": st.finished,
            "result": None if st.result is None else {
                "winners": [names.get(p, p) for p in st.result.winners],
                "text": st.result.text,
                "scores": {names.get(p, p): v for p, v in st.result.scores.items()},
            },
        }
        out.update({k: v for k, v in extra.items() if k not in out or k == "round"})
        out.setdefault("players", [])
        return out

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
        if group in all_games():
            rec = await self.storage.live_game(ctx.channel_id)
            if rec is not None and rec.kind == group and rec.status == "active":
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
        if group != rec.kind or rec.status != "active" or ctx.user_id not in self.names(rec):
            return []
        state = self._state(rec, engine)
        try:
            partial = Action(cmd=name, args={k: str(v) for k, v in given.items() if v is not None and k != option})
        except Exception:
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


async def rebuild_all(manager: GameManager, *, write: bool) -> list[tuple[int, str]]:
    """Replay every live game's log with today's rules; report (and with write, save) changed states.

    After a rules fix, games in progress pick it up from their logs (the state row is a cache).
    A log that no longer replays is reported and left untouched.
    """
    report: list[tuple[int, str]] = []
    for rec in await manager.storage.live_games():
        if rec.status != "active" or rec.state is None:
            continue
        try:
            state = await manager.rebuild_from_log(rec)
        except PlaypostError as exc:
            report.append((rec.id, f"does not replay: {exc.reason}"))
            continue
        engine = get_game(rec.kind)
        text = engine.dump(state)
        if text == rec.state:
            report.append((rec.id, "unchanged"))
            continue
        if write:
            async with manager.lock(rec.channel_id):
                await manager.storage.update_game(rec, rec.version, state=text)
        report.append((rec.id, "rebuilt" if write else "would change"))
    return report


def replay_export(data: dict[str, Any]) -> tuple[Game, BaseModel]:
    """Rebuild the state an export describes; checks the recorded state hash when present."""
    if data.get("format") != EXPORT_FORMAT:
        raise IllegalAction("This file is not a playpost export.", "Use a file made by `/game export`.")
    if data.get("seed") is None:
        raise IllegalAction("This export has no seed (it was made while the game was running).",
                            "Export again once the game has ended.")
    engine = get_game(data["game"])
    seats = [Seat(**s) for s in data["seats"]]
    state = replay(engine, data["options"], seats, int(data["seed"]),
                   [(e["player"], Action.parse(e["action"])) for e in data["log"]])
    want = data.get("state_sha256")
    if want and hashlib.sha256(engine.dump(state).encode()).hexdigest() != want:
        raise IllegalAction("Replaying this export gives a different state than recorded.",
                            "The rules may have changed since it was made.")
    return engine, state


def command_specs() -> dict[str, Any]:
    return commands.groups()
