"""`playpost migrate-db FROM TO`: copy every game and its action log to another database (SQLite <-> PostgreSQL).

Games keep their ids (buttons, votes and links name games by id) and every field as stored. Each
copied game is then read back from the target and checked: the record and the log are the same as
the source's, and replaying the log from the seed gives the stored state (the log is the record;
the state row is a cache). Stop the bot processes first: moves made during the copy would not be in it.
"""
from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field

from games.core import Action, PlaypostError, get_game
from games.core.play import replay
from storage import GameRecord, LogEntry, Storage, open_storage

from .defaults import seats_of

BATCH = 200  # games per transaction on the target


class MigrationError(Exception):
    """The copy is not faithful, or the target is not empty: the target must not be used as it is."""


@dataclass
class MigrationReport:
    games: int = 0
    actions: int = 0
    replayed: int = 0  # games whose log replays to their stored state
    not_replaying: list[tuple[int, str]] = field(default_factory=list)  # (id, why): as in the source, copied as is


async def _replays(rec: GameRecord, log: list[LogEntry]) -> str | None:
    """Why replaying the log does not give the stored state (None when it does)."""
    engine = get_game(rec.kind)
    try:
        state = await asyncio.to_thread(replay, engine, rec.options, seats_of(rec), rec.seed,
                                        [(e.player, Action.parse(e.action)) for e in log if not e.undone])
    except PlaypostError as exc:
        return f"does not replay: {exc.reason}"
    if engine.dump(state) != rec.state:
        return "replays to a different state (the rules changed since it was played)"
    return None


async def migrate(source: Storage, target: Storage, *, batch: int = BATCH) -> MigrationReport:
    """Copy all games of `source` into the empty `target` and verify each; MigrationError if a copy differs."""
    if await target.games_page(0, 1):
        raise MigrationError("The target database already has games; migrate into an empty one.")
    report = MigrationReport()
    after = 0
    while page := await source.games_page(after, batch):
        games = [(rec, await source.log(rec.id, include_undone=True)) for rec in page]
        await target.copy_games(games)
        for rec, log in games:
            copied = await target.get_game(rec.id)
            copied_log = await target.log(rec.id, include_undone=True)
            if copied is None or copied.model_dump() != rec.model_dump():
                raise MigrationError(f"game {rec.id} reads back differently from the target")
            if copied_log != log:
                raise MigrationError(f"game {rec.id}'s log reads back differently from the target")
            report.games += 1
            report.actions += len(log)
            if copied.state is None:
                continue  # a lobby: nothing played yet
            why = await _replays(copied, copied_log)
            if why is None:
                report.replayed += 1
            else:
                report.not_replaying.append((rec.id, why))
        after = page[-1].id
    return report


async def migrate_main(source_url: str, target_url: str) -> int:
    if source_url == target_url:
        print("playpost migrate-db: the source and the target are the same database", file=sys.stderr)
        return 2
    source = await open_storage(source_url)
    try:
        target = await open_storage(target_url)
        try:
            report = await migrate(source, target)
        finally:
            await target.close()
    except MigrationError as exc:
        print(f"playpost migrate-db: {exc}", file=sys.stderr)
        return 1
    finally:
        await source.close()
    print(f"Copied {report.games} games and {report.actions} logged actions; {report.replayed} games replayed "
          "from their logs to exactly their stored state.")
    for game_id, why in report.not_replaying:
        print(f"game {game_id}: {why}; copied unchanged, as it is in the source.")
    return 0
