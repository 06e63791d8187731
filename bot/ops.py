"""Operations: backups (on demand and on a schedule, with retention), restore, the shutdown gate,
the heartbeat and the health check the Docker healthcheck runs.

Nothing here touches a game: backups go through the storage (SQLite's online backup API, in
aiosqlite's thread), the health check opens the database file itself, in its own process.
"""
from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from storage import Storage, StorageDamaged
from storage.base import is_postgres_url

log = logging.getLogger("playpost.ops")

BACKUP_PREFIX = "playpost-"
BACKUP_SUFFIX = ".sqlite3"
RESTARTING = ("The bot is restarting; try again in a minute. Nothing was changed.")


# ---- backups -------------------------------------------------------------------------------------------------
def backup_path(directory: Path, now: float | None = None) -> Path:
    """Where a backup taken now goes: `playpost-20260101T120000.123Z.sqlite3` (UTC; names sort by age)."""
    now = time.time() if now is None else now
    while True:
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"
        path = directory / f"{BACKUP_PREFIX}{stamp}{BACKUP_SUFFIX}"
        if not path.exists():  # never overwrite a finished backup
            return path
        now += 0.001


def backups(directory: Path) -> list[Path]:
    """The backups in a directory, oldest first (half-written `.part` files are not backups)."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.glob(f"{BACKUP_PREFIX}*{BACKUP_SUFFIX}") if p.is_file())


def prune(directory: Path, keep: int) -> list[Path]:
    """Delete all but the newest `keep` backups; returns what was deleted."""
    old = backups(directory)[:-keep] if keep > 0 else []
    for p in old:
        p.unlink(missing_ok=True)
    return old


async def take_backup(storage: Storage, directory: Path, *, keep: int | None = None,
                      now: float | None = None) -> Path:
    """One online backup into `directory`, then the oldest beyond `keep` removed (None: keep all)."""
    dest = backup_path(directory, now)
    await storage.backup(dest)
    if keep is not None:
        removed = await asyncio.to_thread(prune, directory, keep)
        if removed:
            log.info("event=backup_pruned dir=%s removed=%d", directory, len(removed))
    return dest


async def backup_schedule(storage: Storage, directory: Path, every_hours: float, keep: int,
                          sleep: Callable[[float], object] = asyncio.sleep) -> None:
    """The bot's automatic backups: one `every_hours` (the first one at start), `keep` kept.

    The copy runs in the database's thread, never on the event loop; a failed backup is logged
    and tried again at the next slot.
    """
    while True:
        started = time.monotonic()
        try:
            dest = await take_backup(storage, directory, keep=keep)
            log.info("event=backup path=%s ms=%d", dest, (time.monotonic() - started) * 1000)
        except Exception as exc:  # the bot keeps serving; the next slot tries again
            log.error("event=backup_failed dir=%s error=%r", directory, exc)
        await sleep(every_hours * 3600)  # type: ignore[misc]


def check_file(path: Path) -> str | None:
    """Why a SQLite file is not a usable playpost database (None when `PRAGMA quick_check` says ok)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = [str(r[0]) for r in conn.execute("PRAGMA quick_check").fetchall()]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return str(exc)
    if rows != ["ok"]:
        return "; ".join(rows[:3])
    if version < 1:
        return "it has no playpost tables"
    return None


def restore(backup: Path, db: Path, now: float | None = None) -> Path | None:
    """Put a backup in place of the database (the bot must be stopped). The file it replaces, with its
    -wal and -shm, is kept beside it as `<db>.before-restore-<UTC stamp>`; returns that path (None if
    there was no database). Refuses a backup that fails its integrity check."""
    problem = check_file(backup)
    if problem is not None:
        raise StorageDamaged(str(backup), problem)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))
    kept: Path | None = None
    db.parent.mkdir(parents=True, exist_ok=True)
    if db.exists():
        kept = db.with_name(f"{db.name}.before-restore-{stamp}")
        os.replace(db, kept)
    for side in ("-wal", "-shm"):
        extra = db.with_name(db.name + side)
        if extra.exists():
            os.replace(extra, kept.with_name(kept.name + side) if kept else extra.with_name(extra.name + ".old"))
    part = db.with_name(db.name + ".restoring")
    shutil.copyfile(backup, part)
    with open(part, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(part, db)
    return kept


def damaged_advice(exc: StorageDamaged, backup_dir: str | None) -> str:
    """What an operator reads when the bot refuses to start on a damaged database file."""
    where = backup_dir or "<backup dir>"
    latest = backups(Path(backup_dir))[-1:] if backup_dir else []
    source = str(latest[0]) if latest else f"{where}/playpost-<newest>.sqlite3"
    return (f"{exc}\nplaypost will not start on a damaged database. Stop the bot, then restore the newest backup:\n"
            f"  playpost restore {source} --db {exc.path}\n"
            "(the damaged file is kept beside it as <db>.before-restore-<time>).")


# ---- shutdown --------------------------------------------------------------------------------------------------
class ShutdownGate:
    """Counts commands in flight; once closing, new commands are refused and `drained` waits for the rest."""

    def __init__(self) -> None:
        self.closing = False
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def enter(self) -> bool:
        """Admit a command (False once closing: the caller answers RESTARTING)."""
        if self.closing:
            return False
        self.in_flight += 1
        self._idle.clear()
        return True

    def leave(self) -> None:
        self.in_flight -= 1
        if self.in_flight <= 0:
            self.in_flight = 0
            self._idle.set()

    async def drained(self, timeout: float) -> bool:
        """Close the gate and wait up to `timeout` s for the commands in flight; False if some are still running."""
        self.closing = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True


# ---- heartbeat and health ---------------------------------------------------------------------------------------
def beat(path: Path) -> None:
    """Touch the heartbeat file (the bot does this while it is connected to Discord)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{time.time():.0f}\n", encoding="ascii")


def heartbeat_problem(path: Path, max_age: float, now: float | None = None) -> str | None:
    """Why the heartbeat says the bot is not connected (None when it is fresh)."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except FileNotFoundError:
        return f"no heartbeat file at {path} (the bot has not connected to Discord)"
    if age > max_age:
        return f"heartbeat is {age:.0f} s old (more than {max_age:.0f} s): the bot is not connected to Discord"
    return None


def database_problem(db: str, timeout: float = 5.0) -> str | None:
    """Why the database is not writable now (None when a real write transaction commits).

    The write rewrites the schema version with its own value: a page written through the WAL and
    committed, which fails on a full disk, a read-only file or a damaged header, and changes nothing.
    """
    if is_postgres_url(db):
        return None  # the server answers for itself (pg_isready); the bot's storage reports its faults
    path = Path(db.removeprefix("sqlite:///").removeprefix("sqlite://"))
    if not path.is_file():
        return f"no database file at {path}"
    try:
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("COMMIT")
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return f"database {path} is not writable: {exc}"
    return None
