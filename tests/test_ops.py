"""Durability and operations: storage faults answered clearly and survived, integrity at open, closed cursors,
backups (online, scheduled, restored and replayed), restore, the health check, SIGTERM on a real process."""
from __future__ import annotations

import asyncio
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import aiosqlite
import pytest

from bot import ops
from bot.cli import main
from bot.console import Console
from bot.manager import GameManager
from bot.reply import Context
from storage import GameRecord, SQLiteStorage, StorageDamaged, open_storage
from storage.sqlite import MIGRATIONS

ROOT = Path(__file__).resolve().parents[1]
ANN = Context(channel_id="c1", user_id="ann", user_name="Ann")
BOB = Context(channel_id="c1", user_id="bob", user_name="Bob")


@pytest.fixture
async def store(tmp_path):
    """A SQLite storage of the test's own, closed even when the test fails (an open one keeps pytest alive)."""
    s = await open_storage(str(tmp_path / "t.sqlite3"))
    yield s
    await s.close()


async def q(db: aiosqlite.Connection, sql: str, args: tuple = ()) -> tuple | None:
    async with db.execute(sql, args) as cur:
        return await cur.fetchone()


async def started(store, clock, channel: str = "c1", seed: int = 7) -> GameManager:
    m = GameManager(store, clock=clock, seed_source=lambda: seed, render=False)
    ann, bob = (Context(channel_id=channel, user_id=u, user_name=u.title()) for u in ("ann", "bob"))
    await m.dispatch(ann, "game", "new", {"game": "count"})
    await m.dispatch(bob, "game", "join", {})
    assert not (await m.dispatch(ann, "game", "start", {})).ephemeral
    return m


async def snapshot(store) -> tuple:
    rec = await store.live_game("c1")
    return rec.version, rec.state, [e.action for e in await store.log(rec.id, include_undone=True)]


async def fill_to_the_cap(db: aiosqlite.Connection) -> None:
    """A full disk: the file may not grow, and the last page of the action log is packed to the brim."""
    pages = (await q(db, "PRAGMA page_count"))[0]
    await q(db, f"PRAGMA max_page_count = {pages + 2}")
    await q(db, "INSERT INTO games (channel_id, kind, status, host_id, seed, created_at, updated_at)"
                " VALUES ('filler', 'count', 'finished', 'x', 1, 0, 0)")
    filler = (await q(db, "SELECT max(id) FROM games"))[0]
    size, seq = 3000, 1
    while size >= 1:
        try:
            await q(db, "INSERT INTO actions VALUES (?, ?, 'x', ?, '', 0, 0, 0, '')", (filler, seq, "x" * size))
            seq += 1
        except sqlite3.OperationalError as exc:
            assert "full" in str(exc)
            size //= 2


# ---- defect 8: cursors ------------------------------------------------------------------------------------------
async def test_migrations_commit_while_something_holds_every_cursor(tmp_path, monkeypatch):
    """A host that keeps references to every cursor (a Discord simulator did) must not leave a statement in
    progress: the first migration's COMMIT failed with `SQL statements in progress` while the cursor of
    `PRAGMA journal_mode=WAL` was alive."""
    held: list[aiosqlite.Cursor] = []
    execute = aiosqlite.Connection.execute

    def keeping(self, *args, **kwargs):
        result = execute(self, *args, **kwargs)

        class Kept:
            def __await__(self):
                cur = yield from result.__await__()
                held.append(cur)
                return cur

            async def __aenter__(self):
                cur = await result.__aenter__()
                held.append(cur)
                return cur

            async def __aexit__(self, *exc):
                return await result.__aexit__(*exc)

        return Kept()

    monkeypatch.setattr(aiosqlite.Connection, "execute", keeping)
    store = await open_storage(str(tmp_path / "held.sqlite3"))
    try:
        assert await store.schema_version() == len(MIGRATIONS)  # every migration committed
        g = await store.create_game(GameRecord(channel_id="c", kind="count", host_id="a", seed=1))
        assert (await store.get_game(g.id)).channel_id == "c"
        assert held, "the test saw no cursor at all"
    finally:
        await store.close()


# ---- durability ------------------------------------------------------------------------------------------
async def test_commits_are_durable_synchronous_full_in_wal(tmp_path, monkeypatch):
    monkeypatch.delenv("PLAYPOST_SQLITE_SYNCHRONOUS", raising=False)  # the suite runs NORMAL; the bot runs FULL
    store = await open_storage(str(tmp_path / "d.sqlite3"))
    try:
        assert (await q(store.db, "PRAGMA synchronous"))[0] == 2  # FULL: fsync at every commit, even in WAL
        assert (await q(store.db, "PRAGMA journal_mode"))[0] == "wal"
    finally:
        await store.close()
    monkeypatch.setenv("PLAYPOST_SQLITE_SYNCHRONOUS", "sometimes")
    with pytest.raises(ValueError, match="FULL or NORMAL"):
        await open_storage(str(tmp_path / "d.sqlite3"))


# ---- defect 3: storage errors -------------------------------------------------------------------------------------
async def test_a_full_disk_refuses_the_move_clearly_keeps_reads_and_recovers(store, tmp_path, clock, caplog):
    m = await started(store, clock)
    assert not (await m.dispatch(ANN, "count", "add", {"n": "1"})).ephemeral
    before = await snapshot(store)
    await fill_to_the_cap(store.db)
    caplog.set_level(logging.INFO, logger="playpost")
    for _ in range(2):
        refused = await m.dispatch(ANN, "count", "add", {"n": "1"})
        assert refused.ephemeral and "The move was not saved; nothing changed." in refused.text
        assert "Try again later" in refused.text and "Something went wrong" not in refused.text
    assert await snapshot(store) == before  # nothing half-written
    # reads keep working while the disk is full
    status = await m.dispatch(ANN, "game", "status", {})
    assert "waiting for Ann" in status.text
    faults = [r for r in caplog.records if "event=storage_fault" in r.getMessage()]
    assert len(faults) == 1 and "full" in faults[0].getMessage()  # the cause, once: not per command
    # the disk has room again: the next move is saved, with no restart
    await q(store.db, "PRAGMA max_page_count = 1000000")
    moved = await m.dispatch(ANN, "count", "add", {"n": "1"})
    assert not moved.ephemeral and "Ann adds 1." in moved.text
    assert (await snapshot(store))[2] == before[2] + ["add n:1"]
    assert any("event=storage_recovered" in r.getMessage() for r in caplog.records)
    rec = await store.live_game("c1")
    assert (await m.rebuild_from_log(rec)).model_dump_json() == rec.state


async def test_a_read_only_database_refuses_writes_serves_reads_and_recovers_on_a_fresh_connection(
        store, clock, monkeypatch):
    """A file that is read-only (its permissions, a read-only mount) stays read-only on the connection that
    opened it: after such a refusal the storage opens a fresh connection before the next write."""
    read_only = {"on": False}
    connect = SQLiteStorage._connect

    async def connecting(self):
        db = await connect(self)
        if read_only["on"]:
            await q(db, "PRAGMA query_only = 1")
        return db

    monkeypatch.setattr(SQLiteStorage, "_connect", connecting)
    m = await started(store, clock)
    before = await snapshot(store)
    read_only["on"] = True
    await q(store.db, "PRAGMA query_only = 1")
    for _ in range(2):  # the second attempt is on a fresh connection, read-only too
        refused = await m.dispatch(ANN, "count", "add", {"n": "2"})
        assert refused.ephemeral and "The move was not saved; nothing changed." in refused.text
    assert await snapshot(store) == before
    assert "waiting for Ann" in (await m.dispatch(BOB, "game", "status", {})).text
    read_only["on"] = False
    moved = await m.dispatch(ANN, "count", "add", {"n": "2"})
    assert not moved.ephemeral and "Ann adds 2." in moved.text


def corrupt_copy(src: Path, dest: Path) -> None:
    data = bytearray(src.read_bytes())
    page = 4096
    for i in range(page * 2 + 8, page * 3, 7):  # garble most of the third page (a table's b-tree page)
        data[i] = 0xA5
    dest.write_bytes(bytes(data))


async def make_db(path: Path, clock) -> None:
    store = await open_storage(str(path))
    m = await started(store, clock)
    for n in ("1", "2"):
        await m.dispatch(ANN, "count", "add", {"n": n})
    await store.close()
    # fold the WAL into the file, so its pages are what a copy of the file holds
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


async def test_a_damaged_file_is_refused_at_open_with_the_restore_command(tmp_path, clock, capsys, monkeypatch):
    good = tmp_path / "good.sqlite3"
    await make_db(good, clock)
    bad = tmp_path / "bad.sqlite3"
    corrupt_copy(good, bad)
    with pytest.raises(StorageDamaged) as caught:
        await open_storage(str(bad))
    assert caught.value.path == str(bad)
    monkeypatch.setenv("PLAYPOST_BACKUP_DIR", str(tmp_path / "backups"))
    assert await asyncio.to_thread(main, ["rebuild", "--db", str(bad)]) == 3
    err = capsys.readouterr().err
    assert "is damaged" in err and f"playpost restore {tmp_path / 'backups'}" in err and f"--db {bad}" in err
    assert "Traceback" not in err
    # `playpost script` on it: the same clear refusal, no traceback
    script = tmp_path / "t.txt"
    script.write_text("ann> /game help\n")
    assert await asyncio.to_thread(main, ["script", str(script), "--out", str(tmp_path / "out"), "--db", str(bad)]) == 3
    assert "is damaged" in capsys.readouterr().err
    # the good file still opens
    await (await open_storage(str(good))).close()


async def test_the_console_answers_a_storage_fault_with_a_reply_not_a_traceback(store, tmp_path, clock):
    m = await started(store, clock)
    await fill_to_the_cap(store.db)
    said: list[str] = []
    console = Console(manager=m, out_dir=tmp_path / "out", write=said.append)
    reply = await console.line("ann#c1> /count add n:1")
    assert reply is not None and reply.ephemeral
    assert any("The move was not saved; nothing changed." in s for s in said), said


# ---- backups ------------------------------------------------------------------------------------------
async def play_some(store, clock) -> GameManager:
    """Three games in three channels: one finished, one mid-turn, one lobby."""
    m = GameManager(store, clock=clock, seed_source=lambda: 11, render=False)
    for ch in ("b1", "b2", "b3"):
        ann, bob = (Context(channel_id=ch, user_id=u, user_name=u.title()) for u in ("ann", "bob"))
        await m.dispatch(ann, "game", "new", {"game": "count"})
        await m.dispatch(bob, "game", "join", {})
        if ch == "b3":
            continue
        await m.dispatch(ann, "game", "start", {})
        turns = 40 if ch == "b1" else 2
        for t in range(turns):
            who = ann if t % 2 == 0 else bob
            await m.dispatch(who, "count", "add", {"n": "2"})
            await m.dispatch(who, "count", "end", {})
    return m


async def replays_to_stored_state(store) -> list[str]:
    """Every game with a state: its log replayed from the seed gives exactly the stored state."""
    m = GameManager(store, render=False)
    checked = []
    for game_id in range(1, 100):
        rec = await store.get_game(game_id)
        if rec is None:
            break
        if rec.state is None:
            continue
        assert (await m.rebuild_from_log(rec)).model_dump_json() == rec.state, rec.id
        checked.append(rec.status)
    return checked


async def test_a_backup_taken_during_play_restores_and_every_game_replays_to_its_state(store, tmp_path, clock):
    m = await play_some(store, clock)
    ann = Context(channel_id="b2", user_id="ann", user_name="Ann")
    # moves in flight while the backup is taken: the copy is one consistent snapshot
    results = await asyncio.gather(ops.take_backup(store, tmp_path / "backups"),
                                   m.dispatch(ann, "count", "add", {"n": "1"}),
                                   m.dispatch(ann, "count", "add", {"n": "1"}))
    path = results[0]
    assert path.parent == tmp_path / "backups" and path.name.startswith("playpost-")
    assert not list((tmp_path / "backups").glob("*.part"))
    await store.close()
    target = tmp_path / "restored.sqlite3"
    assert ops.restore(path, target) is None
    restored = await open_storage(str(target))
    try:
        assert sorted(await replays_to_stored_state(restored)) == ["active", "finished"]
        assert (await restored.live_game("b3")).status == "lobby"
    finally:
        await restored.close()


async def test_playpost_backup_and_restore_commands(tmp_path, clock, capsys):
    db = tmp_path / "p.sqlite3"
    store = await open_storage(str(db))
    await play_some(store, clock)
    await store.close()
    for _ in range(3):
        assert await asyncio.to_thread(main, ["backup", str(tmp_path / "bk"), "--db", str(db), "--keep", "2"]) == 0
    kept = ops.backups(tmp_path / "bk")
    assert len(kept) == 2
    assert "Backup written to" in capsys.readouterr().out
    # the restore keeps the file it replaces, with its -wal
    assert await asyncio.to_thread(main, ["restore", str(kept[-1]), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Restored" in out and ".before-restore-" in out
    assert list(tmp_path.glob("p.sqlite3.before-restore-*"))
    again = await open_storage(str(db))
    try:
        assert sorted(await replays_to_stored_state(again)) == ["active", "finished"]
    finally:
        await again.close()
    # a damaged backup is refused and the database left alone
    bad = tmp_path / "bk" / "bad.sqlite3"
    corrupt_copy(kept[-1], bad)
    before = db.read_bytes()
    assert await asyncio.to_thread(main, ["restore", str(bad), "--db", str(db)]) == 3
    assert "Not restored" in capsys.readouterr().err and db.read_bytes() == before


async def test_scheduled_backups_keep_the_newest_and_survive_a_failure(store, tmp_path, clock, caplog):
    await play_some(store, clock)
    slots: list[float] = []

    async def sleep(seconds: float) -> None:
        slots.append(seconds)
        if len(slots) == 2:  # the backup directory becomes a file: that slot fails, the next one works again
            (tmp_path / "auto").rename(tmp_path / "auto-moved")
            (tmp_path / "auto").write_text("not a directory")
        if len(slots) == 3:
            (tmp_path / "auto").unlink()
            (tmp_path / "auto-moved").rename(tmp_path / "auto")
        if len(slots) == 6:
            raise asyncio.CancelledError
        await asyncio.sleep(0.002)  # distinct names

    caplog.set_level(logging.INFO, logger="playpost")
    with pytest.raises(asyncio.CancelledError):
        await ops.backup_schedule(store, tmp_path / "auto", every_hours=6, keep=3, sleep=sleep)
    assert slots == [6 * 3600] * 6
    assert len(ops.backups(tmp_path / "auto")) == 3
    assert sum("event=backup_failed" in r.getMessage() for r in caplog.records) == 1
    assert sum("event=backup " in r.getMessage() for r in caplog.records) == 5


@pytest.mark.postgres
async def test_playpost_backup_on_postgresql_says_to_use_pg_dump(pg_url, tmp_path, capsys):
    assert await asyncio.to_thread(main, ["backup", str(tmp_path / "bk"), "--db", pg_url]) == 2
    assert "pg_dump" in capsys.readouterr().err


# ---- health ------------------------------------------------------------------------------------------
def test_health_needs_a_fresh_heartbeat_and_a_writable_database(tmp_path, monkeypatch, capsys):
    db = tmp_path / "h.sqlite3"
    beat = tmp_path / "heartbeat"
    monkeypatch.setenv("PLAYPOST_DB", str(db))
    monkeypatch.setenv("PLAYPOST_HEARTBEAT", str(beat))
    assert main(["health"]) == 1
    err = capsys.readouterr().err
    assert "no heartbeat file" in err and "no database file" in err
    asyncio.run(_open_close(db))
    ops.beat(beat)
    assert main(["health"]) == 0 and "healthy" in capsys.readouterr().out
    old = time.time() - 600
    os.utime(beat, (old, old))
    assert main(["health"]) == 1 and "not connected" in capsys.readouterr().err
    assert main(["health", "--no-heartbeat"]) == 0
    # a database whose header is destroyed takes no write
    db.write_bytes(b"\x00" * 100 + db.read_bytes()[100:])
    assert main(["health", "--no-heartbeat"]) == 1 and "not writable" in capsys.readouterr().err


async def _open_close(db: Path) -> None:
    await (await open_storage(str(db))).close()


def test_the_health_write_changes_nothing(tmp_path):
    db = tmp_path / "w.sqlite3"
    asyncio.run(_open_close(db))
    conn = sqlite3.connect(db)
    before = conn.execute("PRAGMA user_version").fetchone()[0], conn.execute("SELECT count(*) FROM games").fetchone()
    conn.close()
    assert ops.database_problem(str(db)) is None
    conn = sqlite3.connect(db)
    assert (conn.execute("PRAGMA user_version").fetchone()[0], conn.execute("SELECT count(*) FROM games").fetchone()) \
        == before
    conn.close()


# ---- shutdown ------------------------------------------------------------------------------------------
async def test_the_gate_refuses_new_commands_once_closing_and_waits_for_those_in_flight():
    gate = ops.ShutdownGate()
    assert gate.enter()
    drained = asyncio.create_task(gate.drained(timeout=30))
    await asyncio.sleep(0)
    assert gate.closing and not gate.enter() and not drained.done()
    gate.leave()
    assert await drained is True
    stuck = ops.ShutdownGate()
    assert stuck.enter()
    assert await stuck.drained(timeout=0.01) is False


def test_sigterm_during_a_burst_loses_nothing_and_half_applies_nothing(tmp_path):
    """A real `playpost local` process fed a whole game at once gets SIGTERM mid-burst: it finishes the line
    in hand, closes the database and exits 0; every move it answered is in the log, and every stored state
    is exactly its log replayed."""
    lines = [ln for ln in (ROOT / "tests/heroball/transcripts/two_player.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    db = tmp_path / "term.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""}
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "local", "--db", str(db), "--out",
                             str(tmp_path / "img"), "--user", "ann"], cwd=tmp_path, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("\n".join(lines) + "\n")  # the whole burst at once; stdin stays open
    proc.stdin.flush()
    out: list[str] = []
    boards = 0
    for raw in proc.stdout:  # wait until a few moves were answered, then stop it mid-game
        out.append(raw)
        boards += "[image: " in raw
        if boards == 8:
            break
    proc.send_signal(signal.SIGTERM)
    rest, err = proc.communicate(timeout=60)
    out.append(rest)
    text = "".join(out)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "Stopped (SIGTERM)" in text
    answered = text.count("[image: ") - 1  # every board but the opening one answers a move
    assert 7 <= answered < len(lines), text  # stopped during the burst, not after it
    # a move that left nothing to choose brings the move the table then played by itself (said in its answer)
    asyncio.run(_check_after_sigterm(db, answered + text.count("Nothing left to choose")))


async def _check_after_sigterm(db: Path, answered: int) -> None:
    store = await open_storage(str(db))
    try:
        rec = await store.live_game("local")
        assert rec is not None and rec.status == "active"
        assert len(await store.log(rec.id)) == answered  # nothing answered was lost, nothing unanswered saved
        assert await replays_to_stored_state(store) == ["active"]
    finally:
        await store.close()
