"""Shared fixtures: a fresh manager on a temporary SQLite file, with the template game (`count`) registered."""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from games._template import ENGINE as COUNT  # noqa: E402  # not discovered (leading underscore): tests only
from games.core import register  # noqa: E402

register(COUNT)


class FakeClock:
    def __init__(self, now: float = 1_767_225_600.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def manager(tmp_path, clock):
    from bot.manager import GameManager
    from storage import open_storage

    seeds = itertools.count(100)
    store = await open_storage(str(tmp_path / "t.sqlite3"))
    m = GameManager(store, clock=clock, seed_source=lambda: next(seeds))
    yield m
    await store.close()
