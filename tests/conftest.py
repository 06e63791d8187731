"""Shared fixtures: the template game (`count`) registered, a fresh database per test on each backend (a
temporary SQLite file; a PostgreSQL schema of its own), and a manager on it."""
from __future__ import annotations

import asyncio
import itertools
import os
import uuid

import asyncpg
import pytest

from games._template import ENGINE as COUNT  # not discovered (leading underscore): tests only
from games.core import register

register(COUNT)
# commits without fsync: nothing the suite checks depends on it, and on a busy machine each fsync costs
# milliseconds (tests/test_ops.py checks that FULL is what the bot uses when this is unset)
os.environ.setdefault("PLAYPOST_SQLITE_SYNCHRONOUS", "NORMAL")


class FakeClock:
    def __init__(self, now: float = 1_767_225_600.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request, tmp_path) -> str:
    """The URL of a fresh database: a SQLite file, or a PostgreSQL schema of the test's own (dropped after)."""
    if request.param == "sqlite":
        return str(tmp_path / "t.sqlite3")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def manager(database, clock):
    """A manager on each backend in turn (PostgreSQL in a fresh schema, skipped without a server)."""
    from bot.manager import GameManager
    from storage import open_storage

    seeds = itertools.count(100)
    store = await open_storage(database)
    m = GameManager(store, clock=clock, seed_source=lambda: next(seeds))
    yield m
    await store.close()


# ---- PostgreSQL: a fresh schema per test on the server PLAYPOST_TEST_PG names ----------------------------------
PG_URL = os.environ.get("PLAYPOST_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
PG_HOW = ("To run them: start PostgreSQL on 127.0.0.1:5432 (trust authentication, database `test`) or set "
          "PLAYPOST_TEST_PG=postgresql://user@host:port/database; `pytest -m 'not postgres'` leaves them out.")


def _pg_unreachable(url: str) -> str | None:
    """Why the server cannot be used, or None when it answers."""
    async def probe() -> None:
        conn = await asyncpg.connect(url, timeout=5)
        await conn.close()

    try:
        asyncio.run(probe())
    except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The PostgreSQL URL: skipped without a server, except under CI, where a skip would prove nothing."""
    reason = _pg_unreachable(PG_URL)
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and PostgreSQL at {PG_URL} is unreachable ({reason}). {PG_HOW}", pytrace=False)
        pytest.skip(f"PostgreSQL at {PG_URL} is unreachable ({reason}). {PG_HOW}")
    return PG_URL


@pytest.fixture
async def pg_url(pg_server):
    """A URL naming a schema of its own (created by the storage on open, dropped after the test)."""
    schema = f"t_{os.getpid()}_{uuid.uuid4().hex[:12]}"
    yield f"{pg_server}{'&' if '?' in pg_server else '?'}schema={schema}"
    conn = await asyncpg.connect(pg_server)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()
