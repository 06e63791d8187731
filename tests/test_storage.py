"""storage/: migrations, one live game per channel, version-guarded writes, the log; on SQLite and PostgreSQL."""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import asyncpg
import pytest

import storage.postgres
import storage.sqlite
from bot.manager import GameManager
from bot.reply import Context
from storage import ChannelBusy, GameRecord, LogEntry, PostgresStorage, SQLiteStorage, StaleVersion, open_storage
from storage.postgres import is_postgres_url, split_schema


@pytest.fixture
async def store(database):
    s = await open_storage(database)
    yield s
    await s.close()


def rec(channel="c1") -> GameRecord:
    return GameRecord(channel_id=channel, kind="count", host_id="ann", seed=1)


async def test_migrations_set_user_version_and_wal(store, database):
    latest = len(storage.sqlite.MIGRATIONS if isinstance(store, SQLiteStorage) else storage.postgres.MIGRATIONS)
    assert await store.schema_version() == latest
    if isinstance(store, SQLiteStorage):
        async with store.db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
    # opening again applies nothing twice
    again = await open_storage(database)
    assert await again.schema_version() == latest
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


async def test_a_moves_public_text_is_kept_with_it_and_a_log_from_before_reads_as_empty(store, database, tmp_path):
    """The recap under a ping reads what each move said (`LogEntry.said`); it round-trips on both backends,
    through `import_games` too, and a database made before the column existed gets it, empty, by migration."""
    g = await store.create_game(rec())
    g = await store.append_action(g, g.version, LogEntry(seq=1, player="ann", action="add n:1", said="Ann adds 1."),
                                  "{}")
    assert [(e.action, e.said) for e in await store.log(g.id)] == [("add n:1", "Ann adds 1.")]
    [copied] = await store.import_games([(rec("c9"), await store.log(g.id))])
    assert [e.said for e in await store.log(copied.id)] == ["Ann adds 1."]
    if isinstance(store, SQLiteStorage):  # an old file: migrations 1-3 only, one logged move
        import aiosqlite
        path = tmp_path / "old.sqlite3"
        async with aiosqlite.connect(path) as db:
            for script in storage.sqlite.MIGRATIONS[:3]:
                await db.executescript(script)
            await db.execute("PRAGMA user_version = 3")
            await db.execute("INSERT INTO games (channel_id, kind, status, host_id, seed, created_at, updated_at)"
                             " VALUES ('c1', 'count', 'active', 'ann', 1, 0, 0)")
            await db.execute("INSERT INTO actions (game_id, seq, player, action, at) VALUES (1, 1, 'ann', 'end', 0)")
            await db.commit()
        old = await open_storage(str(path))
        try:
            assert [(e.action, e.said) for e in await old.log(1)] == [("end", "")]
        finally:
            await old.close()


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


# ---- what several processes sharing one database need (run on both backends; PostgreSQL is the point) ----------
@pytest.fixture
async def other(database):
    """A second storage on the same database: another bot process, as far as the database can tell."""
    s = await open_storage(database)
    yield s
    await s.close()


async def test_concurrent_writers_at_one_version_exactly_one_wins(store, other):
    g = await store.create_game(rec())
    for round_ in range(10):
        v = g.version
        entries = [LogEntry(seq=round_ + 1, player=p, action=f"move {p}") for p in ("ann", "bob", "cid", "dee")]
        stores = [store, other] * 2
        writers = [s.append_action(g, v, e, f'{{"by":"{e.player}"}}') for s, e in zip(stores, entries, strict=True)]
        results = await asyncio.gather(*writers, return_exceptions=True)
        won = [r for r in results if isinstance(r, GameRecord)]
        assert len(won) == 1 and all(isinstance(r, StaleVersion) for r in results if r is not won[0]), results
        g = won[0]
        assert g.version == v + 1
    log = await other.log(g.id)
    assert [e.seq for e in log] == list(range(1, 11))  # one entry per round: the losers logged nothing
    fresh = await other.get_game(g.id)
    assert fresh.version == 10 and fresh.state == f'{{"by":"{log[-1].player}"}}'


async def test_two_live_games_in_one_channel_are_refused_under_concurrency(store, other):
    results = await asyncio.gather(*[s.create_game(rec()) for s in [store, other] * 4], return_exceptions=True)
    made = [r for r in results if isinstance(r, GameRecord)]
    assert len(made) == 1 and sum(isinstance(r, ChannelBusy) for r in results) == 7, results
    assert [g.id for g in await other.live_games()] == [made[0].id]


async def test_concurrent_meta_patches_are_all_kept(store):
    g = await store.create_game(rec())
    await asyncio.gather(*[store.update_meta(g.id, {f"k{i}": i}) for i in range(12)])
    fresh = await store.get_game(g.id)
    assert fresh.meta == {f"k{i}": i for i in range(12)} and fresh.version == g.version


async def test_a_move_and_a_meta_write_at_once_both_land(store, other):
    g = await store.create_game(rec())
    moved, meta = await asyncio.gather(
        store.append_action(g, g.version, LogEntry(seq=1, player="ann", action="end"), '{"a":1}'),
        other.update_meta(g.id, {"status_message": "42"}),
    )
    fresh = await store.get_game(g.id)
    assert fresh.version == moved.version == 1 and fresh.state == '{"a":1}' and fresh.meta == meta


async def test_a_game_plays_through_the_manager(store, other, clock):
    """The manager's one apply path on each backend: start, moves, a stale button; another process resumes."""
    m = GameManager(store, clock=clock, seed_source=lambda: 7)
    ann = Context(channel_id="c1", user_id="ann", user_name="Ann")
    await m.dispatch(ann, "game", "new", {"game": "count", "seed": 5})
    await m.dispatch(Context(channel_id="c1", user_id="bob", user_name="Bob"), "game", "join", {})
    started = await m.dispatch(ann, "game", "start", {})
    assert not started.ephemeral, started.text
    assert not (await m.dispatch(ann, "count", "add", {"n": "1"})).ephemeral
    stale = await m.press(ann, started.version, "add n:2")
    assert stale.ephemeral and "out of date" in stale.text
    live = await store.live_game("c1")
    assert not (await m.press(ann, live.version, "add n:2")).ephemeral
    before = await store.live_game("c1")
    m2 = GameManager(other, clock=clock)
    again = await other.live_game("c1")
    assert again == before and [e.action for e in await other.log(again.id)] == ["add n:1", "add n:2"]
    assert (await m2.rebuild_from_log(again)).model_dump_json() == again.state


# ---- PostgreSQL only ------------------------------------------------------------------------------------------
pg = pytest.mark.postgres


@pg
async def test_pg_migrations_applied_once_by_concurrent_openers(pg_url):
    stores = await asyncio.gather(*[open_storage(pg_url) for _ in range(3)])
    try:
        assert all(isinstance(s, PostgresStorage) for s in stores)
        latest = len(storage.postgres.MIGRATIONS)
        assert [await s.schema_version() for s in stores] == [latest] * 3
        rows = await stores[0].pool.fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [r["version"] for r in rows] == list(range(1, latest + 1))
    finally:
        for s in stores:
            await s.close()


@pg
async def test_pg_action_log_is_append_only(pg_url):
    store = await open_storage(pg_url)
    assert isinstance(store, PostgresStorage)
    try:
        g = await store.create_game(rec())
        g = await store.append_action(g, g.version, LogEntry(seq=1, player="ann", action="add n:1"), "{}")
        g = await store.mark_undone(g, g.version, 1, "{}")
        for sql in ("DELETE FROM actions", "TRUNCATE actions", "UPDATE actions SET action = 'end'",
                    "UPDATE actions SET undone = FALSE", "UPDATE actions SET said = 'rewritten'"):
            with pytest.raises(asyncpg.RestrictViolationError):
                await store.pool.execute(sql)
        assert [(e.action, e.undone) for e in await store.log(g.id, include_undone=True)] == [("add n:1", True)]
    finally:
        await store.close()


@pg
async def test_pg_a_writer_waits_for_a_move_in_flight_then_is_refused(pg_url):
    """Another process holds the row mid-move: our guarded write waits on the lock, re-reads, and is refused."""
    store = await open_storage(pg_url)
    assert isinstance(store, PostgresStorage)
    try:
        g = await store.create_game(rec())
        async with store.pool.acquire() as conn:
            tx = conn.transaction()
            await tx.start()
            await conn.execute("UPDATE games SET version = version + 1, state = 'theirs' WHERE id = $1", g.id)
            ours = asyncio.ensure_future(store.append_action(g, 0, LogEntry(seq=1, player="ann", action="end"), "ours"))
            await asyncio.sleep(0.2)
            assert not ours.done()  # blocked on the row lock, not deciding on a stale read
            await tx.commit()
        with pytest.raises(StaleVersion):
            await ours
        fresh = await store.get_game(g.id)
        assert fresh.state == "theirs" and fresh.version == 1 and await store.log(g.id) == []
    finally:
        await store.close()


@pg
async def test_pg_a_lobby_in_flight_holds_the_channel_until_it_commits_or_rolls_back(pg_url):
    store = await open_storage(pg_url)
    try:
        for outcome in ("rollback", "commit"):
            async with store.pool.acquire() as conn:
                tx = conn.transaction()
                await tx.start()
                await conn.execute("INSERT INTO games (channel_id, kind, status, host_id, seed, created_at, updated_at)"
                                   " VALUES ('c1', 'count', 'lobby', 'bob', 1, 0, 0)")
                ours = asyncio.ensure_future(store.create_game(rec()))
                await asyncio.sleep(0.2)
                assert not ours.done()
                await (tx.rollback() if outcome == "rollback" else tx.commit())
            if outcome == "rollback":
                made = await ours  # the other lobby never existed
                await store.update_game(made, made.version, status="abandoned")
            else:
                with pytest.raises(ChannelBusy):
                    await ours
        assert [g.host_id for g in await store.live_games()] == ["bob"]
    finally:
        await store.close()


@pg
async def test_pg_schemas_keep_runs_apart(pg_url):
    """Two schemas on one server are two databases: same channel, no ChannelBusy, separate ids."""
    base, schema = split_schema(pg_url)
    assert schema and "schema=" not in base
    a = await open_storage(pg_url)
    b = PostgresStorage(base, schema=f"{schema}_b")
    await b.open()
    try:
        await a.create_game(rec())
        made = await b.create_game(rec())
        assert made.id == 1 and len(await a.live_games()) == 1 and len(await b.live_games()) == 1
    finally:
        await b.pool.execute(f'DROP SCHEMA "{schema}_b" CASCADE')
        await a.close()
        await b.close()


def test_urls_pick_the_backend_and_schema():
    assert is_postgres_url("postgresql://u@h/db") and is_postgres_url("postgres://u@h/db")
    assert not is_postgres_url("data/playpost.sqlite3") and not is_postgres_url("sqlite:///x.db")
    assert split_schema("postgresql://u@h:5/db?schema=s1&sslmode=disable") == (
        "postgresql://u@h:5/db?sslmode=disable", "s1")
    assert PostgresStorage("postgres://u@h/db?schema=x").schema == "x"
    assert PostgresStorage("postgres://u@h/db?schema=x", schema="y").schema == "y"
    with pytest.raises(ValueError):
        PostgresStorage("postgres://u@h/db", schema='x"; DROP TABLE games; --')


@pg
async def test_pg_a_refused_write_is_answered_not_saved_logged_once_and_recovered(pg_url, caplog, monkeypatch):
    """The server refuses a write (here a full disk, injected into the move's transaction): StorageUnavailable,
    nothing changed, the cause logged once however often it repeats, and the next write that works ends it."""
    from storage import StorageUnavailable

    store = await open_storage(pg_url)
    assert isinstance(store, PostgresStorage)
    try:
        g = await store.create_game(rec())
        real_tx = store._tx
        full = {"on": True}

        @asynccontextmanager
        async def tx():
            async with real_tx() as conn:
                if full["on"]:
                    raise asyncpg.exceptions.DiskFullError("could not extend file: No space left on device")
                yield conn

        monkeypatch.setattr(store, "_tx", tx)
        for _ in range(3):
            with pytest.raises(StorageUnavailable) as refused:
                await store.append_action(g, 0, LogEntry(seq=1, player="ann", action="end"), '{"a":1}')
            assert refused.value.writing and "No space left" in refused.value.cause
        assert sum("event=storage_fault" in r.getMessage() for r in caplog.records) == 1
        assert (await store.get_game(g.id)).version == 0 and await store.log(g.id) == []  # nothing changed
        full["on"] = False
        moved = await store.append_action(g, 0, LogEntry(seq=1, player="ann", action="end"), '{"a":1}')
        assert moved.version == 1 and store.fault is None
        assert any("event=storage_recovered" in r.getMessage() for r in caplog.records)
    finally:
        await store.close()


@pg
async def test_pg_a_dropped_connection_never_escapes_as_an_unexpected_error(pg_url, pg_server):
    """The server drops the bot's connection (a restart, a failover). Whether the pool notices first (the
    write goes through on a new connection) or the write meets the dead one (StorageUnavailable: not saved,
    nothing changed), no other error escapes, the game stays consistent, and the next write works."""
    from storage import StorageUnavailable

    dsn, schema = split_schema(pg_url)
    store = PostgresStorage(dsn, schema=schema, min_size=1, max_size=1)
    await store.open()
    admin = await asyncpg.connect(pg_server)
    try:
        g = await store.create_game(rec())
        pid = await store.pool.fetchval("SELECT pg_backend_pid()")
        await admin.execute("SELECT pg_terminate_backend($1)", pid)
        try:
            g = await store.append_action(g, 0, LogEntry(seq=1, player="ann", action="end"), '{"a":1}')
        except StorageUnavailable:
            assert (await store.get_game(g.id)).version == 0 and await store.log(g.id) == []
        seq = len(await store.log(g.id)) + 1
        moved = await store.append_action(g, g.version, LogEntry(seq=seq, player="ann", action="end"), '{"a":2}')
        assert moved.version == seq and [e.seq for e in await store.log(g.id)] == list(range(1, seq + 1))
    finally:
        await admin.close()
        await store.close()


async def test_sqlite_a_write_cancelled_at_any_await_leaves_no_transaction_open(tmp_path):
    """A writer cancelled while its BEGIN (or a statement after it) is still running in the connection's
    thread must not leave the transaction open: before, every later write failed with 'cannot start a
    transaction within a transaction' and the bot refused all moves (seen in the bench, whose overloaded
    runs cancel the moves still queued at their end). Cancelled after 1, 2, ... loop turns; once twice."""
    s = await open_storage(str(tmp_path / "c.sqlite3"))
    try:
        for turns in range(8):
            for twice in (False, True):
                task = asyncio.create_task(s.create_game(rec(f"gone-{turns}-{twice}")))
                for _ in range(turns):
                    await asyncio.sleep(0)
                task.cancel()
                if twice:
                    await asyncio.sleep(0)
                    task.cancel()
                await asyncio.gather(task, return_exceptions=True)
                made = await s.create_game(rec(f"next-{turns}-{twice}"))
                assert made.id is not None and not s.db.in_transaction
                assert (await s.live_game(f"next-{turns}-{twice}")) is not None
    finally:
        await s.close()
