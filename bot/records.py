"""Game records: export, replay of an export, and rebuilding live games from their logs."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import BaseModel

from games.core import Action, Game, IllegalAction, PlaypostError, Seat, get_game
from games.core.play import replay
from games.core.words import plural
from storage import GameRecord, LogEntry

from .defaults import EXPORT_FORMAT, EXPORT_VERSION
from .reply import Attachment, Context, Reply
from .table import Table


class RecordCommands:
    """`/game export`: a game's record as JSON (the seed only once it is over)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def export(self, ctx: Context) -> Reply:
        rec = await self.table.live_or_last(ctx)
        if rec.status == "lobby":
            raise IllegalAction("The game has not started; there is nothing to export.",
                                "The host starts it with `/game start`.")
        entries = await self.table.storage.log(rec.id)
        body = await self.table.rules.run(self.export_body, rec, entries)  # the state parsed, the JSON written
        return Reply(text=f"Game record of #{rec.id} ({plural(len(entries), 'action')}).",
                     files=[Attachment(name=f"playpost-{rec.kind}-{rec.id}.json", data=body)],
                     ephemeral=rec.status == "active")

    def export_body(self, rec: GameRecord, entries: Sequence[LogEntry]) -> bytes:
        """The export file's bytes (rules work: run in a rules worker thread)."""
        return json.dumps(self.export_data(rec, entries), indent=1, sort_keys=False).encode()

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
            # the host picked the seed (`/game new seed:`): they could know every die and card in advance
            "seeded_by_host": bool(rec.meta.get("seeded_by_host")),
        }

    def summary(self, rec: GameRecord, engine: Game, state: BaseModel) -> dict[str, Any]:
        st = engine.status(state)
        names = self.table.names(rec)
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


class HasTable(Protocol):
    table: Table


async def rebuild_all(owner: Table | HasTable, *, write: bool) -> list[tuple[int, str]]:
    """Replay every live game's log with today's rules; report (and with write, save) changed states.

    After a rules fix, games in progress pick it up from their logs (the state row is a cache).
    A log that no longer replays is reported and left untouched.
    """
    table = owner if isinstance(owner, Table) else owner.table
    report: list[tuple[int, str]] = []
    for rec in await table.storage.live_games():
        if rec.status != "active" or rec.state is None:
            continue
        try:
            state = await table.rebuild_from_log(rec)
        except PlaypostError as exc:
            report.append((rec.id, f"does not replay: {exc.reason}"))
            continue
        text = await table.rules.run(get_game(rec.kind).dump, state)
        if text == rec.state:
            report.append((rec.id, "unchanged"))
            continue
        if write:
            async with table.lock(rec.channel_id):
                await table.storage.update_game(rec, rec.version, state=text)
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
