"""Timed work claimed in the database (storage claims and the pace): each reminder, expiry and scheduled job
runs in one process among several, and a process that dies holding a claim is taken over after its lease."""
from __future__ import annotations

import asyncio

import pytest

from bot.manager import GameManager
from bot.pace import Nudge, Pace
from bot.reply import Context
from storage import open_storage

H = 3600.0
LEASE = 300.0


@pytest.fixture
async def store(database):
    s = await open_storage(database)
    yield s
    await s.close()


async def test_a_claim_is_held_by_one_owner_until_done_and_never_runs_again(store):
    assert await store.claim("nudge:1:10.0", "a", 1000.0, LEASE) == "claimed"
    assert await store.claim("nudge:1:10.0", "b", 1001.0, LEASE) == "held"
    assert await store.claim("nudge:1:10.0", "a", 1001.0, LEASE) == "held"  # not twice by its owner either
    assert await store.finish_claim("nudge:1:10.0", "a", 1002.0)
    assert await store.claim("nudge:1:10.0", "b", 1000.0 + 10 * LEASE, LEASE) == "done"
    assert await store.claim("nudge:1:11.0", "b", 1003.0, LEASE) == "claimed"  # another key is another claim


async def test_a_lease_that_ran_out_is_taken_over_and_the_late_owner_cannot_finish_it(store):
    assert await store.claim("k", "dead", 1000.0, LEASE) == "claimed"
    assert await store.claim("k", "b", 1000.0 + LEASE - 1, LEASE) == "held"
    assert await store.claim("k", "b", 1000.0 + LEASE, LEASE) == "claimed"
    assert not await store.finish_claim("k", "dead", 1000.0 + LEASE + 1)  # it was taken over
    assert await store.claim("k", "c", 1000.0 + LEASE + 2, LEASE) == "held"
    assert await store.finish_claim("k", "b", 1000.0 + LEASE + 3)


async def test_a_released_claim_is_claimable_at_once_and_finished_claims_are_pruned(store):
    assert await store.claim("k", "a", 1000.0, LEASE) == "claimed"
    await store.release_claim("k", "b")  # not b's to release
    assert await store.claim("k", "b", 1001.0, LEASE) == "held"
    await store.release_claim("k", "a")
    assert await store.claim("k", "b", 1001.0, LEASE) == "claimed"
    assert await store.finish_claim("k", "b", 1002.0)
    assert await store.claim("open", "a", 1002.0, LEASE) == "claimed"
    assert await store.prune_claims(1002.0) == 0  # finished at 1002: not before it
    assert await store.prune_claims(1003.0) == 1  # the unfinished claim stays
    assert await store.claim("open", "b", 1003.0, LEASE) == "held"


async def test_many_concurrent_claimers_on_separate_connections_get_one_claim(database):
    stores = [await open_storage(database) for _ in range(4)]
    try:
        results = await asyncio.gather(*[s.claim(f"k{i % 5}", f"p{j}", 1000.0, LEASE)
                                         for i in range(20) for j, s in enumerate(stores)])
        assert results.count("claimed") == 5
        assert set(results) == {"claimed", "held"}
    finally:
        for s in stores:
            await s.close()


# ---- the pace of several processes (each its own storage connection and manager) on one database ------------
def ctx(user: str, channel: str) -> Context:
    return Context(channel_id=channel, user_id=user, user_name=user.title())


class Process:
    """One bot process's pace: its own connection, manager and claims owner; posts go to a shared list."""

    def __init__(self, name: str, posted: list[tuple[str, Nudge]]) -> None:
        self.name = name
        self.posted = posted
        self.fail_next = False

    async def open(self, database: str) -> Process:
        self.manager = GameManager(await open_storage(database), render=False)
        self.pace = Pace(self.manager, self.post, owner=self.name, lease_seconds=LEASE)
        return self

    async def post(self, nudge: Nudge) -> None:
        await asyncio.sleep(0)  # let the other processes' ticks interleave
        if self.fail_next:
            self.fail_next = False
            raise ConnectionError("Discord unreachable")
        self.posted.append((self.name, nudge))

    async def close(self) -> None:
        self.manager.close()
        await self.manager.storage.close()


@pytest.fixture
async def processes(database):
    posted: list[tuple[str, Nudge]] = []
    procs = [await Process(n, posted).open(database) for n in ("p1", "p2", "p3")]
    yield procs
    for p in procs:
        await p.close()


async def start_games(m: GameManager, channels: int) -> list:
    out = []
    for i in range(channels):
        ch = f"c{i}"
        await m.dispatch(ctx("ann", ch), "game", "new", {"game": "count", "seed": i + 1})
        await m.dispatch(ctx("bob", ch), "game", "join", {})
        r = await m.dispatch(ctx("ann", ch), "game", "start", {})
        assert not r.ephemeral, r.text
        out.append(await m.storage.live_game(ch))
    return out


async def test_three_processes_ticking_together_post_each_reminder_once(processes):
    games = await start_games(processes[0].manager, 6)
    deadline = max(g.deadline_at for g in games)
    posted = processes[0].posted
    for when in (deadline - 23 * H, deadline - 22 * H, deadline + 1, deadline + 2, deadline + 25 * H):
        await asyncio.gather(*[p.pace.tick(now=when) for p in processes])
    kinds: dict[int, list[str]] = {}
    for _, n in posted:
        kinds.setdefault(n.rec.id, []).append(n.kind)
    assert kinds == {g.id: ["reminder", "deadline", "overdue"] for g in games}
    assert len({who for who, _ in posted}) >= 1


async def test_an_expired_window_is_answered_once_among_processes(processes):
    m = processes[0].manager
    (game,) = await start_games(m, 1)
    await m.dispatch(ctx("ann", "c0"), "count", "roll", {})  # keep or discard within the hour
    rec = await m.storage.live_game("c0")
    await asyncio.gather(*[p.pace.tick(now=rec.deadline_at + 1) for p in processes])
    assert [n.kind for _, n in processes[0].posted] == ["expired"]
    assert [e.action for e in await m.storage.log(rec.id)] == ["roll", "discard"]


async def test_a_process_that_died_holding_a_reminder_is_taken_over_after_the_lease(processes):
    p1, p2, _ = processes
    (game,) = await start_games(p1.manager, 1)
    t = game.deadline_at + 1
    # p1 claimed the deadline nudge and died before posting it: the claim stays unfinished
    assert await p1.manager.storage.claim(f"expire:{game.id}:{game.version}", "p1", t, LEASE) == "claimed"
    assert await p2.pace.tick(now=t) == []  # p1's lease runs: p2 leaves the game alone
    assert await p2.pace.tick(now=t + LEASE - 1) == []
    taken = await p2.pace.tick(now=t + LEASE)
    assert [n.kind for n in taken] == ["deadline"]
    assert await p2.pace.tick(now=t + LEASE + 1) == []
    assert [who for who, _ in p1.posted] == ["p2"]


async def test_a_failed_post_is_released_and_posted_at_the_next_tick_by_anyone(processes):
    p1, p2, _ = processes
    (game,) = await start_games(p1.manager, 1)
    p1.fail_next = True
    assert await p1.pace.tick(now=game.deadline_at + 1) == []
    assert [n.kind for n in await p2.pace.tick(now=game.deadline_at + 2)] == ["deadline"]
    assert await p1.pace.tick(now=game.deadline_at + 3) == []


async def test_a_scheduled_job_runs_once_per_period_among_processes(processes):
    runs: list[tuple[str, float]] = []

    def job(name: str):
        async def run(now: float) -> None:
            runs.append((name, now))
        return run

    for p in processes:
        p.pace.every("backup", 3600.0, job(p.name))
    base = 100 * 3600.0
    for when in (base + 1, base + 2, base + 3599, base + 3600, base + 3601):
        await asyncio.gather(*[p.pace.tick(now=when) for p in processes])
    assert [now for _, now in runs] == [base + 1, base + 3600]


async def test_a_game_left_past_its_deadline_is_not_claimed_again_at_every_tick(processes):
    p1 = processes[0]
    (game,) = await start_games(p1.manager, 1)
    asked: list[str] = []
    claim = p1.manager.storage.claim

    async def counting(key: str, *args):
        asked.append(key)
        return await claim(key, *args)

    p1.manager.storage.claim = counting  # type: ignore[method-assign]
    assert [n.kind for n in await p1.pace.tick(now=game.deadline_at + 1)] == ["deadline"]
    first = [k for k in asked if not k.startswith("job:")]
    assert first == [f"expire:{game.id}:{game.version}", f"nudge:{game.id}:{game.deadline_at!r}"]
    asked.clear()
    for k in range(2, 6):
        assert await p1.pace.tick(now=game.deadline_at + k) == []
    assert [k for k in asked if not k.startswith("job:")] == []  # known done: the database is not asked again
