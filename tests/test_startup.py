"""Start-up: the integrity check begun before the imports (storage/check.py) still refuses a damaged file before the
bot reads or writes it, its verdict is taken by one open only, and `playpost run` checks the file once."""
from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot import cli
from bot.settings import Settings
from storage import GameRecord, LogEntry, StorageDamaged, open_storage, start_check
from storage import check as integrity
from storage.sqlite import MIGRATIONS

ROOT = Path(__file__).resolve().parents[1]


def _rec(channel: str) -> GameRecord:
    return GameRecord(channel_id=channel, kind="count", host_id="ann", seed=1, status="active", state="{}")


async def make_db(path: Path, games: int = 40) -> None:
    store = await open_storage(str(path))
    await store.import_games([(_rec(f"c{i}"), []) for i in range(games)])
    await store.close()
    conn = sqlite3.connect(path)  # the WAL folded into the file, so a copy of the file holds every page
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def damage(path: Path) -> None:
    """Garble most of the third page (a b-tree page of the games table)."""
    data = bytearray(path.read_bytes())
    for i in range(4096 * 2 + 8, 4096 * 3, 7):
        data[i] = 0xA5
    path.write_bytes(bytes(data))


@pytest.fixture
def counted(monkeypatch) -> list[str]:
    """The paths the integrity check read, one entry per whole-file check."""
    runs: list[str] = []
    real = integrity.problems

    def problems(path: str) -> list[str]:
        runs.append(path)
        return real(path)

    monkeypatch.setattr(integrity, "problems", problems)
    return runs


async def test_a_check_started_early_refuses_a_damaged_file_before_anything_is_written(tmp_path):
    bad = tmp_path / "bad.sqlite3"
    await make_db(bad)
    damage(bad)
    before = bad.read_bytes()
    start_check(str(bad))  # as a start-up does, before its imports
    with pytest.raises(StorageDamaged) as caught:
        await open_storage(str(bad))
    assert caught.value.path == str(bad) and caught.value.detail
    assert bad.read_bytes() == before  # refused before the bot's connection wrote (or migrated) anything
    assert not Path(str(bad) + "-wal").exists()
    # the verdict was taken by that open: the next one checks again, and refuses again
    with pytest.raises(StorageDamaged):
        await open_storage(str(bad))


async def test_a_file_that_is_no_database_is_refused_through_the_early_check(tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database, " * 512)
    start_check(str(junk))
    with pytest.raises(StorageDamaged):
        await open_storage(str(junk))
    assert junk.read_bytes() == b"not a database, " * 512


async def test_a_sound_file_opens_after_its_early_check_and_every_game_is_there(tmp_path, counted):
    good = tmp_path / "good.sqlite3"
    await make_db(good)
    counted.clear()
    start_check(str(good))
    start_check(str(good))  # one under way already: not started twice
    store = await open_storage(str(good))
    try:
        assert [(await store.live_game(f"c{i}")) is not None for i in range(40)] == [True] * 40
    finally:
        await store.close()
    assert counted == [str(good)]


async def test_a_verdict_serves_one_open_only(tmp_path, counted):
    good = tmp_path / "good.sqlite3"
    await make_db(good)
    start_check(str(good))
    await (await open_storage(str(good))).close()
    damage(good)  # damaged after that open: the next open must find it out, not reuse the old verdict
    with pytest.raises(StorageDamaged):
        await open_storage(str(good))
    assert len(counted) == 3  # make_db's open, the early check, the last open's own


async def test_playpost_run_reads_the_file_once_and_refuses_damage_before_connecting(tmp_path, monkeypatch, counted):
    good = tmp_path / "good.sqlite3"
    await make_db(good)
    counted.clear()
    opened: list[str] = []

    class Bot:  # stands in for discord.py's: `run` is where it would log in and then open the file (setup_hook)
        def run(self, token: str, log_handler: object = None) -> None:
            async def setup_hook() -> None:
                store = await open_storage(str(good))
                opened.append(str(await store.live_game("c3") is not None))
                await store.close()
            asyncio.run(setup_hook())

    monkeypatch.setattr(cli, "build_bot", lambda settings: Bot())
    settings = Settings(playpost_db=str(good))
    assert await asyncio.to_thread(cli.run_discord, settings) == 0
    assert opened == ["True"] and counted == [str(good)]  # the probe's check served setup_hook's open too

    damage(good)
    connected: list[str] = []
    monkeypatch.setattr(Bot, "run", lambda self, token, log_handler=None: connected.append(token))
    with pytest.raises(StorageDamaged):
        await asyncio.to_thread(cli.run_discord, settings)
    assert connected == []


def test_the_check_loads_nothing_but_the_standard_library():
    """It starts first, so that it runs beside the imports: importing it must not import them."""
    code = ("import sys; import storage.check; "
            "print(sorted(m for m in ('pydantic', 'aiosqlite', 'asyncpg', 'storage.base') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


async def test_a_version_2_file_keeps_every_action_when_its_log_is_clustered_by_game(tmp_path):
    """Migration 3 copies the action log into a table keyed by (game, seq): the same entries, in the same order."""
    path = tmp_path / "v2.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:2]:
        conn.executescript(script)
    conn.execute("PRAGMA user_version = 2")
    for g in (1, 2, 3):
        conn.execute("INSERT INTO games (id, channel_id, kind, status, host_id, seed, created_at, updated_at)"
                     " VALUES (?, ?, 'count', 'active', 'ann', 1, 0, 0)", (g, f"c{g}"))
    rows = [(g, seq, "ann", f"add n:{seq % 7}", f"t{seq // 3}", seq % 2, 100.0 + seq, int(seq == 4))
            for seq in (5, 1, 3, 2, 4) for g in (3, 1, 2)]  # inserted out of order, games interleaved
    conn.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.close()
    store = await open_storage(str(path))
    try:
        assert await store.schema_version() == len(MIGRATIONS) == 4  # 3 clusters the log, 4 adds `said`
        for g in (1, 2, 3):
            entries = await store.log(g, include_undone=True)
            assert [(g, e.seq, e.player, e.action, e.turn_key, int(e.barrier), e.at, int(e.undone)) for e in entries] \
                == sorted(r for r in rows if r[0] == g)
            assert [e.seq for e in await store.log(g)] == [1, 2, 3, 5]
            assert await store.next_seq(g) == 6
        rec = await store.get_game(2)
        assert rec is not None
        rec = await store.append_action(rec, rec.version, LogEntry(seq=6, player="ann", action="end"), "{}")
        assert [e.seq for e in await store.log(2)] == [1, 2, 3, 5, 6]
        with pytest.raises(sqlite3.IntegrityError):  # (game, seq) is still the key
            await store.append_action(rec, rec.version, LogEntry(seq=6, player="ann", action="end"), "{}")
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        sql = conn.execute("SELECT sql FROM sqlite_schema WHERE name = 'actions'").fetchone()[0]
        assert "WITHOUT ROWID" in sql and "actions_by_game" not in sql
    finally:
        conn.close()
