"""Rules work stays off the event loop (issue 12), in the commands besides a move too: after a restart `/game undo`
replays the log, `/game export` parses the state and writes the JSON, `/game history` parses finished states, a
rebuild replays every live game, a reminder works out who is late and the buttons under it, and `/game start`
sets the game up. Each of these runs in a rules worker thread; the loop only awaits it.

The `count` engine's own work is watched (setup, parse, dump, apply: a replay is applies; the legal actions
behind buttons): any of it on the loop's thread fails the test, whatever the timing."""
from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator

import pytest

from bot.manager import GameManager
from bot.pace import Pace
from bot.records import rebuild_all
from bot.reply import Context
from games._template import ENGINE as COUNT
from storage import open_storage


def ctx(user: str, channel: str = "c1") -> Context:
    return Context(channel_id=channel, user_id=user, user_name=user.title())


@pytest.fixture
def on_loop(monkeypatch):
    """The names of the `count` engine's methods called on the loop's (this test's) thread."""
    loop_thread = threading.current_thread()
    seen: list[str] = []
    for name in ("setup", "load", "dump", "apply", "legal_actions"):
        real = getattr(COUNT, name)

        def watched(*args, _real=real, _name=name, **kwargs):
            if threading.current_thread() is loop_thread:
                seen.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(COUNT, name, watched)
    return seen


@contextlib.asynccontextmanager
async def opened(db: str, clock) -> AsyncIterator[GameManager]:
    """A manager on the database file `db`, closed even when the test fails (an open connection's thread
    would keep the test process from exiting)."""
    m = GameManager(await open_storage(db), clock=clock, render=False)
    try:
        yield m
    finally:
        await m.storage.close()


async def played(db: str, clock) -> None:
    """A game of `count` in channel c1 with two actions of Ann's turn, and a finished one in c2."""
    async with opened(db, clock) as m:
        for ch in ("c1", "c2"):
            await m.dispatch(ctx("ann", ch), "game", "new", {"game": "count", "seed": 5})
            await m.dispatch(ctx("bob", ch), "game", "join", {"colour": "blue"})
            r = await m.dispatch(ctx("ann", ch), "game", "start", {})
            assert not r.ephemeral, r.text
        await m.dispatch(ctx("ann"), "count", "add", {"n": "2"})
        await m.dispatch(ctx("ann"), "count", "add", {"n": "1"})
        for turn in range(20):  # c2 played to its end: four points a turn, 12 wins
            if await m.storage.live_game("c2") is None:
                break
            for cmd, args in (("add", {"n": "2"}), ("add", {"n": "2"}), ("end", {})):
                await m.dispatch(ctx(("ann", "bob")[turn % 2], "c2"), "count", cmd, args)
        assert await m.storage.live_game("c2") is None


async def test_undo_after_a_restart_replays_the_log_in_a_rules_worker(tmp_path, clock, on_loop):
    db = str(tmp_path / "u.sqlite3")
    await played(db, clock)
    async with opened(db, clock) as m:  # a restart: no state kept for undo
        on_loop.clear()
        r = await m.dispatch(ctx("ann"), "game", "undo", {})
        assert not r.ephemeral and "takes back `add n:1`" in r.text, r.text
        r = await m.dispatch(ctx("ann"), "game", "undo", {})  # from the log again: the state before it was not kept
        assert not r.ephemeral and "takes back `add n:2`" in r.text, r.text
        assert on_loop == []
        r = await m.dispatch(ctx("ann"), "game", "undo", {})  # refused in the worker: the reply says why
        assert r.ephemeral and "nothing to undo" in r.text.lower(), r.text


async def test_start_and_undo_within_a_turn_from_the_kept_json(tmp_path, clock, on_loop):
    """The game is set up in a worker; the states kept for the turn under way are the saved JSON (no objects for
    the garbage collector to scan), parsed by the worker when an undo asks for one."""
    async with opened(str(tmp_path / "k.sqlite3"), clock) as m:
        await m.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
        await m.dispatch(ctx("bob"), "game", "join", {"colour": "blue"})
        on_loop.clear()
        r = await m.dispatch(ctx("ann"), "game", "start", {})
        assert not r.ephemeral and "begins" in r.text, r.text
        before = (await m.storage.live_game("c1")).state
        await m.dispatch(ctx("ann"), "count", "add", {"n": "2"})
        rec = await m.storage.live_game("c1")
        assert [text for _, _, text in m.table.undo_states[rec.id]] == [before]
        r = await m.dispatch(ctx("ann"), "game", "undo", {})
        assert not r.ephemeral, r.text
        assert (await m.storage.live_game("c1")).state == before
        assert on_loop == []


async def test_export_history_and_rebuild_do_their_rules_work_in_a_worker(tmp_path, clock, on_loop):
    db = str(tmp_path / "e.sqlite3")
    await played(db, clock)
    async with opened(db, clock) as m:
        on_loop.clear()
        r = await m.dispatch(ctx("ann"), "game", "export", {})
        assert r.files and b'"log"' in r.files[0].data, r.text
        r = await m.dispatch(ctx("ann", "c2"), "game", "history", {})
        assert r.text.startswith("#2 Count (Ann, Bob): Game over: Ann wins."), r.text
        assert [status for _, status in await rebuild_all(m, write=False)] == ["unchanged"]
        assert on_loop == []


async def test_a_reminder_works_out_its_status_and_buttons_in_a_worker(tmp_path, clock, on_loop):
    db = str(tmp_path / "r.sqlite3")
    await played(db, clock)
    clock.now += 3 * 24 * 3600  # Ann's deadline passed long ago
    async with opened(db, clock) as m:  # a restart: the state is parsed afresh
        posted = []

        async def post(nudge):
            posted.append(nudge)

        on_loop.clear()
        await Pace(m, post, clock=clock).tick_safely()
        assert [(n.rec.channel_id, n.to_act) for n in posted] == [("c1", ["ann"])], posted
        assert posted[0].buttons, "the reminder carries the moves' buttons"
        assert on_loop == []
