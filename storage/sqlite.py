"""SQLite storage: aiosqlite (its own thread, off the event loop), WAL, numbered migrations."""
from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from .base import LIVE, ChannelBusy, ClaimResult, GameRecord, LogEntry, SeatRecord, StaleVersion, Storage

MIGRATIONS: list[str] = [
    # 1: games (lobby/active/archive) and the append-only action log
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id TEXT NOT NULL,
        guild_id TEXT,
        kind TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        host_id TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seats TEXT NOT NULL DEFAULT '[]',
        seed INTEGER NOT NULL,
        rules_version INTEGER NOT NULL DEFAULT 1,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        deadline_at REAL,
        settings TEXT NOT NULL DEFAULT '{}',
        meta TEXT NOT NULL DEFAULT '{}'
    );
    CREATE UNIQUE INDEX games_one_live_per_channel ON games(channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX games_by_channel ON games(channel_id, id);
    CREATE INDEX games_by_deadline ON games(deadline_at) WHERE status = 'active';
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        player TEXT NOT NULL,
        action TEXT NOT NULL,
        turn_key TEXT NOT NULL DEFAULT '',
        barrier INTEGER NOT NULL DEFAULT 0,
        at REAL NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seq)
    );
    """,
    # 2: timed work (reminders, expiries, scheduled jobs) claimed by one process at a time, with a lease
    """
    CREATE TABLE claims (
        key TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        lease_until REAL NOT NULL,
        takeovers INTEGER NOT NULL DEFAULT 0,
        done_at REAL
    );
    CREATE INDEX claims_done ON claims(done_at) WHERE done_at IS NOT NULL;
    """,
]

_JSON_FIELDS = {"options", "settings", "meta"}
_COLUMNS = (
    "id channel_id guild_id kind status host_id options seats seed rules_version state version "
    "created_at updated_at deadline_at settings meta"
).split()


def _row_to_record(row: aiosqlite.Row) -> GameRecord:
    d = dict(zip(_COLUMNS, row, strict=True))
    for k in _JSON_FIELDS:
        d[k] = json.loads(d[k])
    d["seats"] = [SeatRecord(**s) for s in json.loads(d["seats"])]
    return GameRecord(**d)


def _encode(field: str, value: Any) -> Any:
    if field == "seats":
        return json.dumps([s.model_dump() if hasattr(s, "model_dump") else s for s in value])
    if field in _JSON_FIELDS:
        return json.dumps(value, sort_keys=True)
    return value


class SQLiteStorage(Storage):
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        self._write = asyncio.Lock()  # one connection, one writer: transactions never interleave

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        await self.db.execute("PRAGMA journal_mode=WAL")
        await self.db.execute("PRAGMA synchronous=NORMAL")
        await self.db.execute("PRAGMA foreign_keys=ON")
        await self.db.execute("PRAGMA busy_timeout=5000")
        await self._migrate()

    async def _migrate(self) -> None:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = row[0] if row else 0
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for stmt in (s.strip() for s in script.split(";")):
                    if stmt:
                        await self.db.execute(stmt)
                await self.db.execute(f"PRAGMA user_version = {number}")
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    # ---- games ------------------------------------------------------------
    async def create_game(self, rec: GameRecord) -> GameRecord:
        now = rec.created_at or time.time()
        rec = rec.model_copy(update={"created_at": now, "updated_at": now})
        values = {c: _encode(c, getattr(rec, c)) for c in _COLUMNS if c != "id"}
        cols = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        async with self._write:
            try:
                cur = await self.db.execute(f"INSERT INTO games ({cols}) VALUES ({marks})", tuple(values.values()))
            except aiosqlite.IntegrityError as exc:
                raise ChannelBusy("This channel already has a game.") from exc
        return rec.model_copy(update={"id": cur.lastrowid})

    async def import_games(self, games: Sequence[tuple[GameRecord, Sequence[LogEntry]]]) -> list[GameRecord]:
        cols = [c for c in _COLUMNS if c != "id"]
        insert = f"INSERT INTO games ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})"
        out: list[GameRecord] = []
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for rec, log in games:
                    try:
                        cur = await self.db.execute(insert, tuple(_encode(c, getattr(rec, c)) for c in cols))
                    except aiosqlite.IntegrityError as exc:
                        raise ChannelBusy("This channel already has a game.") from exc
                    game_id = cur.lastrowid
                    await self.db.executemany(
                        "INSERT INTO actions (game_id, seq, player, action, turn_key, barrier, at, undone)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [(game_id, e.seq, e.player, e.action, e.turn_key, int(e.barrier), e.at, int(e.undone))
                         for e in log],
                    )
                    out.append(rec.model_copy(update={"id": game_id}))
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")
        return out

    async def _one(self, sql: str, args: tuple[Any, ...]) -> GameRecord | None:
        async with self.db.execute(f"SELECT {', '.join(_COLUMNS)} FROM games WHERE {sql}", args) as cur:
            row = await cur.fetchone()
        return _row_to_record(row) if row else None

    async def live_game(self, channel_id: str) -> GameRecord | None:
        return await self._one("channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

    async def get_game(self, game_id: int) -> GameRecord | None:
        return await self._one("id = ?", (game_id,))

    async def _guarded_update(self, rec: GameRecord, expected_version: int, fields: dict[str, Any]) -> GameRecord:
        fields = dict(fields)
        fields.setdefault("updated_at", time.time())
        fields["version"] = expected_version + 1
        sets = ", ".join(f"{k} = ?" for k in fields)
        args = tuple(_encode(k, v) for k, v in fields.items())
        try:
            cur = await self.db.execute(
                f"UPDATE games SET {sets} WHERE id = ? AND version = ?", args + (rec.id, expected_version)
            )
        except aiosqlite.IntegrityError as exc:
            raise ChannelBusy("This channel already has a game.") from exc
        if cur.rowcount != 1:
            raise StaleVersion("The game changed while this command was being handled.")
        return rec.model_copy(update=fields)

    async def update_game(self, rec: GameRecord, expected_version: int, **fields: Any) -> GameRecord:
        async with self._write:
            return await self._update_game(rec, expected_version, fields)

    async def _update_game(self, rec: GameRecord, expected_version: int, fields: dict[str, Any]) -> GameRecord:
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            out = await self._guarded_update(rec, expected_version, fields)
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        await self.db.execute("COMMIT")
        return out

    async def update_meta(self, game_id: int, patch: dict[str, Any]) -> dict[str, Any]:
        async with self._write:
            async with self.db.execute("SELECT meta FROM games WHERE id = ?", (game_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                raise StaleVersion("No such game.")
            meta = {**json.loads(row[0]), **patch}
            await self.db.execute("UPDATE games SET meta = ? WHERE id = ?", (json.dumps(meta, sort_keys=True), game_id))
        return meta

    async def append_action(
        self, rec: GameRecord, expected_version: int, entry: LogEntry, state: str, **fields: Any
    ) -> GameRecord:
        async with self._write:
            return await self._append_action(rec, expected_version, entry, state, fields)

    async def _append_action(
        self, rec: GameRecord, expected_version: int, entry: LogEntry, state: str, fields: dict[str, Any]
    ) -> GameRecord:
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            out = await self._guarded_update(rec, expected_version, {"state": state, **fields})
            await self.db.execute(
                "INSERT INTO actions (game_id, seq, player, action, turn_key, barrier, at, undone)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
                (rec.id, entry.seq, entry.player, entry.action, entry.turn_key, int(entry.barrier), entry.at),
            )
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        await self.db.execute("COMMIT")
        return out

    async def mark_undone(self, rec: GameRecord, expected_version: int, seq: int, state: str) -> GameRecord:
        async with self._write:
            return await self._mark_undone(rec, expected_version, seq, state)

    async def _mark_undone(self, rec: GameRecord, expected_version: int, seq: int, state: str) -> GameRecord:
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            out = await self._guarded_update(rec, expected_version, {"state": state})
            await self.db.execute("UPDATE actions SET undone = 1 WHERE game_id = ? AND seq = ?", (rec.id, seq))
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        await self.db.execute("COMMIT")
        return out

    async def log(self, game_id: int, *, include_undone: bool = False) -> list[LogEntry]:
        where = "" if include_undone else " AND undone = 0"
        async with self.db.execute(
            "SELECT seq, player, action, turn_key, barrier, at, undone FROM actions"
            f" WHERE game_id = ?{where} ORDER BY seq",
            (game_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [
            LogEntry(seq=r[0], player=r[1], action=r[2], turn_key=r[3], barrier=bool(r[4]), at=r[5], undone=bool(r[6]))
            for r in rows
        ]

    async def next_seq(self, game_id: int) -> int:
        async with self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return int(row[0]) + 1 if row else 1

    async def history(self, channel_id: str, limit: int = 10) -> list[GameRecord]:
        async with self.db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM games WHERE channel_id = ? AND status IN ('finished', 'abandoned')"
            " ORDER BY id DESC LIMIT ?",
            (channel_id, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [_row_to_record(r) for r in rows]

    async def due(self, now: float) -> list[GameRecord]:
        async with self.db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM games WHERE status = 'active' AND deadline_at IS NOT NULL"
            " AND deadline_at <= ? ORDER BY deadline_at",
            (now,),
        ) as cur:
            rows = await cur.fetchall()
        return [_row_to_record(r) for r in rows]

    async def live_games(self) -> list[GameRecord]:
        marks = ", ".join("?" for _ in LIVE)
        async with self.db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM games WHERE status IN ({marks}) ORDER BY id", LIVE
        ) as cur:
            rows = await cur.fetchall()
        return [_row_to_record(r) for r in rows]

    # ---- timed work claimed across processes (see Storage.claim) ---------------------------------------------
    async def claim(self, key: str, owner: str, now: float, lease_s: float) -> ClaimResult:
        """A guarded write in one immediate transaction: insert the claim, or take over a lease that ran out."""
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                result = await self._claim(key, owner, now, lease_s)
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")
        return result

    async def _claim(self, key: str, owner: str, now: float, lease_s: float) -> ClaimResult:
        cur = await self.db.execute(
            "INSERT OR IGNORE INTO claims (key, owner, lease_until) VALUES (?, ?, ?)", (key, owner, now + lease_s))
        if cur.rowcount == 1:
            return "claimed"
        cur = await self.db.execute(
            "UPDATE claims SET owner = ?, lease_until = ?, takeovers = takeovers + 1"
            " WHERE key = ? AND done_at IS NULL AND lease_until <= ?", (owner, now + lease_s, key, now))
        if cur.rowcount == 1:
            return "claimed"
        async with self.db.execute("SELECT done_at FROM claims WHERE key = ?", (key,)) as c:
            row = await c.fetchone()
        return "done" if row is not None and row[0] is not None else "held"

    async def finish_claim(self, key: str, owner: str, now: float) -> bool:
        async with self._write:
            cur = await self.db.execute(
                "UPDATE claims SET done_at = ? WHERE key = ? AND owner = ? AND done_at IS NULL", (now, key, owner))
        return cur.rowcount == 1

    async def release_claim(self, key: str, owner: str) -> None:
        async with self._write:
            await self.db.execute(
                "UPDATE claims SET lease_until = 0 WHERE key = ? AND owner = ? AND done_at IS NULL", (key, owner))

    async def prune_claims(self, done_before: float) -> int:
        async with self._write:
            cur = await self.db.execute("DELETE FROM claims WHERE done_at IS NOT NULL AND done_at < ?", (done_before,))
        return cur.rowcount

    # ---- moving a whole database (see Storage.copy_games) ---------------------------------------------------
    async def games_page(self, after_id: int, limit: int) -> list[GameRecord]:
        async with self.db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM games WHERE id > ? ORDER BY id LIMIT ?", (after_id, limit)
        ) as cur:
            rows = await cur.fetchall()
        return [_row_to_record(r) for r in rows]

    async def copy_games(self, games: Sequence[tuple[GameRecord, Sequence[LogEntry]]]) -> None:
        """Explicit ids; AUTOINCREMENT's sqlite_sequence follows the largest id inserted by itself."""
        insert = f"INSERT INTO games ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' for _ in _COLUMNS)})"
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for rec, log in games:
                    try:
                        await self.db.execute(insert, tuple(_encode(c, getattr(rec, c)) for c in _COLUMNS))
                    except aiosqlite.IntegrityError as exc:
                        raise ChannelBusy(f"game {rec.id}: its id or its channel's live game is taken") from exc
                    await self.db.executemany(
                        "INSERT INTO actions (game_id, seq, player, action, turn_key, barrier, at, undone)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [(rec.id, e.seq, e.player, e.action, e.turn_key, int(e.barrier), e.at, int(e.undone))
                         for e in log],
                    )
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")
