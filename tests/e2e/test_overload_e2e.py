"""End to end, under load: an interaction is acknowledged before its board is drawn, the board follows.

Drawing is held at a gate the test opens; nothing here is timed.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.discord_adapter import flows

from .test_discord_e2e import PNG, board_message, button, game_buttons, open_count


async def until(cond: Callable[[], bool], what: str) -> None:
    for _ in range(2000):
        if cond():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never happened: {what}")


async def test_a_click_is_acknowledged_before_its_board_is_drawn_and_the_board_is_added_when_ready(harness):
    start = await open_count(harness, "bob")
    inter, payload = harness.click_payload("ann", start, button(start, "end"))  # a new turn: a new message
    gate = asyncio.Event()
    acked_first: list[bool] = []

    async def draw(kind: str, engine: Any, state: Any) -> bytes:
        acked_first.append(inter.callback is not None)
        await gate.wait()
        return PNG + b"the board"

    harness.bot.manager.table._draw = draw
    harness.bot.flows.image_wait = 0.0  # the text does not wait for its board at all
    run = asyncio.create_task(harness.double.run(inter, payload))
    await until(lambda: bool(acked_first) and bool(inter.public), "the move's text posted while its board draws")
    assert acked_first == [True]  # deferred before drawing began
    assert inter.callback is not None and inter.callback["type"] == 6  # deferred as an update: no "thinking" message
    text = inter.public[0]
    assert "Ann ends the turn." in text.content and not text.files and game_buttons(text)
    gate.set()
    await run
    msg = board_message(inter)  # the same message, the board added to it
    assert msg.id == text.id and msg.files["board.png"].startswith(PNG)
    assert not msg.embeds  # a plain attachment
    assert "Ann ends the turn." in msg.content and game_buttons(msg)


async def test_a_click_whose_checks_wait_behind_a_burst_is_acknowledged_anyway(harness, monkeypatch):
    start = await open_count(harness, "bob")
    monkeypatch.setattr(flows, "ACK_WITHIN", 0.01)
    manager = harness.bot.manager
    press = manager.press
    gate = asyncio.Event()
    waiting: list[bool] = []

    async def slow_press(*args: Any, **kwargs: Any) -> Any:
        waiting.append(True)
        await gate.wait()  # the quick checks stuck behind other work
        return await press(*args, **kwargs)

    monkeypatch.setattr(manager, "press", slow_press)
    inter, payload = harness.click_payload("ann", start, button(start, "add n:1"))
    run = asyncio.create_task(harness.double.run(inter, payload))
    await until(lambda: inter.callback is not None, "the click acknowledged while its checks wait")
    assert waiting == [True] and inter.callback is not None and inter.callback["type"] == 6  # deferred update
    gate.set()
    await run
    assert "Ann adds 1." in board_message(inter).content
