"""One `playpost run` process of tests/test_scale_processes.py, against the Discord double of the test process.

`python tests/scale_child.py <double port> run --shards 0,1 --shard-count 4`: points discord.py's REST and
gateway URLs at the double (process-wide settings, as the in-process e2e tests do), registers the tests'
count game, drops the 5 s pause discord.py makes between two shards' IDENTIFY (Discord's identify rate
limit; the double has none), logs every pace tick, and runs the real command line with the rest.
"""
from __future__ import annotations

import logging
import sys

import discord.gateway
import discord.http
import yarl

from bot.cli import main
from bot.discord_adapter.app import PlaypostBot
from games._template import ENGINE as COUNT  # the test-only game, registered by hand as conftest does
from games.core import register


async def _no_identify_pause(self: PlaypostBot, shard_id: int | None, *, initial: bool) -> None:
    return None


if __name__ == "__main__":
    port = int(sys.argv[1])
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    PlaypostBot.before_identify_hook = _no_identify_pause  # type: ignore[method-assign]
    register(COUNT)
    logging.getLogger("playpost.pace").setLevel(logging.DEBUG)  # the test counts ticks
    sys.exit(main(sys.argv[2:]))
