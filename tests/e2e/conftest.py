"""The real bot (as `playpost run` starts it) against the local Discord double."""
from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.discord_adapter.app import build_bot
from bot.settings import Settings

from .discord_double import CHANNEL_ID, GUILD_ID, HANG, TOKEN, DiscordDouble, Interaction, Message

USERS = {"ann": "1100000000000000101", "bob": "1100000000000000102", "cat": "1100000000000000103"}


class Harness:
    """Drives one bot process-equivalent at a time over one database file."""

    def __init__(self, double: DiscordDouble, db: Path) -> None:
        self.double = double
        self.db = db
        self.bot: Any = None
        self.task: asyncio.Task[None] | None = None

    async def start_bot(self) -> None:
        settings = Settings(discord_token=TOKEN, playpost_db=str(self.db), dev_guild_id=int(GUILD_ID),
                            playpost_tick_seconds=3600,  # tests call bot.pace.tick themselves
                            # a game's end posts no replay GIF here (drawing it costs seconds): the test of it
                            # turns `bot.flows.replay_at_end` on
                            playpost_replay_at_end=False)
        self.bot = build_bot(settings, guild_ready_timeout=0.05)
        self.task = asyncio.create_task(self.bot.start(TOKEN))
        ready = asyncio.create_task(self.bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, self.task}, timeout=HANG, return_when=asyncio.FIRST_COMPLETED)
        if self.task in done:
            ready.cancel()
            self.task.result()  # raises what stopped the bot
        assert ready in done, "the bot did not become ready"

    async def stop_bot(self) -> None:
        await self.bot.close()
        if self.task is not None:
            await asyncio.wait_for(self.task, 10)
        self.task = None

    async def cmd(self, who: str, group: str, sub: str | None = None, *, channel: str = CHANNEL_ID,
                  manage: bool = False, **options: Any) -> Interaction:
        inter, payload = self.double.command_payload(USERS[who], who.capitalize(), group, sub, options,
                                                     channel_id=channel, manage=manage)
        return await self.double.run(inter, payload)

    async def autocomplete(self, who: str, group: str, sub: str | None, focused: str, *, channel: str = CHANNEL_ID,
                           **options: Any) -> list[Any]:
        inter, payload = self.double.command_payload(USERS[who], who.capitalize(), group, sub, options,
                                                     channel_id=channel, focused=focused)
        await self.double.run(inter, payload)
        return [c["value"] for c in inter.choices]

    def click_payload(self, who: str, message: Message, custom_id: str) -> tuple[Interaction, dict[str, Any]]:
        return self.double.click_payload(USERS[who], who.capitalize(), message, custom_id)

    async def click(self, who: str, message: Message, custom_id: str) -> Interaction:
        return await self.double.run(*self.click_payload(who, message, custom_id))


@pytest.fixture
async def double():
    d = DiscordDouble()
    await d.start()
    yield d
    await d.stop()


@pytest.fixture
async def harness(double, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    h = Harness(double, tmp_path / "e2e.sqlite3")
    await h.start_bot()
    yield h
    if h.task is not None:
        await h.stop_bot()
    assert TOKEN not in caplog.text, "the bot token appeared in the logs"
