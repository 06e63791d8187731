"""bot/pipeline.py and the apply path under a burst: bounded stages, coalesced boards, replies in order.

Nothing here is timed: drawing is held at a gate the test opens, and the tests wait for states
(a board started, boards coalesced), not for durations.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
from collections.abc import Callable
from typing import Any

import pytest

from bot.manager import GameManager
from bot.pipeline import Limits, Stage
from bot.reply import Context, Reply
from storage import open_storage


async def until(cond: Callable[[], bool], what: str) -> None:
    """Wait (yielding to the loop) until `cond()` holds; fails only if it never does."""
    for _ in range(2000):
        if cond():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never happened: {what}")


def ctx(user: str, *, later: bool = False, channel: str = "c1") -> Context:
    return Context(channel_id=channel, user_id=user, user_name=user.title(), image_later=later)


class GatedDraw:
    """Stands in for drawing a board: records the state it was asked to draw, then waits for the gate."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.drawn: list[str] = []  # the stored form of each state drawn, in order

    async def __call__(self, kind: str, engine: Any, state: Any) -> bytes:
        self.drawn.append(engine.dump(state))
        n = len(self.drawn)
        await self.gate.wait()
        return b"PNG board %d" % n


@pytest.fixture
async def gated(tmp_path):
    store = await open_storage(str(tmp_path / "p.sqlite3"))
    mgr = GameManager(store, render=True)
    draw = GatedDraw()
    mgr.table._draw = draw  # type: ignore[method-assign]
    await mgr.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
    await mgr.dispatch(ctx("bob"), "game", "join", {})
    draw.gate.set()  # the start board is drawn at once
    start = await mgr.dispatch(ctx("ann"), "game", "start", {})
    assert not start.ephemeral, start.text
    draw.gate.clear()
    draw.drawn.clear()
    yield mgr, draw
    mgr.close()
    await store.close()


# a burst in one channel: ann adds twice and ends her turn, then bob adds (each legal only after the one before)
BURST = [("ann", "add", {"n": "1"}), ("ann", "add", {"n": "1"}), ("ann", "end", {}), ("bob", "add", {"n": "2"})]
TEXTS = ["Ann adds 1.", "Ann adds 1.", "Ann ends the turn.", "Bob adds 2."]


async def burst(mgr: GameManager, draw: GatedDraw, *, later: bool) -> tuple[list[Reply], list[int]]:
    """The first move's board starts drawing; the other three moves arrive while it draws."""
    finished: list[int] = []  # the order in which the replies left the manager

    def send(i: int) -> asyncio.Task[Reply]:
        who, cmd, opts = BURST[i]
        task = asyncio.create_task(mgr.dispatch(ctx(who, later=later), "count", cmd, opts))
        task.add_done_callback(lambda _: finished.append(i))
        return task

    first = send(0)
    await until(lambda: len(draw.drawn) == 1, "the first board starts drawing")
    rest = [send(i) for i in range(1, len(BURST))]
    # the second and third boards wait for a render slot and are taken over by the newer ones
    await until(lambda: mgr.table.boards.coalesced == 2, "two waiting boards superseded")
    draw.gate.set()
    replies = await asyncio.gather(first, *rest)
    return list(replies), finished


async def test_a_burst_draws_only_the_channels_newest_board_and_every_move_gets_its_text_in_order(gated):
    mgr, draw = gated
    replies, finished = await burst(mgr, draw, later=False)
    assert finished == [0, 1, 2, 3]
    assert [r.text.removeprefix(r.recap).strip().splitlines()[0] for r in replies] == TEXTS
    assert all(not r.ephemeral and r.game_id is not None for r in replies)
    # two boards drawn for four moves: the one already drawing, then the newest state of the channel
    rec = await mgr.storage.live_game("c1")
    assert rec is not None and len(draw.drawn) == 2 and draw.drawn[-1] == rec.state
    assert [r.image for r in replies] == [b"PNG board 1", None, None, b"PNG board 2"]
    assert [e.action for e in await mgr.storage.log(rec.id)] == ["add n:1", "add n:1", "end", "add n:2"]


async def test_with_images_later_the_texts_leave_at_once_and_the_newest_board_follows(gated):
    mgr, draw = gated
    finished: list[int] = []
    replies: list[Reply] = []
    for i, (who, cmd, opts) in enumerate(BURST):  # a player who clicks again as soon as the text is in
        replies.append(await mgr.dispatch(ctx(who, later=True), "count", cmd, opts))
        finished.append(i)
    assert [r.text.removeprefix(r.recap).strip().splitlines()[0] for r in replies] == TEXTS
    assert all(r.image is None and r.board is not None for r in replies)
    assert [r.board.superseded for r in replies if r.board] == [False, True, True, False]
    assert len(draw.drawn) == 1  # only the first board started; the newest waits for the slot
    draw.gate.set()
    images = [await r.board.image() for r in replies if r.board]
    assert images == [b"PNG board 1", None, None, b"PNG board 2"]
    rec = await mgr.storage.live_game("c1")
    assert rec is not None and draw.drawn[-1] == rec.state


async def test_moves_made_one_after_another_each_get_their_own_board(gated):
    mgr, draw = gated
    draw.gate.set()
    for who, cmd, opts in BURST:
        r = await mgr.dispatch(ctx(who), "count", cmd, opts)
        assert r.image is not None
    assert len(draw.drawn) == len(BURST) and mgr.table.boards.coalesced == 0


async def test_a_full_stage_makes_the_submitter_wait_and_drops_nothing() -> None:
    pool = concurrent.futures.ThreadPoolExecutor(1)
    stage = Stage("test", slots=1, queue=1, executor=pool)
    gate = threading.Event()

    def job(n: int) -> int:
        gate.wait(10)
        return n * 10

    try:
        tasks = [asyncio.create_task(stage.run(job, n)) for n in range(4)]
        await until(lambda: stage.running == 1 and stage.waiting == 1 and stage.blocked == 2,
                    "one job running, one queued, two submitters waiting for room")
        assert not any(t.done() for t in tasks)
        gate.set()
        assert await asyncio.gather(*tasks) == [0, 10, 20, 30]
        assert stage.peak_waiting == 1  # the queue never held more than its size
        assert (stage.running, stage.waiting, stage.blocked) == (0, 0, 0)
    finally:
        gate.set()
        pool.shutdown(wait=True)


async def test_moves_of_many_channels_through_one_apply_slot_all_apply(tmp_path) -> None:
    store = await open_storage(str(tmp_path / "s.sqlite3"))
    mgr = GameManager(store, render=False, limits=Limits(apply_slots=1, rules_workers=1, queue=0))
    try:
        channels = [f"c{i}" for i in range(6)]
        for ch in channels:
            await mgr.dispatch(ctx("ann", channel=ch), "game", "new", {"game": "count", "seed": 3})
            await mgr.dispatch(ctx("bob", channel=ch), "game", "join", {})
            await mgr.dispatch(ctx("ann", channel=ch), "game", "start", {})
        replies = await asyncio.gather(*[mgr.dispatch(ctx("ann", channel=ch), "count", "add", {"n": "2"})
                                         for ch in channels])
        firsts = [r.text.removeprefix(r.recap).strip().splitlines()[0] for r in replies]
        assert firsts == ["Ann adds 2."] * len(channels)
        assert mgr.table.apply.peak_waiting == 0 and mgr.table.apply.running == 0
        for ch in channels:
            rec = await store.live_game(ch)
            assert rec is not None and [e.action for e in await store.log(rec.id)] == ["add n:2"]
    finally:
        mgr.close()
        await store.close()


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no scheduling priorities here")
def test_render_processes_run_at_a_lower_priority_than_the_bot() -> None:
    """Drawing is background work: the bot's render processes give way to its event loop (bot/runtime.py)."""
    from bot.runtime import RENDER_NICE
    from bot.table import Table

    table = Table(storage=None, render_workers=1)  # type: ignore[arg-type]
    try:
        assert table._pool is not None
        worker_nice = table._pool.submit(os.nice, 0).result(timeout=60)
    finally:
        table.close()
    assert worker_nice >= min(19, os.nice(0) + RENDER_NICE)
