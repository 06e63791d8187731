"""Table rules that are not moves: the vote after a missed deadline, and the rematch.

`/game vote kind:skip|end|computer`: once a turn deadline has passed, the seated players who are not
being waited for vote; more than half of them carries it. `computer` hands the late players' seats to
computers (level normal; each takes its seat back with `/game takeover`). Computer seats answer a
vote at once: they side with the player who called it. The ballot lives in the game's meta (written
with `storage.update_meta`, which leaves the version alone, so the late player's buttons keep
working until the vote carries). `/game rematch`: the finished game again, same seats and options,
a new seed, started at once. Buttons dispatch these commands with `Context.game_id` set to the game
they were posted for.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from games.core import IllegalAction, PlaypostError, get_game
from games.core.actions import echo
from games.core.words import possessive
from storage import GameRecord

from . import computers
from .errors import VOTE_OVERTAKEN, guarded
from .reply import Context, Reply
from .table import Table
from .table_commands import TableCommands

log = logging.getLogger("playpost.manager")


class VoteCommands:
    """Given the table core and the lobby commands a rematch and an ended game go through."""

    def __init__(self, table: Table, lobby: TableCommands) -> None:
        self.table = table
        self.lobby = lobby

    async def _target(self, ctx: Context) -> GameRecord | None:
        """The game a command addresses: the one its button was made for, else this channel's latest."""
        if ctx.game_id is not None:
            return await self.table.storage.get_game(ctx.game_id)
        return await self.table.live_or_last(ctx)

    # ---- /game vote ----------------------------------------------------------
    async def vote(self, ctx: Context, kind: str) -> Reply:
        kind = str(kind).casefold()
        if kind not in ("skip", "end", "computer"):
            raise IllegalAction(f"`{echo(kind)}` is not a vote.", "Vote with `kind:skip` (the late turn), "
                                "`kind:computer` (a computer plays the late seat) or `kind:end`.")
        rec = _running(await self._target(ctx))
        async with self.table.lock(f"vote:{rec.id}"):
            # the ballot as it stands once the vote lock is held
            return await self._count_vote(ctx, await self.table.storage.get_game(rec.id), kind)

    async def _count_vote(self, ctx: Context, rec: GameRecord | None, kind: str) -> Reply:
        """Count one vote; carry it when it makes a majority."""
        rec = _running(rec)
        if rec.deadline_at is None or rec.deadline_at > self.table.clock():
            raise IllegalAction("The turn deadline has not passed; there is nothing to vote on.",
                                "Votes open once it has; `/game status` shows it.")
        engine = get_game(rec.kind)
        state = await self.table.load(rec, engine)
        late = list(engine.status(state).to_act)
        voters = sorted({s.player for s in rec.seats} - set(late))
        what = {"end": "ending the game", "skip": "skipping the turn",
                "computer": "handing the late seat to a computer"}[kind]
        if ctx.user_id not in voters:
            raise IllegalAction(f"Only the other seated players vote on {what}.",
                                "The player the game waits for can still move; `/game help` shows how.")
        if kind == "skip" and not any(engine.skip_action(state, p) is not None for p in late):
            raise IllegalAction(f"This move cannot be skipped in {engine.name}; "
                                "the vote to end the game is still open.", "Vote with `kind:end` instead.")
        key = f"{kind}_votes"
        ballot = rec.meta.get(key) or {}
        votes = set(ballot.get("voters", [])) if ballot.get("deadline") == rec.deadline_at else set()
        if ctx.user_id in votes:
            raise IllegalAction("Your vote is counted already.", "It carries once more than half of you have voted.")
        votes.add(ctx.user_id)
        votes |= set(voters) & set(computers.seats(rec))  # computers answer at once: with the caller
        need = len(voters) // 2 + 1
        if len(votes) < need:
            # meta only: the version stays, so the late player's buttons keep working
            await self.table.storage.update_meta(rec.id, {key: {"deadline": rec.deadline_at, "voters": sorted(votes)}})
            log.info("event=vote game=%s kind=%s votes=%d need=%d", rec.id, kind, len(votes), need)
            return Reply(text=f"Vote counted: {len(votes)} of the {need} needed for {what}.", ephemeral=True)
        log.info("event=vote_carried game=%s kind=%s votes=%d", rec.id, kind, len(votes))
        await ctx.acknowledge()  # carrying it applies a move or ends the game: the slow part
        if kind == "skip":
            return await self._skip_late_players(rec, late)
        if kind == "computer":
            return await self._computers_take_over(rec, late)
        # the vote carries the authority to end it
        ender = replace(ctx, channel_id=rec.channel_id, guild_id=rec.guild_id, can_manage=True, game_id=None)
        reply = await self.lobby.abandon(ender)
        reply.text = f"The other players voted to end the game after the missed deadline.\n{reply.text}"
        reply.replay_due = True  # the game is over as surely as by a last move: its replay follows
        return reply

    async def _computers_take_over(self, rec: GameRecord, late: list[str]) -> Reply:
        """The late players' seats go to computers, which move at once."""
        names = ", ".join(self.table.names(rec).get(p, p) for p in late)
        said = f"The other players voted to hand {possessive(names)} seat to a computer ({computers.DEFAULT_LEVEL})."
        moved = await computers.hand_over(self.table, rec, late, computers.DEFAULT_LEVEL)
        if moved is None:
            return Reply(text=said, game_id=rec.id, version=rec.version)
        moved.text = f"{said}\n{moved.text}"
        return moved

    async def _skip_late_players(self, rec: GameRecord, late: list[str]) -> Reply:
        """Apply the game's skip action for each player who kept the game waiting, while they still must act."""
        done: list[Reply] = []
        for player in late:
            current = await self.table.storage.get_game(rec.id)
            if current is None or current.status != "active" or current.state is None:
                break
            if done and player not in get_game(current.kind).status(
                    await self.table.load(current, get_game(current.kind))).to_act:
                continue
            if not done and current.version != rec.version:
                return Reply.error("The game moved on before the vote was counted; nothing was skipped.",
                                   "`/game status` shows the current board.")
            reply = await guarded(self.table.skip(current, player), VOTE_OVERTAKEN)
            if reply.ephemeral:
                if done:
                    continue
                return reply
            done.append(reply)
            if reply.finished:
                break
        if not done:
            return Reply.error("Nobody could be skipped.", "The vote to end the game is still open.")
        last = done[-1]
        earlier = [r.text.split("\n", 1)[0] for r in done[:-1]]
        last.text = "\n".join([*earlier, last.text])
        return last

    # ---- /game rematch -------------------------------------------------------
    async def rematch(self, ctx: Context) -> Reply:
        """Open the old game's kind with its options, seat its players with their choices, start it."""
        old = await self._target(ctx)
        if old is None or ctx.user_id not in {s.player for s in old.seats}:
            raise IllegalAction("Only the players of that game can call a rematch.",
                                "Anyone may open a new one with `/game new`.")
        if old.status != "finished":
            raise IllegalAction("Only a finished game can be played again.", "`/game new` opens a new one.")
        await ctx.acknowledge()
        host = replace(ctx, channel_id=old.channel_id, game_id=None)
        again: dict[str, Any] = {"game": old.kind, "thread": False, **old.options}
        opened = await self.lobby.new(host, **again)
        host_seated = False
        comps = computers.seats(old)
        for seat in old.seats:
            if seat.player.startswith(computers.PREFIX) and seat.player in comps:
                await self.lobby.computer(host, level=comps[seat.player])  # a computer seat comes back as one
                continue
            if seat.player == host.user_id and not host_seated:
                host_seated = True
                if not seat.choices:
                    continue  # `/game new` seated the host already
            them = Context(channel_id=old.channel_id, user_id=seat.player, user_name=seat.name,
                           guild_id=host.guild_id)
            try:
                await self.lobby.join(them, **seat.choices)
            except PlaypostError as exc:
                why = Reply.error(exc.reason, exc.hint).text
                return Reply(text=f"Rematch lobby opened, but {seat.name} could not be seated again: {why}",
                             game_id=opened.game_id, opened=True)
        started = await self.lobby.start(host)
        started.text = f"Rematch called by {host.user_name}.\n{started.text}"
        started.opened = True
        return started


def _running(rec: GameRecord | None) -> GameRecord:
    """The game, if it is running; else why a vote is refused."""
    if rec is not None and rec.status == "lobby":
        raise IllegalAction("The game has not started yet.", "Votes are for a running game whose deadline has passed.")
    if rec is None or rec.status != "active" or rec.state is None:
        raise IllegalAction("That game is not running any more.",
                            "`/game history` lists it; `/game new` starts another.")
    return rec
