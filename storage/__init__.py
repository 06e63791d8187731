"""Persistence: games and their action logs; the engines are known here only as JSON."""
import os
from typing import TYPE_CHECKING, Any

from .base import (
    BackupUnsupported,
    ChannelBusy,
    GameRecord,
    LogEntry,
    SeatRecord,
    StaleVersion,
    Storage,
    StorageDamaged,
    StorageError,
    StorageUnavailable,
    is_postgres_url,
)
from .sqlite import SQLiteStorage, Synchronous

if TYPE_CHECKING:
    from .postgres import PostgresStorage

__all__ = [
    "BackupUnsupported", "StorageDamaged", "StorageUnavailable",
    "ChannelBusy", "GameRecord", "LogEntry", "PostgresStorage", "SQLiteStorage", "SeatRecord", "StaleVersion",
    "Storage", "StorageError", "is_postgres_url", "open_storage",
]


def __getattr__(name: str) -> Any:
    """PostgresStorage is imported when first asked for: a bot on SQLite never loads asyncpg (60-80 ms of start-up)."""
    if name == "PostgresStorage":
        from .postgres import PostgresStorage

        return PostgresStorage
    raise AttributeError(f"module 'storage' has no attribute {name!r}")


def _synchronous() -> Synchronous:
    """PLAYPOST_SQLITE_SYNCHRONOUS: FULL (the default: an answered move survives power loss) or NORMAL
    (faster commits that a power cut may undo; the test suite uses it, nothing it checks depends on fsync)."""
    mode = os.environ.get("PLAYPOST_SQLITE_SYNCHRONOUS", "FULL").upper()
    if mode == "FULL":
        return "FULL"
    if mode == "NORMAL":
        return "NORMAL"
    raise ValueError(f"PLAYPOST_SQLITE_SYNCHRONOUS must be FULL or NORMAL, not {mode!r}")


async def open_storage(url: str) -> Storage:
    """Open the backend a URL names, migrated and ready.

    `postgresql://user@host:port/db` (or `postgres://`, optionally `?schema=name`) is PostgreSQL;
    a file path or `sqlite:///path` is SQLite, the default.
    """
    store: Storage
    if is_postgres_url(url):
        from .postgres import PostgresStorage

        store = PostgresStorage(url)
    else:
        store = SQLiteStorage(url.removeprefix("sqlite:///").removeprefix("sqlite://"), synchronous=_synchronous())
    await store.open()
    return store
