"""The narrow storage interface the manager speaks; SQLite implements it, PostgreSQL can too."""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

GameStatus = Literal["lobby", "active", "finished", "abandoned"]
LIVE: tuple[GameStatus, ...] = ("lobby", "active")


class StorageError(Exception):
    """Base of storage failures the manager turns into replies."""


class StaleVersion(StorageError):
    """Someone else changed the game first; the write was refused, nothing overwritten."""


class ChannelBusy(StorageError):
    """The channel already has a live game."""


class StorageUnavailable(StorageError):
    """The database refused a read or a write (disk full, read-only file, I/O error, damaged page).

    Whatever was being written was rolled back: nothing changed. The storage logs the cause once
    and keeps trying on the next command, so it recovers by itself when the fault clears.
    """

    def __init__(self, cause: str, *, writing: bool = True) -> None:
        super().__init__(cause)
        self.cause = cause
        self.writing = writing


class StorageDamaged(StorageError):
    """The database file failed its integrity check at open: the bot must not start on it."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(f"The database file {path} is damaged: {detail}")
        self.path = path
        self.detail = detail


class BackupUnsupported(StorageError):
    """This backend takes no backups itself (PostgreSQL: pg_dump does)."""


class SeatRecord(BaseModel):
    player: str
    name: str
    choices: dict[str, str] = Field(default_factory=dict)


class GameRecord(BaseModel):
    """One game row: lobby, active or archived."""

    id: int = 0
    channel_id: str
    guild_id: str | None = None
    kind: str
    status: GameStatus = "lobby"
    host_id: str
    options: dict[str, str] = Field(default_factory=dict)
    seats: list[SeatRecord] = Field(default_factory=list)
    seed: int
    rules_version: int = 1
    state: str | None = None  # the engine state as JSON; a cache of the log
    version: int = 0
    created_at: float = 0.0  # UTC epoch seconds
    updated_at: float = 0.0
    deadline_at: float | None = None
    settings: dict[str, Any] = Field(default_factory=dict)
    meta: dict[str, Any] = Field(default_factory=dict)  # message ids, reminders, votes


class LogEntry(BaseModel):
    """One applied action. Undone entries stay in the log, marked, never deleted."""

    seq: int
    player: str
    action: str
    turn_key: str = ""
    barrier: bool = False  # dice rolled or hidden information revealed: undo stops here
    at: float = 0.0
    undone: bool = False


class Storage(ABC):
    backs_up = False  # whether `backup` works on this backend

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    async def backup(self, dest: Path) -> Path:
        """Write a consistent copy of the whole database to `dest` while the bot runs; returns `dest`."""
        raise BackupUnsupported("This database backend takes no backups itself. For PostgreSQL use pg_dump, "
                                "e.g. `pg_dump --format=custom --file=playpost.dump \"$PLAYPOST_DB\"`; "
                                "restore with pg_restore.")

    @abstractmethod
    async def create_game(self, rec: GameRecord) -> GameRecord:
        """Insert a lobby; ChannelBusy if the channel has a live game."""

    @abstractmethod
    async def import_games(self, games: Sequence[tuple[GameRecord, Sequence[LogEntry]]]) -> list[GameRecord]:
        """Store whole games in one transaction, each record as given (status, state, version, times)
        with its log: a restored backup, a benchmark's database. Ids are assigned and returned in order;
        ChannelBusy (and nothing stored) if two live games would share a channel."""

    @abstractmethod
    async def live_game(self, channel_id: str) -> GameRecord | None: ...

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRecord | None: ...

    @abstractmethod
    async def update_game(self, rec: GameRecord, expected_version: int, **fields: Any) -> GameRecord:
        """Write the named fields and bump the version, if still at expected_version."""

    @abstractmethod
    async def update_meta(self, game_id: int, patch: dict[str, Any]) -> dict[str, Any]:
        """Merge keys into a game's meta (message ids, votes) without changing its version.

        Meta is bookkeeping of the transport, not game state: writing it must not make
        the buttons under the current board stale. Returns the merged meta.
        """

    @abstractmethod
    async def append_action(
        self, rec: GameRecord, expected_version: int, entry: LogEntry, state: str, **fields: Any
    ) -> GameRecord:
        """Append to the log and save the new state in one transaction guarded by the version."""

    @abstractmethod
    async def mark_undone(self, rec: GameRecord, expected_version: int, seq: int, state: str) -> GameRecord:
        """Mark a log entry undone and save the rebuilt state, guarded by the version."""

    @abstractmethod
    async def log(self, game_id: int, *, include_undone: bool = False) -> list[LogEntry]: ...

    @abstractmethod
    async def next_seq(self, game_id: int) -> int:
        """The sequence number the next log entry takes (undone entries included)."""

    @abstractmethod
    async def history(self, channel_id: str, limit: int = 10) -> list[GameRecord]: ...

    @abstractmethod
    async def due(self, now: float) -> list[GameRecord]:
        """Active games whose deadline has passed."""

    @abstractmethod
    async def live_games(self) -> list[GameRecord]: ...
