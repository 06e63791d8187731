"""Persistence: games and their action logs; the engines are known here only as JSON."""
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
)
from .postgres import PostgresStorage, is_postgres_url
from .sqlite import SQLiteStorage

__all__ = [
    "BackupUnsupported", "StorageDamaged", "StorageUnavailable",
    "ChannelBusy", "GameRecord", "LogEntry", "PostgresStorage", "SQLiteStorage", "SeatRecord", "StaleVersion",
    "Storage", "StorageError", "open_storage",
]


async def open_storage(url: str) -> Storage:
    """Open the backend a URL names, migrated and ready.

    `postgresql://user@host:port/db` (or `postgres://`, optionally `?schema=name`) is PostgreSQL;
    a file path or `sqlite:///path` is SQLite, the default.
    """
    store: Storage
    if is_postgres_url(url):
        store = PostgresStorage(url)
    else:
        store = SQLiteStorage(url.removeprefix("sqlite:///").removeprefix("sqlite://"))
    await store.open()
    return store
