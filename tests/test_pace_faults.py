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


def test_a_deadline_shorter_than_the_reminder_interval_still_gets_a_reminder_halfway():
    """`/game settings deadline:12` with reminders every 24 h used to remind never before the deadline (the
    slots were counted back from it in 24 h steps); now one falls halfway. 48 h / 24 h is as before."""
    from bot.pace import latest_slot

    h = 3600.0
    deadline = 100 * h
    assert latest_slot(deadline, 12 * h, 24 * h, deadline - 7 * h) is None  # 5 h after the move: nothing yet
    assert latest_slot(deadline, 12 * h, 24 * h, deadline - 5 * h) == deadline - 6 * h  # halfway
    assert latest_slot(deadline, 48 * h, 24 * h, deadline - 23 * h) == deadline - 24 * h
    assert latest_slot(deadline, 48 * h, 24 * h, deadline - 25 * h) is None
    assert latest_slot(deadline, 12 * h, 24 * h, deadline + 30 * h) == deadline + 24 * h  # overdue: every 24 h
