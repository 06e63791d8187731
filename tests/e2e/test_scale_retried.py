"""An interaction delivered twice to one process (a gateway session resumed and replaying it) is applied once:
Discord takes one acknowledgement per interaction, and the copy that loses stays silent."""
from __future__ import annotations

import asyncio

from .conftest import USERS
from .discord_double import DiscordDouble, Interaction, settle
from .test_discord_e2e import board_message, button, live, open_count


async def answered(double: DiscordDouble, inter: Interaction, copies: int) -> list[int]:
    """The statuses of the callbacks, once every copy of the interaction has tried one (then settled)."""
    def calls() -> list[int]:
        return [c.status for c in double.calls if c.path == f"/interactions/{inter.id}/{inter.token}/callback"]

    async def wait() -> None:
        while len(calls()) < copies:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(wait(), 30)
    await settle()
    return calls()


async def test_a_slash_command_delivered_twice_moves_once_and_answers_once(harness):
    await open_count(harness, "bob")
    before = await live(harness)
    inter, payload = harness.double.command_payload(USERS["ann"], "Ann", "count", "end", {})  # posts a board
    await harness.double.dispatch("INTERACTION_CREATE", payload)
    await harness.double.dispatch("INTERACTION_CREATE", payload)
    await harness.double.run(inter, payload)  # a third copy
    calls = await answered(harness.double, inter, 3)
    assert calls[0] == 200 and set(calls[1:]) == {400}
    board_message(inter)
    assert len(inter.messages) == 1
    assert [e.action for e in await harness.bot.manager.storage.log(before.id)] == ["end"]


async def test_a_click_delivered_twice_moves_once_and_answers_once(harness):
    start = await open_count(harness, "bob")
    before = await live(harness)
    inter, payload = harness.click_payload("ann", start, button(start, "end"))  # posts a board
    await harness.double.dispatch("INTERACTION_CREATE", payload)
    await harness.double.run(inter, payload)
    calls = await answered(harness.double, inter, 2)
    assert calls[0] == 200 and set(calls[1:]) == {400}
    board_message(inter)
    assert len(inter.messages) == 1
    assert [e.action for e in await harness.bot.manager.storage.log(before.id)] == ["end"]
