"""The narrow storage interface the manager speaks; SQLite implements it, PostgreSQL can too."""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

GameStatus = Literal["lobby", "active", "finished", "abandoned"]
ClaimResult = Literal["claimed", "held", "done"]  # see Storage.claim
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
    said: str = ""  # the move's first public line as the table read it ("Ann steps to G2"), for recaps


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

    # ---- timed work claimed across processes: a lease with an expiry -------------------------------------
    @abstractmethod
    async def claim(self, key: str, owner: str, now: float, lease_s: float) -> ClaimResult:
        """Try to take the lease on one piece of timed work (a reminder slot, a window's expiry, a scheduled
        job), named by `key`, until `now + lease_s`.

        "claimed": this owner holds it now and does the work, then `finish_claim` (or `release_claim`).
        "held": another owner's lease still runs. "done": someone finished it; it never runs again.
        A lease that ran out unfinished (its process died mid-claim) is taken over by the next claim.
        """

    @abstractmethod
    async def finish_claim(self, key: str, owner: str, now: float) -> bool:
        """Mark the work done, if this owner still holds the lease (False: it ran out and was taken over)."""

    @abstractmethod
    async def release_claim(self, key: str, owner: str) -> None:
        """Give the lease back unfinished (the work failed): the next claim takes it at once."""

    @abstractmethod
    async def prune_claims(self, done_before: float) -> int:
        """Forget claims finished before `done_before`; returns how many."""

    # ---- moving a whole database (playpost migrate-db) ---------------------------------------------------
    @abstractmethod
    async def games_page(self, after_id: int, limit: int) -> list[GameRecord]:
        """Every game (any status) with an id above `after_id`, in id order, at most `limit`."""

    @abstractmethod
    async def copy_games(self, games: Sequence[tuple[GameRecord, Sequence[LogEntry]]]) -> None:
        """Store whole games with the ids they carry (a copy from another database: buttons and links name
        games by id), in one transaction; new games then get ids after the largest one stored."""


def is_postgres_url(url: str) -> bool:
    """Whether a database URL names PostgreSQL (else it is a SQLite file)."""
    return url.startswith(("postgresql://", "postgres://"))
