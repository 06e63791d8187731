"""Several `playpost run` processes (separate OS processes, each with some of the gateway shards) on one PostgreSQL,
driven through the Discord double: moves in many channels at once are applied exactly once, each reminder is
posted once, and when a process is killed (SIGKILL) in the middle of a burst, the process that takes over its
shards loses no committed move, finds no half-applied one, and the games go on.

Nothing here waits on the clock's speed: every wait is for a condition, with a generous timeout.
"""
from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.manager import GameManager
from bot.reply import Context
from e2e.discord_double import TOKEN, DiscordDouble, Interaction, shard_of
from storage import open_storage

pytestmark = pytest.mark.postgres

HERE = Path(__file__).parent
SHARDS = 4
PER_SHARD = 3  # channels (each in a guild of its own) per shard: 12 games at once
PLAYERS = {"1100000000000000101": "Ann", "1100000000000000102": "Bob"}
PATIENCE = float(os.environ.get("PLAYPOST_TEST_PATIENCE", 90))  # seconds a condition may take on a busy machine


async def until(cond: Callable[[], Any], what: str, timeout: float = PATIENCE) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


class Proc:
    """One `playpost run --shards ...` OS process; its log goes to a file."""

    def __init__(self, name: str, shards: list[int], port: int, db: str, tmp: Path) -> None:
        self.name = name
        self.shards = shards
        self.log = tmp / f"{name}.log"
        env = {**os.environ, "DISCORD_TOKEN": TOKEN, "PLAYPOST_DB": db, "PLAYPOST_TICK_SECONDS": "0.2",
               "PLAYPOST_RENDER_WORKERS": "0", "PLAYPOST_LOG_LEVEL": "INFO"}
        for key in ("DEV_GUILD_ID", "PLAYPOST_SYNC", "PLAYPOST_SHARDS", "PLAYPOST_SHARD_COUNT"):
            env.pop(key, None)
        with self.log.open("wb") as out:
            self.popen = subprocess.Popen(
                [sys.executable, str(HERE / "scale_child.py"), str(port), "run",
                 "--shards", ",".join(map(str, shards)), "--shard-count", str(SHARDS)],
                cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT)
        self.killed = False

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def ticks(self) -> int:
        return self.text().count("event=pace_tick")

    def kill(self) -> None:
        self.killed = True
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(30)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(20)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(20)


class Cluster:
    """The double, the processes and which one serves each shard; the test's own view of the database."""

    def __init__(self, double: DiscordDouble, db: str, tmp: Path, store: Any) -> None:
        self.double = double
        self.db = db
        self.tmp = tmp
        self.store = store
        self.procs: list[Proc] = []
        self.owner: dict[int, Proc | None] = dict.fromkeys(range(SHARDS))
        self.channels: list[str] = []
        self.shard: dict[str, int] = {}

    async def start(self, name: str, shards: list[int]) -> Proc:
        proc = Proc(name, shards, self.double.port, self.db, self.tmp)
        self.procs.append(proc)

        def connected() -> bool:
            if proc.popen.poll() is not None:
                raise AssertionError(f"{name} exited:\n{proc.text()[-3000:]}")
            return set(shards) <= self.double.connected_shards()

        await until(connected, f"{name} to connect its shards {shards}")
        for s in shards:
            self.owner[s] = proc
        return proc

    async def kill(self, proc: Proc) -> None:
        for s in proc.shards:
            self.owner[s] = None
        proc.kill()
        await until(lambda: not set(proc.shards) & self.double.connected_shards(), "the dead sessions to close")

    # ---- moves, as a player looking at the board would make them ------------------------------------------------
    async def next_move(self, channel: str) -> tuple[str, str, dict[str, str], str]:
        rec = await self.store.live_game(channel)
        state = json.loads(rec.state)
        player = state["players"][state["active"]]
        if state["adds"] < 2:
            return player, "add", {"n": "1"}, "add n:1"
        return player, "end", {}, "end"

    def command(self, player: str, channel: str, cmd: str, options: dict[str, str]) -> tuple[Interaction, dict]:
        return self.double.command_payload(player, PLAYERS[player], "count", cmd, options, channel_id=channel)

    async def move(self, channel: str, applied: list[str], lost: list[str]) -> None:
        """One move in `channel`, sent to the process serving its shard; sent again (after looking at the board)
        if that process dies with it in flight: then it may or may not have been committed (`lost`)."""
        while True:
            player, cmd, options, text = await self.next_move(channel)
            proc = self.owner[self.shard[channel]]
            if proc is None:  # nobody serves the shard right now: wait for the takeover
                await asyncio.sleep(0.02)
                continue
            inter, payload = self.command(player, channel, cmd, options)
            try:
                await self.double.dispatch("INTERACTION_CREATE", payload)
            except ConnectionError:  # its process died just now: the interaction never left
                await asyncio.sleep(0.02)
                continue
            # answered: a new message, or (a move of the turn under way) the turn's message edited and this
            # interaction's own "thinking" message removed
            await until(lambda: inter.messages or inter.original == "deleted" or proc.killed,  # noqa: B023
                        f"an answer in {channel}")
            if not inter.messages and inter.original != "deleted":
                lost.append(text)
                continue
            assert len(inter.public) == 1 or (inter.original == "deleted" and not inter.public), \
                [m.content for m in inter.messages]
            applied.append(text)
            return


async def start_games(store: Any, cluster: Cluster) -> None:
    m = GameManager(store, render=False)
    ann, bob = PLAYERS
    for shard in range(SHARDS):
        for j in range(PER_SHARD):
            guild = str(((1_000_000 + shard + SHARDS * j) << 22) | 1)
            assert shard_of(guild, SHARDS) == shard
            ch = cluster.double.add_channel(guild, f"games-{shard}-{j}")
            cluster.channels.append(ch)
            cluster.shard[ch] = shard

            def ctx(user: str, ch: str = ch, guild: str = guild) -> Context:
                return Context(channel_id=ch, user_id=user, user_name=PLAYERS[user], guild_id=guild)

            await m.dispatch(ctx(ann), "game", "new", {"game": "count", "seed": shard * 10 + j})
            await m.dispatch(ctx(bob), "game", "join", {})
            assert not (await m.dispatch(ctx(ann), "game", "start", {})).ephemeral


def is_subsequence(part: list[str], whole: list[str]) -> bool:
    it = iter(whole)
    return all(x in it for x in part)


async def check_games(cluster: Cluster, applied: dict[str, list[str]], lost: dict[str, list[str]]) -> None:
    """No committed move lost, none applied twice, no half-applied one: the log and the state agree."""
    m = GameManager(cluster.store, render=False)
    for ch in cluster.channels:
        rec = await cluster.store.live_game(ch)
        log = await cluster.store.log(rec.id)
        actions = [e.action for e in log]
        assert [e.seq for e in log] == list(range(1, len(log) + 1)), ch
        assert is_subsequence(applied[ch], actions), (ch, applied[ch], actions)  # every answered move is there
        assert len(applied[ch]) <= len(actions) <= len(applied[ch]) + len(lost[ch]), (ch, applied[ch], actions)
        assert (await m.rebuild_from_log(rec)).model_dump_json() == rec.state, ch  # the state is the log's


def nudges(double: DiscordDouble, channel: str) -> list[str]:
    return [m.content for m in double.messages.values()
            if m.channel_id == channel and m.interaction_id is None and "deadline" in m.content]


async def reminders_once(cluster: Cluster, live: list[Proc]) -> None:
    """Every game's deadline passes at once: each channel gets its nudge once, however many processes tick."""
    before = {ch: len(nudges(cluster.double, ch)) for ch in cluster.channels}
    for ch in cluster.channels:
        rec = await cluster.store.live_game(ch)
        await cluster.store.update_game(rec, rec.version, deadline_at=time.time() - 60)
    await until(lambda: all(len(nudges(cluster.double, ch)) > before[ch] for ch in cluster.channels),
                "a nudge in every channel")
    ticks = {p.name: p.ticks() for p in live}
    await until(lambda: all(p.ticks() >= ticks[p.name] + 3 for p in live), "three more ticks of every process")
    assert {ch: len(nudges(cluster.double, ch)) - before[ch] for ch in cluster.channels} == \
        dict.fromkeys(cluster.channels, 1)


@pytest.fixture
async def cluster(pg_url, tmp_path):
    double = DiscordDouble()
    await double.start()
    store = await open_storage(pg_url)
    c = Cluster(double, pg_url, tmp_path, store)
    yield c
    for p in c.procs:
        p.stop()
    await store.close()
    await double.stop()
    for p in c.procs:
        assert TOKEN not in p.text(), f"the bot token appeared in {p.name}'s log"


async def test_two_processes_split_the_shards_apply_each_move_once_and_survive_a_kill(cluster):
    await start_games(cluster.store, cluster)
    a = await cluster.start("a", [0, 1])
    b = await cluster.start("b", [2, 3])
    applied: dict[str, list[str]] = {ch: [] for ch in cluster.channels}
    lost: dict[str, list[str]] = {ch: [] for ch in cluster.channels}

    async def burst(moves: int) -> None:
        async def chain(ch: str) -> None:
            for _ in range(moves):
                await cluster.move(ch, applied[ch], lost[ch])
        await asyncio.gather(*[chain(ch) for ch in cluster.channels])

    # 1. a burst in all 12 channels: each channel's moves handled by its shard's process, each applied once
    await burst(3)
    await check_games(cluster, applied, lost)
    assert not any(lost.values())
    for ch in cluster.channels:
        rec = await cluster.store.live_game(ch)
        assert [e.action for e in await cluster.store.log(rec.id)] == applied[ch]
    assert "event=command command=count/add" in a.text() and "event=command command=count/add" in b.text()

    # 2. the same interaction seen by both processes (a handover's two sessions): applied once, answered once
    ch = cluster.channels[0]
    player, _, _, _ = await cluster.next_move(ch)
    cmd, options, text = "end", {}, "end"  # hands the turn on: answered with a new message (not an edit)
    inter, payload = cluster.command(player, ch, cmd, options)
    both = {a.shards[0], b.shards[0]}  # one session of each process
    await cluster.double.dispatch_to_shards("INTERACTION_CREATE", payload, both)
    def answers(*inters: Interaction) -> list[list[int]]:
        """The status of every interaction callback the processes made, per interaction."""
        return [[c.status for c in cluster.double.calls if c.path == f"/interactions/{i.id}/{i.token}/callback"]
                for i in inters]

    def elsewhere() -> int:
        return a.text().count("event=answered_elsewhere") + b.text().count("event=answered_elsewhere")

    await until(lambda: inter.public and elsewhere() == 1, "both processes to answer the interaction")
    first, *others = answers(inter)[0]
    assert first == 200 and others and set(others) == {400}  # the second is refused: "already acknowledged"
    assert len(inter.messages) == 1  # the process that lost stays silent
    applied[ch].append(text)
    # a button pressed twice, each press seen by both processes: one move
    board = inter.public[0]
    # (a move that hands the turn on: it is answered with a new message, not an edit of the turn's message)
    button = next(c for c in board.custom_ids if c.startswith(f"pp:{ch}:") and c.endswith(":end"))
    player, _, _, _ = await cluster.next_move(ch)  # whose turn it is now
    presses = [cluster.double.click_payload(player, PLAYERS[player], board, button) for _ in range(2)]
    for _, p in presses:
        await cluster.double.dispatch_to_shards("INTERACTION_CREATE", p, both)
    await until(lambda: sum(len(i.public) for i, _ in presses) == 1 and elsewhere() == 3
                and all(i.messages for i, _ in presses), "both processes to answer both presses")
    assert all(x[0] == 200 and set(x[1:]) == {400} for x in answers(*[i for i, _ in presses]))
    assert sorted(len(i.messages) for i, _ in presses) == [1, 1]  # the board, and "out of date" privately
    applied[ch].append("end")
    rec = await cluster.store.live_game(ch)
    assert [e.action for e in await cluster.store.log(rec.id)] == applied[ch]

    # 3. reminders: every deadline passes; two processes tick; each reminder is posted once
    await reminders_once(cluster, [a, b])

    # 4. a burst in which process a is killed: c takes over shards 0 and 1, the games go on
    answered_before = {ch: len(applied[ch]) for ch in cluster.channels}
    a_channels = [ch for ch in cluster.channels if cluster.shard[ch] in a.shards]

    async def kill_mid_burst() -> None:
        await until(lambda: sum(len(applied[c]) - answered_before[c] for c in a_channels) >= 3, "a's first moves")
        await cluster.kill(a)
        await cluster.start("c", [0, 1])

    await asyncio.gather(burst(4), kill_mid_burst())
    assert a.popen.returncode == -signal.SIGKILL
    await check_games(cluster, applied, lost)
    c = cluster.owner[0]
    assert c is not None and c.name == "c" and "event=command command=count/" in c.text()
    for ch in a_channels:  # each of the dead process's games took moves after the takeover
        assert len(applied[ch]) - answered_before[ch] == 4

    # 5. and the survivors still post each reminder once
    await reminders_once(cluster, [b, c])
