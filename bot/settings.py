"""Configuration from the environment (and a .env file), via pydantic-settings."""
from __future__ import annotations

import os
from pathlib import Path

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    discord_token: SecretStr | None = None  # DISCORD_TOKEN; never logged
    playpost_db: str = "data/playpost.sqlite3"  # PLAYPOST_DB: a file path
    dev_guild_id: int | None = None  # DEV_GUILD_ID: sync commands to this guild at start (instant)
    playpost_sync: bool = False  # PLAYPOST_SYNC: sync global commands at start (rate limited: do it on purpose)
    playpost_log_level: str = "INFO"
    playpost_tick_seconds: float = 60.0  # how often deadlines are checked
    # PLAYPOST_RENDER_WORKERS: board-drawing processes (0: a thread; unset: one per core but one)
    playpost_render_workers: int | None = None
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
