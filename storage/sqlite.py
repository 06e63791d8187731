"""SQLite storage: aiosqlite (its own thread, off the event loop), WAL, numbered migrations.

Durability: `synchronous=FULL`, so a move the bot has acknowledged is on disk before the reply
(WAL with NORMAL may lose the last commits on power loss). Every cursor is closed as soon as its
statement is done (a statement left open makes COMMIT fail). Every write is one transaction that
is rolled back whole on failure; a database that refuses a read or write (disk full, read-only,
I/O error, damaged page) raises `StorageUnavailable`, the cause logged once, and the next command
simply tries again. The file's integrity is checked at open (`PRAGMA quick_check`, storage/check.py).
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal, ParamSpec, TypeVar

import aiosqlite

from . import check as integrity
from .base import (
    LIVE,
    ChannelBusy,
    ClaimResult,
    GameRecord,
    LogEntry,
    SeatRecord,
    StaleVersion,
    Storage,
    StorageDamaged,
    StorageUnavailable,
)

log = logging.getLogger("playpost.storage")

P = ParamSpec("P")
T = TypeVar("T")
Synchronous = Literal["FULL", "NORMAL"]
# primary result codes after which the connection is opened afresh before the next write
# (a file opened read-only stays read-only on that connection even when its permissions are fixed)
REOPEN_CODES = {sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN}

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
    # 3: the action log clustered by game (WITHOUT ROWID): one b-tree where there were two (the rows, and the
    # primary key's index of them, 14 % of the file), so a game's log is one range of pages and the integrity check
    # at open has less to read: 10,000 stored games, 389 -> 347 MB, the start-up 8.4 -> 7.3 G instructions.
    # Copied in key order, so the copy only appends.
    """
    CREATE TABLE actions_by_game (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        player TEXT NOT NULL,
        action TEXT NOT NULL,
        turn_key TEXT NOT NULL DEFAULT '',
        barrier INTEGER NOT NULL DEFAULT 0,
        at REAL NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    INSERT INTO actions_by_game (game_id, seq, player, action, turn_key, barrier, at, undone)
        SELECT game_id, seq, player, action, turn_key, barrier, at, undone FROM actions ORDER BY game_id, seq;
    DROP TABLE actions;
    ALTER TABLE actions_by_game RENAME TO actions;
    """,
    # 4: what each move said in public, first line (the recap under a ping reads it; older moves have none)
    """
    ALTER TABLE actions ADD COLUMN said TEXT NOT NULL DEFAULT '';
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


def _writes(fn: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """A write: a refusal by the database becomes StorageUnavailable; a success ends a logged fault."""
    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        store: SQLiteStorage = args[0]  # type: ignore[assignment]
        try:
            out = await fn(*args, **kwargs)
        except sqlite3.Error as exc:
            if not _is_fault(exc):
                raise
            raise store._failed(exc, writing=True) from exc
        store._succeeded()
        return out
    return wrapper


def _reads(fn: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """A read: a refusal by the database becomes StorageUnavailable (writing=False)."""
    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        store: SQLiteStorage = args[0]  # type: ignore[assignment]
        try:
            return await fn(*args, **kwargs)
        except sqlite3.Error as exc:
            if not _is_fault(exc):
                raise
            raise store._failed(exc, writing=False) from exc
    return wrapper


def _is_fault(exc: BaseException) -> bool:
    """A refusal by the database or its file (not a constraint, not a bug in our SQL)."""
    return isinstance(exc, sqlite3.OperationalError) or type(exc) is sqlite3.DatabaseError


def _code(exc: BaseException) -> int:
    """SQLite's primary result code of an error (0 when it has none)."""
    return int(getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF


async def _run(db: aiosqlite.Connection, sql: str, args: tuple[Any, ...] = ()) -> None:
    """Execute a statement and close its cursor at once (a cursor left open keeps its statement in progress)."""
    async with db.execute(sql, args):
        pass


def _prepare(part: Path) -> None:
    part.parent.mkdir(parents=True, exist_ok=True)
    part.unlink(missing_ok=True)


def _publish(part: Path, dest: Path) -> None:
    """Make the finished copy durable, then give it its name (a reader never sees half a backup)."""
    with open(part, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(part, dest)
    dir_fd = os.open(dest.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


class SQLiteStorage(Storage):
    backs_up = True

    def __init__(self, path: str | Path, *, synchronous: Synchronous = "FULL", check: bool = True) -> None:
        """synchronous: FULL (the default) makes every commit durable; NORMAL is for the benchmark's comparison.
        check: run `PRAGMA quick_check` at open (refusing a damaged file)."""
        self.path = str(path)
        self.synchronous = synchronous
        self.check = check
        self._db: aiosqlite.Connection | None = None
        self._write = asyncio.Lock()  # one connection, one writer: transactions never interleave
        self.fault: str | None = None  # the cause of the last failed read or write, until a write succeeds
        self._reopen = False

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            if self.check:
                await self._quick_check()
            self._db = await self._connect()
            await self._migrate()
        except BaseException as exc:
            await self.close()
            if _is_fault(exc):
                if _code(exc) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
                    raise StorageDamaged(self.path, str(exc)) from exc
                raise StorageUnavailable(str(exc)) from exc
            raise

    async def _connect(self) -> aiosqlite.Connection:
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            for pragma in ("journal_mode=WAL", f"synchronous={self.synchronous}", "foreign_keys=ON",
                           "busy_timeout=5000"):
                await _run(db, f"PRAGMA {pragma}")
        except BaseException:
            await db.close()
            raise
        return db

    async def _quick_check(self) -> None:
        """The file's verdict before this storage's connection reads or writes it: that of a check this process
        started early (storage/check.py: it ran beside the imports), else of one run now, in a thread."""
        rows = await asyncio.wrap_future(integrity.take(self.path))
        if rows:
            raise StorageDamaged(self.path, "; ".join(rows[:3]))

    async def _migrate(self) -> None:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = row[0] if row else 0
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            await _run(self.db, "BEGIN IMMEDIATE")
            try:
                for stmt in (s.strip() for s in script.split(";")):
                    if stmt:
                        await _run(self.db, stmt)
                await _run(self.db, f"PRAGMA user_version = {number}")
                await _run(self.db, "COMMIT")
            except BaseException:
                await _run(self.db, "ROLLBACK")
                raise

    async def close(self) -> None:
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    # ---- faults ----------------------------------------------------------------
    def _failed(self, exc: sqlite3.Error, *, writing: bool) -> StorageUnavailable:
        """The error a refused read or write becomes; its cause is logged once, not per command."""
        cause = str(exc)
        if cause != self.fault:
            log.error("event=storage_fault db=%s writing=%s cause=%r", self.path, writing, cause)
            self.fault = cause
        if _code(exc) in REOPEN_CODES:
            self._reopen = True
        return StorageUnavailable(cause, writing=writing)

    def _succeeded(self) -> None:
        if self.fault is not None:
            log.warning("event=storage_recovered db=%s fault=%r", self.path, self.fault)
            self.fault = None

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT), rolled back whole if anything fails."""
        async with self._write:
            if self._reopen:
                old, self._db = self._db, await self._connect()
                self._reopen = False
                log.info("event=storage_reopened db=%s", self.path)
                if old is not None:
                    await old.close()
            try:
                await _run(self.db, "BEGIN IMMEDIATE")
                yield self.db
                await _run(self.db, "COMMIT")
            except BaseException as exc:
                # to the end even if this writer is cancelled again, holding the write lock meanwhile
                undo = asyncio.ensure_future(self._abandon(cancelled=isinstance(exc, asyncio.CancelledError)))
                while not undo.done():
                    with contextlib.suppress(asyncio.CancelledError):
                        await asyncio.shield(undo)
                raise

    async def _abandon(self, *, cancelled: bool) -> None:
        """Roll back what a failed or cancelled writer left open. A cancelled BEGIN (or COMMIT) still runs in the
        connection's thread: once a statement queued behind it is done, so is it (before, a move cancelled there
        left its transaction open and every later write failed: 'cannot start a transaction within a
        transaction')."""
        try:
            if cancelled:
                await _run(self.db, "SELECT 1")
            if self.db.in_transaction:
                await _run(self.db, "ROLLBACK")
        except sqlite3.Error:
            self._reopen = True  # the next write starts on a fresh connection

    # ---- games ------------------------------------------------------------
    @_writes
    async def create_game(self, rec: GameRecord) -> GameRecord:
        now = rec.created_at or time.time()
        rec = rec.model_copy(update={"created_at": now, "updated_at": now})
        values = {c: _encode(c, getattr(rec, c)) for c in _COLUMNS if c != "id"}
        cols = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        async with self._transaction() as db:
            try:
                async with db.execute(f"INSERT INTO games ({cols}) VALUES ({marks})", tuple(values.values())) as cur:
                    game_id = cur.lastrowid
            except sqlite3.IntegrityError as exc:
                raise ChannelBusy("This channel already has a game.") from exc
        return rec.model_copy(update={"id": game_id})

    @_writes
    async def import_games(self, games: Sequence[tuple[GameRecord, Sequence[LogEntry]]]) -> list[GameRecord]:
        cols = [c for c in _COLUMNS if c != "id"]
        insert = f"INSERT INTO games ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})"
        out: list[GameRecord] = []
        async with self._transaction() as db:
            for rec, log_entries in games:
                try:
                    async with db.execute(insert, tuple(_encode(c, getattr(rec, c)) for c in cols)) as cur:
                        game_id = cur.lastrowid
                except sqlite3.IntegrityError as exc:
                    raise ChannelBusy("This channel already has a game.") from exc
                async with db.executemany(
                    "INSERT INTO actions (game_id, seq, player, action, turn_key, barrier, at, undone, said)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(game_id, e.seq, e.player, e.action, e.turn_key, int(e.barrier), e.at, int(e.undone), e.said)
                     for e in log_entries],
                ):
                    pass
                out.append(rec.model_copy(update={"id": game_id}))
        return out

    async def _one(self, sql: str, args: tuple[Any, ...]) -> GameRecord | None:
        async with self.db.execute(f"SELECT {', '.join(_COLUMNS)} FROM games WHERE {sql}", args) as cur:
            row = await cur.fetchone()
        return _row_to_record(row) if row else None

    @_reads
    async def live_game(self, channel_id: str) -> GameRecord | None:
        return await self._one("channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

    @_reads
    async def get_game(self, game_id: int) -> GameRecord | None:
        return await self._one("id = ?", (game_id,))

    async def _guarded_update(self, rec: GameRecord, expected_version: int, fields: dict[str, Any]) -> GameRecord:
        fields = dict(fields)
        fields.setdefault("updated_at", time.time())
        fields["version"] = expected_version + 1
        sets = ", ".join(f"{k} = ?" for k in fields)
        args = tuple(_encode(k, v) for k, v in fields.items())
        try:
            async with self.db.execute(
                f"UPDATE games SET {sets} WHERE id = ? AND version = ?", args + (rec.id, expected_version)
            ) as cur:
                changed = cur.rowcount
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy("This channel already has a game.") from exc
        if changed != 1:
            raise StaleVersion("The game changed while this command was being handled.")
        return rec.model_copy(update=fields)

    @_writes
    async def update_game(self, rec: GameRecord, expected_version: int, **fields: Any) -> GameRecord:
        async with self._transaction():
            return await self._guarded_update(rec, expected_version, fields)

    @_writes
    async def update_meta(self, game_id: int, patch: dict[str, Any]) -> dict[str, Any]:
        async with self._transaction() as db:
            async with db.execute("SELECT meta FROM games WHERE id = ?", (game_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                raise StaleVersion("No such game.")
            meta = {**json.loads(row[0]), **patch}
            await _run(db, "UPDATE games SET meta = ? WHERE id = ?", (json.dumps(meta, sort_keys=True), game_id))
        return meta

    @_writes
    async def append_action(
        self, rec: GameRecord, expected_version: int, entry: LogEntry, state: str, **fields: Any
    ) -> GameRecord:
        async with self._transaction() as db:
            out = await self._guarded_update(rec, expected_version, {"state": state, **fields})
            await _run(
                db,
                "INSERT INTO actions (game_id, seq, player, action, turn_key, barrier, at, undone, said)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)",
                (rec.id, entry.seq, entry.player, entry.action, entry.turn_key, int(entry.barrier), entry.at,
                 entry.said),
            )
        return out

    @_writes
    async def mark_undone(self, rec: GameRecord, expected_version: int, seq: int, state: str) -> GameRecord:
        async with self._transaction() as db:
            out = await self._guarded_update(rec, expected_version, {"state": state})
            await _run(db, "UPDATE actions SET undone = 1 WHERE game_id = ? AND seq = ?", (rec.id, seq))
        return out

    @_reads
    async def log(self, game_id: int, *, include_undone: bool = False) -> list[LogEntry]:
        where = "" if include_undone else " AND undone = 0"
        async with self.db.execute(
            "SELECT seq, player, action, turn_key, barrier, at, undone, said FROM actions"
            f" WHERE game_id = ?{where} ORDER BY seq",
            (game_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [
            LogEntry(seq=r[0], player=r[1], action=r[2], turn_key=r[3], barrier=bool(r[4]), at=r[5], undone=bool(r[6]),
                     said=r[7])
            for r in rows
        ]

    @_reads
    async def next_seq(self, game_id: int) -> int:
        async with self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return int(row[0]) + 1 if row else 1

    @_reads
    async def history(self, channel_id: str, limit: int = 10) -> list[GameRecord]:
        async with self.db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM games WHERE channel_id = ? AND status IN ('finished', 'abandoned')"
            " ORDER BY id DESC LIMIT ?",
            (channel_id, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [_row_to_record(r) for r in rows]

    @_reads
    async def due(self, now: float) -> list[GameRecord]:
        async with self.db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM games WHERE status = 'active' AND deadline_at IS NOT NULL"
            " AND deadline_at <= ? ORDER BY deadline_at",
            (now,),
        ) as cur:
            rows = await cur.fetchall()
        return [_row_to_record(r) for r in rows]

    @_reads
    async def live_games(self) -> list[GameRecord]:
        marks = ", ".join("?" for _ in LIVE)
        async with self.db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM games WHERE status IN ({marks}) ORDER BY id", LIVE
        ) as cur:
            rows = await cur.fetchall()
        return [_row_to_record(r) for r in rows]

    # ---- backup --------------------------------------------------------------
    async def backup(self, dest: Path) -> Path:
        """SQLite's online backup into `dest` (written as `dest.part`, checked, then renamed into place).

        The copy is read through a connection of its own, in aiosqlite's thread: moves keep being
        written meanwhile (WAL), and the backup is one consistent snapshot of the database.
        """
        dest = Path(dest)
        part = dest.with_name(dest.name + ".part")
        await asyncio.to_thread(_prepare, part)
        source = self.db if self.path == ":memory:" else await aiosqlite.connect(self.path)
        try:
            target = await aiosqlite.connect(part)
            try:
                await source.backup(target, pages=-1)
                async with target.execute("PRAGMA quick_check") as cur:
                    rows = [str(r[0]) for r in await cur.fetchall()]
            finally:
                await target.close()
        finally:
            if source is not self._db:
                await source.close()
        if rows != ["ok"]:
            raise StorageDamaged(str(part), "; ".join(rows[:3]))
        await asyncio.to_thread(_publish, part, dest)
        return dest

    # ---- timed work claimed across processes (see Storage.claim) ---------------------------------------------
    @_writes
    async def claim(self, key: str, owner: str, now: float, lease_s: float) -> ClaimResult:
        """A guarded write in one immediate transaction: insert the claim, or take over a lease that ran out."""
        async with self._transaction() as db:
            async with db.execute("INSERT OR IGNORE INTO claims (key, owner, lease_until) VALUES (?, ?, ?)",
                                  (key, owner, now + lease_s)) as cur:
                if cur.rowcount == 1:
                    return "claimed"
            async with db.execute("UPDATE claims SET owner = ?, lease_until = ?, takeovers = takeovers + 1"
                                  " WHERE key = ? AND done_at IS NULL AND lease_until <= ?",
                                  (owner, now + lease_s, key, now)) as cur:
                if cur.rowcount == 1:
                    return "claimed"
            async with db.execute("SELECT done_at FROM claims WHERE key = ?", (key,)) as cur:
                row = await cur.fetchone()
        return "done" if row is not None and row[0] is not None else "held"

    @_writes
    async def finish_claim(self, key: str, owner: str, now: float) -> bool:
        async with self._transaction() as db:
            async with db.execute("UPDATE claims SET done_at = ? WHERE key = ? AND owner = ? AND done_at IS NULL",
                                  (now, key, owner)) as cur:
                return cur.rowcount == 1

    @_writes
    async def release_claim(self, key: str, owner: str) -> None:
        async with self._transaction() as db:
            await _run(db, "UPDATE claims SET lease_until = 0 WHERE key = ? AND owner = ? AND done_at IS NULL",
                       (key, owner))

    @_writes
    async def prune_claims(self, done_before: float) -> int:
        async with self._transaction() as db:
            async with db.execute("DELETE FROM claims WHERE done_at IS NOT NULL AND done_at < ?",
                                  (done_before,)) as cur:
                return cur.rowcount

    # ---- moving a whole database (see Storage.copy_games) ---------------------------------------------------
    @_reads
    async def games_page(self, after_id: int, limit: int) -> list[GameRecord]:
        async with self.db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM games WHERE id > ? ORDER BY id LIMIT ?", (after_id, limit)
        ) as cur:
            rows = await cur.fetchall()
        return [_row_to_record(r) for r in rows]

    @_writes
    async def copy_games(self, games: Sequence[tuple[GameRecord, Sequence[LogEntry]]]) -> None:
        """Explicit ids; AUTOINCREMENT's sqlite_sequence follows the largest id inserted by itself."""
        insert = f"INSERT INTO games ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' for _ in _COLUMNS)})"
        async with self._transaction() as db:
            for rec, entries in games:
                try:
                    await _run(db, insert, tuple(_encode(c, getattr(rec, c)) for c in _COLUMNS))
                except sqlite3.IntegrityError as exc:
                    raise ChannelBusy(f"game {rec.id}: its id or its channel's live game is taken") from exc
                async with db.executemany(
                    "INSERT INTO actions (game_id, seq, player, action, turn_key, barrier, at, undone, said)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(rec.id, e.seq, e.player, e.action, e.turn_key, int(e.barrier), e.at, int(e.undone), e.said)
                     for e in entries],
                ):
                    pass
