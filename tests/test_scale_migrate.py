"""`playpost migrate-db`: every game and log copied SQLite -> PostgreSQL and back, ids kept, each game verified by
replaying its log; the copy's database goes on working (new ids after the copied ones, moves on copied games)."""
from __future__ import annotations

import asyncio

import pytest

from bot.cli import main
from bot.manager import GameManager
from bot.migrate import MigrationError, migrate
from bot.reply import Context
from storage import GameRecord, open_storage

pytestmark = pytest.mark.postgres


def ctx(user: str, channel: str, manage: bool = False) -> Context:
    return Context(channel_id=channel, user_id=user, user_name=user.title(), can_manage=manage)


async def fill(m: GameManager) -> None:
    """Games in every status: a lobby, games in play (one with an undone move), a finished and an abandoned one."""
    for i in range(5):
        ch = f"c{i}"
        await m.dispatch(ctx("ann", ch), "game", "new", {"game": "count", "seed": 10 + i})
        if i == 0:
            continue  # a lobby
        await m.dispatch(ctx("bob", ch), "game", "join", {})
        await m.dispatch(ctx("ann", ch), "game", "start", {})
        await m.dispatch(ctx("ann", ch), "count", "add", {"n": "2"})
        if i == 1:
            await m.dispatch(ctx("ann", ch), "game", "undo", {})
        if i == 2:
            await m.dispatch(ctx("cy", ch, manage=True), "game", "abandon", {})
    # a finished game in c3's history: play to the end
    for _ in range(60):
        rec = await m.storage.live_game("c3")
        if rec is None or rec.status != "active":
            break
        st = m.table.state_of(rec)
        player = st.players[st.active]  # type: ignore[attr-defined]
        r = await m.dispatch(ctx(player, "c3"), "count", "add", {"n": "2"})
        if r.ephemeral:
            await m.dispatch(ctx(player, "c3"), "count", "end", {})
    assert (await m.storage.history("c3", 1))[0].status == "finished"


async def everything(url: str) -> tuple[list[GameRecord], dict[int, list]]:
    store = await open_storage(url)
    try:
        games = await store.games_page(0, 1000)
        logs = {g.id: await store.log(g.id, include_undone=True) for g in games}
    finally:
        await store.close()
    return games, logs


async def test_migrate_sqlite_to_postgres_and_back_keeps_every_game_and_log(tmp_path, pg_url, capsys):
    sqlite_url = str(tmp_path / "from.sqlite3")
    m = GameManager(await open_storage(sqlite_url), render=False)
    await fill(m)
    await m.storage.close()
    before = await everything(sqlite_url)
    assert {g.status for g in before[0]} == {"lobby", "active", "finished", "abandoned"}
    assert any(e.undone for log in before[1].values() for e in log)

    assert await asyncio.to_thread(main, ["migrate-db", sqlite_url, pg_url]) == 0
    out = capsys.readouterr().out
    assert f"Copied {len(before[0])} games" in out and "replayed" in out
    assert await everything(pg_url) == before

    back = str(tmp_path / "back.sqlite3")
    assert await asyncio.to_thread(main, ["migrate-db", pg_url, back]) == 0
    assert await everything(back) == before

    # the copy is a working database: a move on a copied game, a new game numbered after the copied ones
    pg = GameManager(await open_storage(pg_url), render=False)
    try:
        rec = await pg.storage.live_game("c4")
        st = pg.table.state_of(rec)
        r = await pg.dispatch(ctx(st.players[st.active], "c4"), "count", "add", {"n": "1"})  # type: ignore[attr-defined]
        assert not r.ephemeral, r.text
        await pg.dispatch(ctx("ann", "c9"), "game", "new", {"game": "count"})
        fresh = await pg.storage.live_game("c9")
        assert fresh.id == max(g.id for g in before[0]) + 1
    finally:
        await pg.storage.close()


async def test_migrate_refuses_a_target_with_games_and_reports_a_game_that_does_not_replay(tmp_path, pg_url, capsys):
    src_url = str(tmp_path / "src.sqlite3")
    m = GameManager(await open_storage(src_url), render=False)
    await fill(m)
    rec = await m.storage.live_game("c4")
    await m.storage.update_game(rec, rec.version, state=rec.state.replace('"totals":[2,0]', '"totals":[9,0]'))
    await m.storage.close()

    src, dst = await open_storage(src_url), await open_storage(pg_url)
    try:
        report = await migrate(src, dst)
        assert [game_id for game_id, _ in report.not_replaying] == [rec.id]
        assert report.replayed == report.games - 2  # the lobby has no state; the tampered game
        with pytest.raises(MigrationError, match="already has games"):
            await migrate(src, dst)
    finally:
        await src.close()
        await dst.close()
    assert await asyncio.to_thread(main, ["migrate-db", src_url, pg_url]) == 1
    assert "already has games" in capsys.readouterr().err
