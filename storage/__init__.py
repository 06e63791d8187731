"""Persistence: games and their action logs; the engines are known here only as JSON.

The names below load with the module that defines them, when first asked for: `storage.check` (the integrity check
a start-up begins first of all) then imports no more than the standard library, and a bot on SQLite never loads
asyncpg (60-80 ms of start-up).
"""
from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from .check import start_check
    from .postgres import PostgresStorage
    from .sqlite import SQLiteStorage, Synchronous

__all__ = [
    "BackupUnsupported", "StorageDamaged", "StorageUnavailable",
    "ChannelBusy", "GameRecord", "LogEntry", "PostgresStorage", "SQLiteStorage", "SeatRecord", "StaleVersion",
    "Storage", "StorageError", "is_postgres_url", "open_storage", "start_check",
]

_HOME = {
    **dict.fromkeys(("BackupUnsupported", "ChannelBusy", "GameRecord", "LogEntry", "SeatRecord", "StaleVersion",
                     "Storage", "StorageDamaged", "StorageError", "StorageUnavailable", "is_postgres_url"), "base"),
    "start_check": "check", "PostgresStorage": "postgres", "SQLiteStorage": "sqlite", "Synchronous": "sqlite",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'storage' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


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
    from .base import is_postgres_url

    store: Storage
    if is_postgres_url(url):
        from .postgres import PostgresStorage

        store = PostgresStorage(url)
    else:
        from .sqlite import SQLiteStorage

        store = SQLiteStorage(url.removeprefix("sqlite:///").removeprefix("sqlite://"), synchronous=_synchronous())
    await store.open()
    return store
