"""SIGTERM on the Discord bot (against the double): new commands and clicks are answered "restarting" and change
nothing, the move in flight finishes and is posted, the database is closed and the bot's run ends."""
from __future__ import annotations

import asyncio

from bot.ops import RESTARTING, database_problem, heartbeat_problem
from storage import open_storage

from .conftest import USERS
from .discord_double import Interaction
from .test_discord_e2e import board_message, button, open_count


async def answered(harness, inter: Interaction, payload: dict) -> Interaction:
    """Inject one interaction and wait for its answer only (not for every task of the bot to end)."""
    await harness.double.dispatch("INTERACTION_CREATE", payload)
    await asyncio.wait_for(inter.done.wait(), 30)
    return inter


async def test_sigterm_refuses_new_commands_finishes_the_move_in_flight_and_closes(harness, monkeypatch):
    start = await open_count(harness, "bob")
    bot = harness.bot
    store = bot.manager.storage
    entered, release = asyncio.Event(), asyncio.Event()
    append = store.append_action

    async def held_append(*args, **kwargs):  # the move is in flight, inside its transaction's call
        entered.set()
        await release.wait()
        return await append(*args, **kwargs)

    monkeypatch.setattr(store, "append_action", held_append)
    in_flight = asyncio.create_task(harness.cmd("ann", "count", "add", n="2"))
    await asyncio.wait_for(entered.wait(), 30)
    assert bot.gate.in_flight == 1
    stopping = bot.begin_shutdown()  # what SIGTERM calls
    refused = await answered(harness, *harness.double.command_payload(USERS["bob"], "Bob", "game", "status", {}))
    assert [m.content for m in refused.private] == [RESTARTING] and not refused.public
    clicked = await answered(harness, *harness.click_payload("ann", start, button(start, "add n:1")))
    assert [m.content for m in clicked.private] == [RESTARTING] and not clicked.public
    assert not stopping.done()  # it waits for the move in flight
    release.set()
    moved = board_message(await in_flight)
    assert "Ann adds 2." in moved.content
    await asyncio.wait_for(stopping, 30)
    await asyncio.wait_for(harness.task, 30)  # the bot's run returns: the process would exit 0
    harness.task = None
    assert bot.is_closed() and bot.manager is None
    assert not (harness.db.parent / "heartbeat").exists()  # a stopped bot does not look connected
    again = await open_storage(str(harness.db))
    try:
        rec = await again.live_game(start.channel_id)
        assert [e.action for e in await again.log(rec.id)] == ["add n:2"]
    finally:
        await again.close()


async def test_the_connected_bot_keeps_a_fresh_heartbeat_and_its_database_passes_the_health_write(harness):
    beat = harness.db.parent / "heartbeat"  # beside the database when PLAYPOST_HEARTBEAT is unset
    for _ in range(3000):
        if beat.exists():
            break
        await asyncio.sleep(0.01)
    assert heartbeat_problem(beat, max_age=120) is None
    # the health write goes through while the bot holds the database open and plays
    await open_count(harness, "bob")
    assert await asyncio.to_thread(database_problem, str(harness.db)) is None
    assert board_message(await harness.cmd("ann", "count", "add", n="1"))
