"""Persistence: games and their action logs; the engines are known here only as JSON."""
from .base import ChannelBusy, GameRecord, LogEntry, SeatRecord, StaleVersion, Storage, StorageError
from .sqlite import SQLiteStorage

__all__ = [
    "ChannelBusy", "GameRecord", "LogEntry", "SQLiteStorage", "SeatRecord", "StaleVersion", "Storage",
    "StorageError", "open_storage",
]


async def open_storage(url: str) -> Storage:
    """Open the backend a URL names: a file path or `sqlite:///path` (PostgreSQL later)."""
    path = url.removeprefix("sqlite:///").removeprefix("sqlite://")
    store = SQLiteStorage(path)
    await store.open()
    return store
