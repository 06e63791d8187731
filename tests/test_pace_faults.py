"""Deadlines while the database refuses: each tick is skipped quietly (the storage logged the cause once),
no traceback every minute, and the next tick after the fault clears works as usual."""
from __future__ import annotations

import logging

from bot.pace import Pace
from storage import StorageUnavailable


async def test_a_refusing_database_skips_the_tick_without_a_traceback_and_the_next_tick_works(manager, caplog):
    posted = []

    async def post(nudge):
        posted.append(nudge)

    pace = Pace(manager, post, clock=lambda: 1_767_225_600.0)
    real_due = manager.storage.due
    refusing = {"on": True}

    async def due(now):
        if refusing["on"]:
            raise StorageUnavailable("database or disk is full", writing=False)
        return await real_due(now)

    manager.storage.due = due
    caplog.set_level(logging.INFO, logger="playpost")
    for _ in range(3):
        await pace.tick_safely()
    skipped = [r for r in caplog.records if "event=pace_tick_skipped" in r.getMessage()]
    assert len(skipped) == 3 and not any(r.exc_info for r in caplog.records), "no traceback for a storage fault"
    refusing["on"] = False
    caplog.clear()
    await pace.tick_safely()
    assert not [r for r in caplog.records if "pace_tick" in r.getMessage()] and posted == []


async def test_an_unexpected_error_in_a_tick_is_still_logged_with_its_traceback(manager, caplog):
    async def post(nudge):
        pass

    pace = Pace(manager, post)

    async def broken(now):
        raise RuntimeError("a bug")

    manager.storage.due = broken
    await pace.tick_safely()
    failed = [r for r in caplog.records if "event=pace_tick_failed" in r.getMessage()]
    assert len(failed) == 1 and failed[0].exc_info is not None
