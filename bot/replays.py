"""Animated replays (issue 18): `/game replay`, and the records `playpost replay FILE --gif OUT` draws.

The drawing is `render.replay` (CPU-bound: the bot runs it in its render pool, never on the event
loop); here a game's record comes from storage or an export file (bot/cli.py plays transcripts).
"""
from __future__ import annotations

import logging
from typing import Any

from games.core import Action, IllegalAction, Seat, get_game
from render.replay import replay_record
from storage import GameRecord, LogEntry

from .defaults import seats_of
from .records import replay_export
from .reply import Attachment, Context, Reply
from .table import Table

log = logging.getLogger(__name__)
MAX_BYTES = 10 * 1024 * 1024  # Discord's upload limit


def record_gif(rec: GameRecord, entries: list[LogEntry]) -> bytes:
    """The animated replay of a stored game (its log without undone moves)."""
    log = [(e.player, Action.parse(e.action)) for e in entries if not e.undone]
    return replay_record(get_game(rec.kind), rec.options, seats_of(rec), rec.seed, log)


def export_gif(data: dict[str, Any]) -> bytes:
    """The animated replay of a `/game export` file (checked against its recorded state first)."""
    replay_export(data)
    seats = [Seat(**s) for s in data["seats"]]
    log = [(e["player"], Action.parse(e["action"])) for e in data["log"]]
    return replay_record(get_game(data["game"]), data["options"], seats, int(data["seed"]), log)


class ReplayCommands:
    """`/game replay`: this channel's finished game (or its latest one) as an animated image."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def replay(self, ctx: Context) -> Reply:
        return await game_replay(self.table, await self.table.live_or_last(ctx))


async def end_replay(table: Table, game_id: int) -> Reply | None:
    """The replay posted in the game's channel once a move, a deadline's answer or a vote ends it: the
    `/game replay` reply, or None when there is none to post (images off, over the upload limit: said in the
    log; an ended game without a move)."""
    rec = await table.storage.get_game(game_id)
    if rec is None or rec.status not in ("finished", "abandoned"):
        return None
    if rec.status == "abandoned" and not await table.storage.log(rec.id):
        return None  # ended before anyone moved: nothing to replay
    reply = await game_replay(table, rec)
    if reply.ephemeral or not reply.files:
        log.info("event=end_replay_skipped game=%s why=%r", game_id, reply.text)
        return None
    return reply


async def game_replay(table: Table, rec: GameRecord) -> Reply:
    """`/game replay`: the animated replay of this channel's finished game, drawn in the render pool."""
    if rec.status in ("lobby", "active"):
        raise IllegalAction("A replay is drawn once the game is over.",
                            "`/game status` shows the board now; `/game log` the latest moves.")
    entries = await table.storage.log(rec.id)
    if not table.render_enabled:
        return Reply(text=f"Images are off on this bot: no replay of game #{rec.id}.", ephemeral=True)
    gif = await table.render.run(record_gif, rec, entries)
    if len(gif) > MAX_BYTES:
        return Reply(text=f"The replay of game #{rec.id} is {len(gif) / 1e6:.1f} MB, over Discord's upload limit.",
                     ephemeral=True)
    engine = get_game(rec.kind)
    result = ""
    if rec.state:
        st = engine.status(await table.load(rec, engine))
        result = f" {st.result.text}" if st.result and st.result.text else ""
    if rec.status == "abandoned":
        result = " The game was ended before its result."
    return Reply(text=f"Replay of {engine.name} game #{rec.id}, one frame per turn.{result}",
                 files=[Attachment(name=f"playpost-{rec.kind}-{rec.id}-replay.gif", data=gif)])
