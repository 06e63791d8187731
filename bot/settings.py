"""Configuration from the environment (and a .env file), via pydantic-settings."""
from __future__ import annotations

import os
from pathlib import Path

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from .pipeline import Limits


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    discord_token: SecretStr | None = None  # DISCORD_TOKEN; never logged
    # PLAYPOST_DB: a SQLite file path (the default, one process), or a postgresql://user@host:port/db URL
    # (several processes share it; see README "Scaling out")
    playpost_db: str = "data/playpost.sqlite3"
    dev_guild_id: int | None = None  # DEV_GUILD_ID: sync commands to this guild at start (instant)
    playpost_sync: bool = False  # PLAYPOST_SYNC: sync global commands at start (rate limited: do it on purpose)
    playpost_log_level: str = "INFO"
    playpost_tick_seconds: float = 60.0  # how often deadlines are checked
    # PLAYPOST_RENDER_WORKERS: board-drawing processes (0: a thread; unset: one per core but one)
    playpost_render_workers: int | None = None
    # PLAYPOST_COMPUTER_WORKERS: processes computer players decide in (0: a thread; unset: half the cores, at least 1)
    playpost_computer_workers: int | None = None
    # PLAYPOST_SHARDS ("0,1" or "0-3") and PLAYPOST_SHARD_COUNT: the gateway shards this process runs, out of
    # how many in all (every process gets the same count); unset: one process, unsharded
    playpost_shards: str | None = None
    playpost_shard_count: int | None = None
    # how much work is under way at once; the rest waits its turn, nothing is dropped (bot/pipeline.py)
    playpost_apply_slots: int = Limits.apply_slots  # moves doing storage and rules work at once
    playpost_rules_workers: int = Limits.rules_workers  # threads for rules work
    playpost_queue: int = Limits.queue  # jobs waiting at each stage before a submitter has to wait
    # a move's board that takes longer than this is posted after its text, into the same message
    playpost_image_wait_ms: int = 500
    # PLAYPOST_REPLAY_AT_END: when a move ends a game, post its animated replay after the final board
    playpost_replay_at_end: bool = True

    def limits(self) -> Limits:
        return Limits(apply_slots=max(1, self.playpost_apply_slots), rules_workers=max(1, self.playpost_rules_workers),
                      queue=max(0, self.playpost_queue))
    # PLAYPOST_BACKUP_DIR: automatic online backups go here (unset: none); every N hours, the newest K kept
    playpost_backup_dir: str | None = None
    playpost_backup_every_hours: float = 6.0
    playpost_backup_keep: int = 28
    # PLAYPOST_HEARTBEAT: a file the bot touches every 30 s while connected to Discord (`playpost health` reads it);
    # unset: `heartbeat` beside the SQLite file (data/heartbeat with PostgreSQL)
    playpost_heartbeat: str | None = None
    playpost_heartbeat_max_age: float = 120.0  # seconds: an older heartbeat means "not connected"
    playpost_shutdown_grace: float = 8.0  # seconds a SIGTERM waits for the commands in flight

    def heartbeat_path(self) -> Path:
        if self.playpost_heartbeat:
            return Path(self.playpost_heartbeat)
        if self.playpost_db.startswith(("postgres://", "postgresql://")):
            return Path("data/heartbeat")
        return Path(self.playpost_db.removeprefix("sqlite:///").removeprefix("sqlite://")).parent / "heartbeat"

    def render_workers(self) -> int:
        if self.playpost_render_workers is not None:
            return max(0, self.playpost_render_workers)
        return max(1, (os.cpu_count() or 2) - 1)

    def computer_workers(self) -> int:
        if self.playpost_computer_workers is not None:
            return max(0, self.playpost_computer_workers)
        return max(1, (os.cpu_count() or 2) // 2)

    def shards(self) -> tuple[list[int], int] | None:
        """This process's shard ids and the shard count, or None when unsharded; ValueError if inconsistent."""
        if self.playpost_shard_count is None:
            if self.playpost_shards:
                raise ValueError("PLAYPOST_SHARDS needs PLAYPOST_SHARD_COUNT (the same in every process)")
            return None
        count = self.playpost_shard_count
        if count < 1:
            raise ValueError(f"the shard count must be at least 1, not {count}")
        ids = parse_shards(self.playpost_shards) if self.playpost_shards else list(range(count))
        if bad := [i for i in ids if not 0 <= i < count]:
            raise ValueError(f"shard ids {bad} are not in 0..{count - 1}")
        return ids, count


def parse_shards(text: str) -> list[int]:
    """ "0,1" or "0-3" or "0,2-3" -> sorted distinct shard ids; ValueError on anything else."""
    out: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            raise ValueError(f"{part!r} is not a shard id or a range like 0-3")
        first, last = int(lo), int(hi) if sep else int(lo)
        if last < first:
            raise ValueError(f"{part!r}: the range runs backwards")
        out.update(range(first, last + 1))
    if not out:
        raise ValueError("no shard ids given")
    return sorted(out)


def shard_of(guild_id: int | str, shard_count: int) -> int:
    """The gateway shard Discord sends a guild's events to (its games are handled by that shard's process)."""
    return (int(guild_id) >> 22) % shard_count
