"""Configuration from the environment (and a .env file), via pydantic-settings."""
from __future__ import annotations

import os

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from .pipeline import Limits


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
    # how much work is under way at once; the rest waits its turn, nothing is dropped (bot/pipeline.py)
    playpost_apply_slots: int = Limits.apply_slots  # moves doing storage and rules work at once
    playpost_rules_workers: int = Limits.rules_workers  # threads for rules work
    playpost_queue: int = Limits.queue  # jobs waiting at each stage before a submitter has to wait
    # a move's board that takes longer than this is posted after its text, into the same message
    playpost_image_wait_ms: int = 500

    def limits(self) -> Limits:
        return Limits(apply_slots=max(1, self.playpost_apply_slots), rules_workers=max(1, self.playpost_rules_workers),
                      queue=max(0, self.playpost_queue))

    def render_workers(self) -> int:
        if self.playpost_render_workers is not None:
            return max(0, self.playpost_render_workers)
        return max(1, (os.cpu_count() or 2) - 1)
