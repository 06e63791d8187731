"""The /game table commands: open, join, start, look at, pace and end a game; preview a move."""
from __future__ import annotations

import asyncio
import hashlib
from typing import Any

from pydantic import BaseModel

from games.core import Action, CommandSpec, Game, IllegalAction, PlaypostError, Rng, Seat, Status, all_games, get_game
from games.core.actions import echo
from games.core.play import hint_for, irreversible, replay_details, resolve
from games.core.words import plural, possessive, says
from storage import ChannelBusy, GameRecord, SeatRecord

from . import commands, computers, parsing
from .defaults import DEFAULT_SETTINGS, pick, seats_of
from .errors import StaleBoard
from .hand import all_controls as all_hand_controls
from .hand import controls as hand_controls
from .reply import Context, Reply
from .table import SILENT, Table, seated_player
from .undo import plan as undo_plan


def begin(engine: Game, rec: GameRecord) -> tuple[BaseModel, str, Status, str]:
    """A game's setup from its lobby: the state, what the setup decided (said once), its status and its JSON
    (rules work: run in a rules worker)."""
    state = engine.setup(rec.options, seats_of(rec), rec.seed)
    return state, engine.intro(state), engine.status(state), engine.dump(state)


def seat_counts(engine: Game, options: dict[str, str]) -> list[int]:
    """How many players these options seat: each count whose seats the game accepts and sets up (a scenario
    for 4-6, an overlord game for 2-4), the seats taking their default choices."""
    fits = []
    for n in range(engine.min_seats, engine.max_seats + 1):
        seats = [Seat(player=f"seat{i}", name=f"Seat {i}") for i in range(1, n + 1)]
        try:
            for i, seat in enumerate(seats):
                engine.check_seat(options, seats[:i], seat)
            engine.setup(options, seats, 1)
        except PlaypostError:
            continue
        fits.append(n)
    return fits


def counts_text(counts: list[int], engine: Game) -> str:
    """"2-4", "1" or "2, 4": the seat counts a lobby names (the game's own range when none was found)."""
    if not counts:
        return f"{engine.min_seats}-{engine.max_seats}"
    if counts == list(range(counts[0], counts[-1] + 1)):
        return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    return ", ".join(map(str, counts))


class TableCommands:
    def __init__(self, table: Table) -> None:
        self.table = table

    # ---- /game commands ------------------------------------------------------
    async def new(self, ctx: Context, game: str, seed: int | None = None, thread: bool | None = None,
                  deadline: int | None = None, **options: Any) -> Reply:
        engine = get_game(str(game))
        parsing.check_ints(commands.game_group()[0], {"seed": seed, "deadline": deadline, **options})
        known = {o.name: o for o in engine.options}
        unknown = [k for k in options if k not in known]
        if unknown:
            raise IllegalAction(f"{engine.name} has no option `{echo(unknown[0])}`.",
                                "Its options: " + (", ".join(known) or "none") + ".")
        opts = {k: str(v) for k, v in options.items()}
        for name, spec in known.items():
            if name not in opts and spec.default is not None:
                opts[name] = spec.default
            if name in opts:
                opts[name] = pick(spec, opts[name], engine.name)
        engine.check_options(opts)
        settings = dict(DEFAULT_SETTINGS)
        if deadline is not None:
            if not 1 <= int(deadline) <= 24 * 30:
                raise IllegalAction("The deadline must be between 1 hour and 30 days.", "Example: `deadline:48`.")
            settings["deadline_hours"] = int(deadline)
        rec = GameRecord(
            channel_id=ctx.channel_id, guild_id=ctx.guild_id, kind=engine.id, host_id=ctx.user_id,
            options=opts, seats=[SeatRecord(player=ctx.user_id, name=ctx.user_name)],
            seed=int(seed) if seed is not None else self.table.seed_source(), rules_version=engine.rules_version,
            created_at=self.table.clock(), settings=settings,
            # a seed the host picked decides every die, deck and secret: the table is told, the export marks it
            meta={"seeded_by_host": True} if seed is not None else {},
        )
        engine.check_seat(opts, [], Seat(player=ctx.user_id, name=ctx.user_name))
        async with self.table.lock(ctx.channel_id):
            try:
                rec = await self.table.storage.create_game(rec)
            except ChannelBusy:
                live = await self.table.storage.live_game(ctx.channel_id)
                what = get_game(live.kind).name if live else "a game"
                raise IllegalAction(f"This channel already has {what} going.",
                                    "Finish or `/game abandon` it, or start the new game in a thread.") from None
        optdesc = ", ".join(f"{k}: {v}" for k, v in opts.items())
        counts = await self.table.rules.run(seat_counts, engine, opts)  # setups: rules work, in a worker
        text = (f"{ctx.user_name} opened a game of **{engine.name}**" + (f" ({optdesc})" if optdesc else "") +
                f". Seats: {counts_text(counts, engine)}. Join with `/game join`"
                + self._join_hint(engine) + "; the host starts it with `/game start`.")
        if seed is not None:
            text += (f"\nThe host chose the seed ({int(seed)}): it decides every die, deck and secret, so the host "
                     "can know them in advance. Play on only if you trust the host.")
        return Reply(text=text, game_id=rec.id, version=rec.version, opened=True,
                     thread_name=f"{engine.name} #{rec.id}" if thread is not False else None)

    @staticmethod
    def _join_hint(engine: Game) -> str:
        if not engine.seat_options:
            return ""
        return " (" + ", ".join(f"`{o.name}:`" for o in engine.seat_options) + " optional)"

    async def join(self, ctx: Context, **choices: Any) -> Reply:
        async with self.table.lock(ctx.channel_id):
            rec = await self.table.live(ctx)
            engine = get_game(rec.kind)
            if rec.status != "lobby":
                raise IllegalAction("The game has already started.", "Wait for the next game, or watch this one.")
            known = {o.name for o in engine.seat_options}
            unknown = [k for k in choices if k not in known]
            if unknown:
                raise IllegalAction(f"{engine.name} has no seat option `{echo(unknown[0])}`.",
                                    "Seat options: " + (", ".join(sorted(known)) or "none") + ".")
            chosen = {k: pick(spec, str(choices[k]), engine.name) for k, spec in
                      ((o.name, o) for o in engine.seat_options) if k in choices}
            seats = list(rec.seats)
            mine = [i for i, s in enumerate(seats) if s.player == ctx.user_id]
            replace = mine[-1] if mine and (not engine.multi_seat or not seats[mine[-1]].choices) else None
            others = [_s for i, _s in enumerate(seats_of(rec)) if i != replace]
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
            rec = await self.table.storage.update_game(rec, rec.version, seats=seats)
        what = ", ".join(f"{k} {v}" for k, v in chosen.items())
        return Reply(text=says(ctx.user_name, verb) + (f" ({what})" if what else "") +
                     f". Seated: {self._seat_list(rec)}.", game_id=rec.id, version=rec.version)

    # ---- computer seats (bot/computers.py) -------------------------------------
    async def computer(self, ctx: Context, level: str | None = None, player: str | None = None,
                       hero: str | None = None) -> Reply:
        """Lobby: add a computer seat (host). Running game: the host hands a player's seat to a computer."""
        lvl = computers.level_of(level)
        rec = await self.table.live(ctx)
        self._require_host(ctx, rec, "seat a computer")
        if rec.status == "active":
            if hero:
                raise IllegalAction("A computer taking over a seat plays that seat's hero.",
                                    "`hero:` is for a computer seated in the lobby.")
            if not player:
                raise IllegalAction("The game is running: say whose seat the computer takes.",
                                    "`/game computer player:<name>` (for a player who left), or "
                                    "`/game vote kind:computer` after a missed deadline.")
            who = self._seated(rec, player)
            if who in computers.seats(rec):
                raise IllegalAction(f"A computer plays {possessive(self.table.names(rec)[who])} seat already.",
                                    "`/game takeover` gives it back to its player.")
            moved = await computers.hand_over(self.table, rec, [who], lvl)
            whose = possessive(self.table.names(rec)[who])
            said = f"{says(ctx.user_name, 'hands')} {whose} seat to a computer ({lvl})."
            if moved is None:
                return Reply(text=said + " It moves when the seat must act.", game_id=rec.id, version=rec.version)
            moved.text = f"{said}\n{moved.text}"
            return moved
        if player:
            raise IllegalAction("Before the start a computer takes a seat of its own.",
                                "`/game computer level:<level>` adds one; players join with `/game join`.")
        async with self.table.lock(ctx.channel_id):
            rec = await self.table.live(ctx)
            engine = get_game(rec.kind)
            if rec.status != "lobby":
                raise IllegalAction("The game has already started.", "Try again; `/game status` shows it.")
            if len(rec.seats) >= engine.max_seats:
                raise IllegalAction(f"{engine.name} seats at most {engine.max_seats}.", "The table is full.")
            taken = {s.player for s in rec.seats}
            n = next(i for i in range(1, engine.max_seats + 2) if f"{computers.PREFIX}{i}" not in taken)
            choices = {"hero": hero.strip()} if hero and hero.strip() else {}
            if choices and not any(o.name == "hero" for o in engine.seat_options):
                raise IllegalAction(f"{engine.name} has no heroes to choose.", "Leave `hero:` out.")
            seat = SeatRecord(player=f"{computers.PREFIX}{n}", name=f"Computer {n}", choices=choices)
            engine.check_seat(rec.options, seats_of(rec), Seat(player=seat.player, name=seat.name, choices=choices))
            rec = await self.table.storage.update_game(rec, rec.version, seats=[*rec.seats, seat])
            await self.table.storage.update_meta(rec.id, {"computers": {**computers.seats(rec), seat.player: lvl}})
        return Reply(text=f"{seat.name} ({lvl}) joins. Seated: {self._seat_list(rec)}.", game_id=rec.id,
                     version=rec.version)

    async def takeover(self, ctx: Context) -> Reply:
        """A player takes back the seat a computer played for them (between moves: computers move at once)."""
        rec = await self.table.live(ctx)
        comps = computers.seats(rec)
        if rec.status != "active" or ctx.user_id not in comps:
            raise IllegalAction("No computer plays a seat of yours.",
                                "A seat handed to a computer is taken back by its own player.")
        del comps[ctx.user_id]
        await self.table.storage.update_meta(rec.id, {"computers": comps})
        own = "their" if ctx.user_name.casefold() != "you" else "your"
        return Reply(text=f"{says(ctx.user_name, 'takes')} {own} seat back from the computer.", game_id=rec.id,
                     version=rec.version)

    def _seated(self, rec: GameRecord, player: str) -> str:
        key = player.strip().lstrip("@").casefold()
        for s in rec.seats:
            if s.player.casefold() == key or s.name.casefold() == key:
                return s.player
        raise IllegalAction(f"`{player}` is not seated.", "Seated: " + self._seat_list(rec) + ".")

    @staticmethod
    def _seat_list(rec: GameRecord) -> str:
        return ", ".join(
            s.name + (f" ({', '.join(f'{k} {v}' for k, v in s.choices.items())})" if s.choices else "")
            for s in rec.seats) or "nobody"

    async def leave(self, ctx: Context) -> Reply:
        async with self.table.lock(ctx.channel_id):
            rec = await self.table.live(ctx)
            if rec.status != "lobby":
                raise IllegalAction("You cannot leave a game in progress.",
                                    "Ask the host to `/game abandon` it if it cannot go on.")
            seats = [s for s in rec.seats if s.player != ctx.user_id]
            if len(seats) == len(rec.seats):
                raise IllegalAction("You are not seated in this game.", "Join with `/game join`.")
            rec = await self.table.storage.update_game(rec, rec.version, seats=seats)
        return Reply(text=f"{says(ctx.user_name, 'leaves')}. Seated: {self._seat_list(rec)}.", game_id=rec.id,
                     version=rec.version)

    async def kick(self, ctx: Context, player: str) -> Reply:
        async with self.table.lock(ctx.channel_id):
            rec = await self.table.live(ctx)
            self._require_host(ctx, rec, "remove a player")
            if rec.status != "lobby":
                raise IllegalAction("Players can be removed only before the game starts.",
                                    "`/game abandon` ends a game that cannot go on.")
            who = seated_player(rec, str(player))
            name = next(s.name for s in rec.seats if s.player == who)
            seats = [s for s in rec.seats if s.player != who]
            rec = await self.table.storage.update_game(rec, rec.version, seats=seats)
        return Reply(text=f"{says(name, 'was removed')}. Seated: {self._seat_list(rec)}.", game_id=rec.id,
                     version=rec.version)

    @staticmethod
    def _spec(name: str) -> CommandSpec:
        return next(c for c in commands.game_group() if c.name == name)

    @staticmethod
    def _require_host(ctx: Context, rec: GameRecord, what: str) -> None:
        if ctx.user_id != rec.host_id and not ctx.can_manage:
            raise IllegalAction(f"Only the game's host or someone with Manage Channel may {what}.",
                                "Ask the host.")

    async def start(self, ctx: Context) -> Reply:
        async with self.table.lock(ctx.channel_id):
            rec = await self.table.live(ctx)
            engine = get_game(rec.kind)
            if rec.status != "lobby":
                raise IllegalAction("The game has already started.", "`/game status` shows the board.")
            self._require_host(ctx, rec, "start the game")
            if not engine.min_seats <= len(rec.seats) <= engine.max_seats:
                raise IllegalAction(f"{engine.name} needs {engine.min_seats}-{engine.max_seats} seats; "
                                    f"{len(rec.seats)} taken.", "More players join with `/game join`.")
            state, intro, st, text = await self.table.rules.run(begin, engine, rec)
            rec = await self.table.storage.update_game(rec, rec.version, status="active", state=text,
                                                 deadline_at=self.table.deadline(rec, st, engine, state))
            self.table.remember(rec, state)
        before = st
        rec, state, st, events = await computers.follow(self.table, rec, engine, state, st)
        reply = computers.quiet(rec, await self.table.after_move(rec, engine, state, None if not events else before,
                                                                 st, events))
        reply.text = f"**{engine.name}** begins! Players: {self._seat_list(rec)}.\n" + (f"{intro}\n" if intro else "") \
            + reply.text
        return reply

    async def status(self, ctx: Context) -> Reply:
        rec = await self.table.live_or_last(ctx)  # after the end: the last game's final board and result
        engine = get_game(rec.kind)
        if rec.status == "lobby":
            return Reply(text=f"**{engine.name}** lobby. Seated: {self._seat_list(rec)}. "
                              f"The host starts it with `/game start`.", game_id=rec.id, version=rec.version)
        after = "No game is running in this channel: `/game new` starts one; `/game history` lists the past ones."
        if rec.state is None or rec.status == "abandoned":
            return Reply(text=f"The last game here, **{engine.name}**, was abandoned. {after}", ephemeral=True)
        state = await self.table.load(rec, engine)
        if rec.status != "active":  # finished: how it ended, on its last board; nothing to press
            line = self.table.status_line(rec, engine, engine.status(state))
            return Reply(text=f"The last game here: {engine.name}. {line}\n{after}",
                         image=await self.table.image(rec.kind, engine, state), game_id=rec.id, ephemeral=True)
        st = engine.status(state)
        line = self.table.status_line(rec, engine, st)
        buttons, menus = self.table.controls(engine, state, st, self.table.names(rec))
        return Reply(text=line, image=await self.table.image(rec.kind, engine, state), game_id=rec.id,
                     version=rec.version, status_text=line, buttons=buttons, menus=menus,
                     hand_controls=all_hand_controls(engine, state, st))

    async def help(self, ctx: Context) -> Reply:
        rec = await self.table.storage.live_game(ctx.channel_id)
        lines = ["**playpost** hosts play-by-post games. `/game new game:<name>` opens one; players "
                 "`/game join`, the host `/game start`s. Games: " +
                 ", ".join(f"{e.name} (`{gid}`)" for gid, e in sorted(all_games().items())) + "."]
        if rec is not None and rec.status == "active":
            engine = get_game(rec.kind)
            state = await self.table.load(rec, engine)
            cmds = ", ".join(f"`/{rec.kind} {c.name}`" for c in commands.game_commands(engine))
            lines.append(f"This channel plays {engine.name}. Commands: {cmds}.")
            if ctx.user_id in self.table.names(rec):
                lines.append(hint_for(engine, state, ctx.user_id))
        lines.append("Rules at hand: `/rules game:<name> topic:<topic>`.")
        return Reply(text="\n".join(lines), ephemeral=True)

    async def hand(self, ctx: Context, version: int | None = None) -> Reply:
        """What only the caller may see, with the buttons of the moves that name it (bot/hand.py). `version`: the
        board a "Your hand" button sat under; an older one is refused as out of date."""
        rec = await self.table.live(ctx)
        if version is not None and rec.version != int(version):
            raise StaleBoard("This board is out of date.",
                             "Use the buttons under the newest board, or `/game status` to see it.")
        if ctx.user_id not in self.table.names(rec):
            raise IllegalAction("You have no private information in this game.", "Only seated players do.")
        if rec.status != "active":
            raise IllegalAction("The game has not started: nobody holds anything yet.",
                                "The host starts it with `/game start`; then `/game hand` shows what only you see.")
        engine = get_game(rec.kind)
        state = await self.table.load(rec, engine)
        text = engine.private_text(state, ctx.user_id) or "Nothing is hidden from the others in this game."
        controls = await self.table.rules.run(hand_controls, engine, state, ctx.user_id)
        return Reply(text=text + "\n" + hint_for(engine, state, ctx.user_id), ephemeral=True, version=rec.version,
                     hand_controls={ctx.user_id: controls} if controls[0] or controls[1] else {})

    async def undo(self, ctx: Context) -> Reply:
        async with self.table.lock(ctx.channel_id):
            rec = await self.table.live(ctx)
            if rec.status != "active":
                raise IllegalAction("There is nothing to undo.", "The game is not running.")
            engine = get_game(rec.kind)
            state = await self.table.load(rec, engine)
            entries = await self.table.storage.log(rec.id)
            kept = list(self.table.undo_states.get(rec.id, []))
            # checks, the state before and its JSON (a replay of the log when the turn's states are not kept)
            undo = await self.table.rules.run(undo_plan, rec, engine, state, entries, kept, ctx.user_id)
            taken = f"`{undo.last.action}`"
            for entry, before in reversed(undo.tail):
                rec = await self.table.storage.mark_undone(rec, rec.version, entry.seq, before)
            if undo.tail:
                followed = ", ".join(f"`{entry.action}`" for entry, _ in undo.tail)
                taken += f" (and {followed}, which followed by {'itself' if len(undo.tail) == 1 else 'themselves'})"
            rec = await self.table.storage.mark_undone(rec, rec.version, undo.last.seq, undo.rebuilt_text)
            self.table.remember(rec, undo.rebuilt)
            self.table.undo_states[rec.id] = [u for u in kept if u[0] != undo.last.seq]
        reply = await self.table.after_move(rec, engine, undo.rebuilt, undo.status, undo.after, [], mover=ctx.user_id)
        reply.text = f"{says(ctx.user_name, 'takes back')} {taken}.\n" + reply.text
        reply.ping = []
        return reply

    async def abandon(self, ctx: Context) -> Reply:
        async with self.table.lock(ctx.channel_id):
            rec = await self.table.live(ctx)
            self._require_host(ctx, rec, "abandon the game")
            rec = await self.table.storage.update_game(rec, rec.version, status="abandoned", deadline_at=None)
        return Reply(text=f"{ctx.user_name} abandoned the game of {get_game(rec.kind).name}. "
                          "It stays in `/game history`.", game_id=rec.id, version=rec.version, finished=True)

    async def log(self, ctx: Context, count: int = 15) -> Reply:
        parsing.check_ints(self._spec("log"), {"count": count})
        rec = await self.table.live_or_last(ctx)
        entries = await self.table.storage.log(rec.id)
        names = self.table.names(rec)
        count = int(count)
        shown = entries[-count:]
        hidden = {i for i, e in enumerate(shown) if e.said == SILENT and e.player != ctx.user_id}  # others' private
        if not shown:
            return Reply(text="No moves yet.", ephemeral=True)
        since = len(entries) - len(shown)
        # numbered by place in the game (the stored sequence also counts undone moves: "last 5 of 48" read 47-51)
        lines = [f"{since + i + 1}. {names.get(e.player, e.player)}: " + ("(a private setting)" if i in hidden
                                                                          else f"`{e.action}`")
                 for i, e in enumerate(shown)]
        engine = get_game(rec.kind)
        if engine.logs_details:  # the full account of what the table read in brief
            details = await asyncio.to_thread(replay_details, engine, rec.options, seats_of(rec), rec.seed,
                                              [(e.player, Action.parse(e.action)) for e in entries], since)
            told = ["" if i in hidden else details.get(since + i, "") for i in range(len(lines))]
            lines = [line + "".join(f"\n    {d}" for d in told[i].splitlines()) for i, line in enumerate(lines)]
        return Reply(text=f"Last {len(shown)} of {plural(len(entries), 'action')}:\n" + "\n".join(lines),
                     ephemeral=True)

    async def history(self, ctx: Context) -> Reply:
        past = await self.table.storage.history(ctx.channel_id, 10)
        if not past:
            return Reply(text="No finished games in this channel yet.", ephemeral=True)
        return Reply(text="\n".join(await self.table.rules.run(self._history_lines, past)), ephemeral=True)

    def _history_lines(self, past: list[GameRecord]) -> list[str]:
        """A line for each game: its players and how it ended (the finished ones' states parsed: rules work)."""
        lines = []
        for rec in past:
            engine = get_game(rec.kind)
            result: str = rec.status
            if rec.status == "finished" and rec.state:
                result = self.table.status_line(rec, engine, engine.status(engine.load(rec.state)))
            players = ", ".join(s.name for s in rec.seats)
            lines.append(f"#{rec.id} {engine.name} ({players}): {result}")
        return lines

    async def settings(self, ctx: Context, deadline: int | None = None, reminder: int | None = None) -> Reply:
        parsing.check_ints(self._spec("settings"), {"deadline": deadline, "reminder": reminder})
        async with self.table.lock(ctx.channel_id):
            rec = await self.table.live(ctx)
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
                fields["deadline_at"] = self.table.clock() + settings["deadline_hours"] * 3600
            rec = await self.table.storage.update_game(rec, rec.version, **fields)
        return Reply(text=f"Turn deadline {settings['deadline_hours']} h, reminders every "
                          f"{settings['reminder_hours']} h.", game_id=rec.id, version=rec.version)

    async def pause(self, ctx: Context) -> Reply:
        return await self._set_paused(ctx, True)

    async def resume(self, ctx: Context) -> Reply:
        return await self._set_paused(ctx, False)

    async def _set_paused(self, ctx: Context, paused: bool) -> Reply:
        async with self.table.lock(ctx.channel_id):
            rec = await self.table.live(ctx)
            if ctx.user_id not in self.table.names(rec) and not ctx.can_manage:
                raise IllegalAction("Only seated players may pause or resume the game.",
                                    "Ask one of them, or someone with Manage Channel.")
            if bool({**DEFAULT_SETTINGS, **rec.settings}["paused"]) == paused:  # nothing changes (a resume of a
                # running game would also have given the turn a fresh deadline)
                raise IllegalAction("The game is already paused." if paused else "The game is not paused.",
                                    "`/game resume` starts the clock again." if paused else
                                    "`/game pause` stops the clock (no deadlines) until someone resumes.")
            settings = {**DEFAULT_SETTINGS, **rec.settings, "paused": paused}
            running = not paused and rec.status == "active"
            deadline = self.table.clock() + settings["deadline_hours"] * 3600 if running else None
            rec = await self.table.storage.update_game(rec, rec.version, settings=settings, deadline_at=deadline)
        if paused:
            return Reply(text=f"{ctx.user_name} paused the game: no deadlines until `/game resume`.",
                         game_id=rec.id, version=rec.version)
        return Reply(text=f"{ctx.user_name} resumed the game; the turn deadline runs again.", game_id=rec.id,
                     version=rec.version)

    # ---- /game preview, /<game> preview --------------------------------------
    async def preview(self, ctx: Context, action: str) -> Reply:
        """`/game preview action:`: a preview in whatever game this channel plays."""
        return await self.preview_in(ctx, None, str(action))

    async def preview_in(self, ctx: Context, kind: str | None, action_text: str) -> Reply:
        """Where an action would take you: an image only you see; the stored game is untouched."""
        rec = await self.table.live(ctx)
        if (kind is not None and rec.kind != kind) or rec.status != "active":
            raise IllegalAction("There is no running game of that kind here.",
                                "`/game status` shows this channel's game.")
        engine = get_game(rec.kind)
        state = await self.table.load(rec, engine)
        written = Action.parse(action_text)
        if written.cmd == "preview":
            raise IllegalAction("A preview of a preview shows nothing new.",
                                "Preview a move, e.g. `tumble direction:N`.")
        no_previews = IllegalAction(f"{engine.name} has no previews.",
                                    "Make the move, and `/game undo` takes it back within your turn.")
        if not commands.previews(engine):
            raise no_previews
        action = resolve(engine, state, ctx.user_id, written)
        # the game previews on what this player may know: hidden parts re-sampled, the dice from a generator
        # seeded by public facts only (so the same preview reads the same, and tells nothing of the real seed)
        public = hashlib.sha256(f"{rec.id}:{rec.version}:{ctx.user_id}:{action.text()}".encode()).digest()
        known = engine.redact(state, ctx.user_id, Rng(seed=int.from_bytes(public[:8], "big") >> 1))
        result = engine.preview(known, ctx.user_id, action)
        if result is None:
            raise no_previews
        seen, events = result
        text = "\n".join(e.text for e in events if e.to is None or ctx.user_id in e.to)
        # a preview that rolled or drew says so: what it shows of dice and hidden things is a sample, not the game's
        dice = "; dice and hidden cards are stand-ins" if irreversible(engine, known, seen, events) else ""
        return Reply(text=f"Preview of `{action.text()}` (nothing has changed{dice}):\n{text}".strip(),
                     image=await self.table.image(rec.kind, engine, seen), ephemeral=True)
