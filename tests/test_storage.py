"""storage/: migrations, one live game per channel, version-guarded writes, the log."""
from __future__ import annotations

import pytest

from storage import ChannelBusy, GameRecord, LogEntry, SQLiteStorage, StaleVersion


@pytest.fixture
async def store(tmp_path):
    s = SQLiteStorage(tmp_path / "s.sqlite3")
    await s.open()
    yield s
    await s.close()


def rec(channel="c1") -> GameRecord:
    return GameRecord(channel_id=channel, kind="count", host_id="ann", seed=1)


async def test_migrations_set_user_version_and_wal(store, tmp_path):
    assert await store.schema_version() == 1
    async with store.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    # opening again applies nothing twice
    again = SQLiteStorage(tmp_path / "s.sqlite3")
    await again.open()
    assert await again.schema_version() == 1
    await again.close()


async def test_one_live_game_per_channel(store):
    g = await store.create_game(rec())
    with pytest.raises(ChannelBusy):
        await store.create_game(rec())
    await store.create_game(rec("c2"))  # another channel (or thread) is independent
    await store.update_game(g, g.version, status="finished")
    await store.create_game(rec())  # archived games free the channel


async def test_stale_version_is_refused_never_overwritten(store):
    g = await store.create_game(rec())
    g2 = await store.update_game(g, 0, state='{"a":1}')
    assert g2.version == 1
    with pytest.raises(StaleVersion):
        await store.append_action(g, 0, LogEntry(seq=1, player="ann", action="end"), '{"a":2}')
    fresh = await store.get_game(g.id)
    assert fresh.state == '{"a":1}' and fresh.version == 1
    assert await store.log(g.id) == []  # the refused action was not logged either


async def test_append_and_undo_keep_the_log(store):
    g = await store.create_game(rec())
    g = await store.append_action(g, g.version, LogEntry(seq=1, player="ann", action="add n:1"), "{}")
    g = await store.append_action(g, g.version, LogEntry(seq=2, player="ann", action="add n:2"), "{}")
    g = await store.mark_undone(g, g.version, 2, "{}")
    assert [e.action for e in await store.log(g.id)] == ["add n:1"]
    all_entries = await store.log(g.id, include_undone=True)
    assert [e.undone for e in all_entries] == [False, True]
    assert await store.next_seq(g.id) == 3


async def test_history_and_due(store):
    g = await store.create_game(rec())
    g = await store.update_game(g, g.version, status="active", deadline_at=100.0)
    assert [x.id for x in await store.due(150.0)] == [g.id]
    assert await store.due(50.0) == []
    await store.update_game(g, g.version, status="finished")
    assert [x.id for x in await store.history("c1")] == [g.id]


async def test_meta_writes_leave_the_version_alone(store):
    """Transport bookkeeping (status message ids, votes) must not make the board's buttons stale."""
    g = await store.create_game(rec())
    g = await store.update_game(g, g.version, meta={"a": 1})
    merged = await store.update_meta(g.id, {"status_message": "42"})
    assert merged == {"a": 1, "status_message": "42"}
    fresh = await store.get_game(g.id)
    assert fresh.version == g.version and fresh.meta == merged


async def test_import_games_keeps_records_and_logs_in_one_transaction(store):
    done = rec("c1").model_copy(update={"status": "finished", "state": '{"n": 3}', "version": 7,
                                        "created_at": 10.0, "updated_at": 20.0})
    live = rec("c1").model_copy(update={"status": "active", "state": '{"n": 1}', "version": 2})
    log = [LogEntry(seq=1, player="ann", action="roll", turn_key="t1", barrier=True, at=11.0),
           LogEntry(seq=2, player="ann", action="add n:1", at=12.0, undone=True)]
    a, b = await store.import_games([(done, log), (live, log[:1])])
    assert (a.id, b.id) == (1, 2)
    assert await store.get_game(a.id) == a and a.model_dump(exclude={"id"}) == done.model_dump(exclude={"id"})
    assert await store.live_game("c1") == b
    assert await store.log(a.id, include_undone=True) == log
    assert await store.log(b.id) == log[:1]
    assert await store.next_seq(a.id) == 3
    # a second live game in the channel: nothing of the batch is stored
    with pytest.raises(ChannelBusy):
        await store.import_games([(rec("c2"), log), (live, [])])
    assert await store.live_game("c2") is None
    assert await store.log(3, include_undone=True) == []
