"""Computer seats at the table (bot/computers.py) over the test-only `count` game."""
from __future__ import annotations

from bot.manager import GameManager
from bot.reply import Context


def ctx(user: str, channel: str = "c1") -> Context:
    return Context(channel_id=channel, user_id=user, user_name=user.title())


async def with_computer(m: GameManager, level: str = "hard"):
    await m.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
    r = await m.dispatch(ctx("ann"), "game", "computer", {"level": level})
    assert not r.ephemeral and f"Computer 1 ({level}) joins" in r.text, r.text
    return r


async def test_the_host_seats_a_computer_that_moves_at_once_through_the_apply_path(manager):
    await with_computer(manager)
    rec = await manager.storage.live_game("c1")
    assert [s.player for s in rec.seats] == ["ann", "computer-1"] and rec.meta["computers"] == {"computer-1": "hard"}
    await manager.dispatch(ctx("ann"), "game", "start", {})
    r = await manager.dispatch(ctx("ann"), "count", "end", {})
    assert not r.ephemeral and "Computer 1 (computer) plays" in r.text
    rec = await manager.storage.live_game("c1") or (await manager.storage.history("c1", 1))[0]
    log = await manager.storage.log(rec.id)
    assert log[0].player == "ann" and log[1].player == "computer-1"  # logged as its seat
    assert "computer-1" not in r.ping and "computer-1" not in r.private
    assert rec.status == "finished" or engine_waits_for(manager, rec) == ["ann"]


def engine_waits_for(m: GameManager, rec) -> list[str]:
    from games.core import get_game

    return get_game(rec.kind).status(m.state_of(rec)).to_act


async def test_a_computer_that_moves_first_moves_when_the_game_starts(manager):
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
    await manager.dispatch(ctx("ann"), "game", "leave", {})
    await manager.dispatch(ctx("ann"), "game", "computer", {"level": "easy"})
    await manager.dispatch(ctx("ann"), "game", "join", {})
    r = await manager.dispatch(ctx("ann"), "game", "start", {})
    assert not r.ephemeral and "Computer 1 (computer) plays" in r.text
    assert r.ping == ["ann"] or r.finished


async def test_only_the_host_seats_a_computer_and_a_level_must_exist(manager):
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
    r = await manager.dispatch(ctx("bob"), "game", "computer", {})
    assert r.ephemeral and "Only the game's host" in r.text
    r = await manager.dispatch(ctx("ann"), "game", "computer", {"level": "genius"})
    assert r.ephemeral and "not a computer level" in r.text
    rec = await manager.storage.live_game("c1")
    assert [s.player for s in rec.seats] == ["ann"] and not rec.meta.get("computers")


async def test_vote_hands_the_late_seat_to_a_computer_which_moves_and_the_player_takes_it_back(manager, clock):
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
    await manager.dispatch(ctx("bob"), "game", "join", {"colour": "blue"})
    await manager.dispatch(ctx("cy"), "game", "join", {"colour": "green"})
    await manager.dispatch(ctx("ann"), "game", "start", {})
    rec = await manager.storage.live_game("c1")
    clock.now = rec.deadline_at + 1  # Ann missed her deadline
    r = await manager.dispatch(ctx("bob"), "game", "vote", {"kind": "computer"})
    assert r.ephemeral and "1 of the 2 needed for handing the late seat to a computer" in r.text
    r = await manager.dispatch(ctx("cy"), "game", "vote", {"kind": "computer"})
    assert not r.ephemeral and "voted to hand Ann's seat to a computer (normal)" in r.text
    assert "Ann (computer) plays" in r.text
    log = await manager.storage.log(rec.id)
    assert log and all(e.player == "ann" for e in log)  # the computer played Ann's seat, logged as it
    assert engine_waits_for(manager, await manager.storage.live_game("c1")) == ["bob"]
    r = await manager.dispatch(ctx("bob"), "game", "takeover", {})
    assert r.ephemeral and "No computer plays a seat of yours" in r.text
    r = await manager.dispatch(ctx("ann"), "game", "takeover", {})
    assert not r.ephemeral and "takes their seat back" in r.text
    assert (await manager.storage.live_game("c1")).meta["computers"] == {}


async def test_the_host_hands_a_seat_to_a_computer_for_a_player_who_left(manager):
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
    await manager.dispatch(ctx("bob"), "game", "join", {"colour": "blue"})
    await manager.dispatch(ctx("ann"), "game", "start", {})
    r = await manager.dispatch(ctx("bob"), "game", "computer", {"player": "Ann"})
    assert r.ephemeral and "Only the game's host" in r.text
    r = await manager.dispatch(ctx("ann"), "game", "computer", {})
    assert r.ephemeral and "say whose seat" in r.text
    r = await manager.dispatch(ctx("ann"), "game", "computer", {"player": "Bob", "level": "normal"})
    assert not r.ephemeral and "hands Bob's seat to a computer (normal)" in r.text
    assert "moves when the seat must act" in r.text  # Ann is to act, not Bob
    r = await manager.dispatch(ctx("ann"), "count", "end", {})
    assert "Bob (computer) plays" in r.text
    rec = await manager.storage.live_game("c1") or (await manager.storage.history("c1", 1))[0]
    assert rec.status == "finished" or engine_waits_for(manager, rec) == ["ann"]


async def test_computer_votes_side_with_the_caller(manager, clock):
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
    await manager.dispatch(ctx("bob"), "game", "join", {"colour": "blue"})
    await manager.dispatch(ctx("ann"), "game", "computer", {})
    await manager.dispatch(ctx("ann"), "game", "computer", {})
    await manager.dispatch(ctx("ann"), "game", "start", {})
    rec = await manager.storage.live_game("c1")
    clock.now = rec.deadline_at + 1
    r = await manager.dispatch(ctx("bob"), "game", "vote", {"kind": "end"})  # bob + two computers of three voters
    assert not r.ephemeral and r.finished and "voted to end the game" in r.text


async def test_a_rematch_seats_the_computer_again_as_a_computer(manager):
    await with_computer(manager, "normal")
    await manager.dispatch(ctx("ann"), "game", "start", {})
    for _ in range(40):  # ann ends every turn; the computer plays its own
        rec = await manager.storage.live_game("c1")
        if rec is None:
            break
        await manager.dispatch(ctx("ann"), "count", "end", {})
    old = (await manager.storage.history("c1", 1))[0]
    assert old.status == "finished"
    r = await manager.dispatch(ctx("ann"), "game", "rematch", {})
    assert not r.ephemeral and "Rematch called" in r.text, r.text
    new = await manager.storage.live_game("c1") or (await manager.storage.history("c1", 1))[0]
    assert new.id != old.id and [s.player for s in new.seats] == ["ann", "computer-1"]
    assert new.meta["computers"] == {"computer-1": "normal"}


async def test_a_failing_decision_leaves_the_committed_move_and_the_game_waiting(manager, monkeypatch):
    from bot import computers

    def broken(*args):
        raise RuntimeError("boom")

    await with_computer(manager)
    await manager.dispatch(ctx("ann"), "game", "start", {})
    monkeypatch.setattr(computers, "choose", broken)
    r = await manager.dispatch(ctx("ann"), "count", "end", {})
    assert not r.ephemeral and "ends the turn" in r.text
    rec = await manager.storage.live_game("c1")
    assert [e.player for e in await manager.storage.log(rec.id)] == ["ann"]
    assert engine_waits_for(manager, rec) == ["computer-1"]


async def test_the_host_may_pick_the_hero_a_computer_plays_and_the_games_own_seat_rules_apply(manager):
    """`/game computer hero:` seats the computer with that hero, checked like a join (free, existing)."""
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "dungeon", "seed": 2})
    await manager.dispatch(ctx("ann"), "game", "join", {"hero": "Ruby"})
    r = await manager.dispatch(ctx("ann"), "game", "computer", {"level": "normal", "hero": "Jacques"})
    assert not r.ephemeral and "Computer 1 (hero Jacques)" in r.text, r.text
    taken = await manager.dispatch(ctx("ann"), "game", "computer", {"hero": "ruby"})
    assert taken.ephemeral and "already in the party" in taken.text, taken.text
    rec = await manager.storage.live_game("c1")
    assert [s.choices for s in rec.seats] == [{"hero": "Ruby"}, {"hero": "Jacques"}]  # the refusal changed nothing


async def test_a_game_without_heroes_refuses_a_computer_hero(manager):
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "count", "seed": 5})
    r = await manager.dispatch(ctx("ann"), "game", "computer", {"hero": "Ruby"})
    assert r.ephemeral and "has no heroes to choose" in r.text, r.text


async def _heroball_against_a_computer(tmp_path, clock, workers: int) -> tuple[list[tuple[str, str]], GameManager]:
    """Ann against a `normal` computer in Heroball for a few of her moves (her first legal action each time)."""
    from games.core import get_game
    from storage import open_storage

    store = await open_storage(str(tmp_path / f"workers{workers}.sqlite3"))
    m = GameManager(store, clock=clock, seed_source=lambda: 7, render=False, computer_workers=workers)
    await m.dispatch(ctx("ann"), "game", "new", {"game": "heroball", "seed": 3})
    await m.dispatch(ctx("ann"), "game", "computer", {"level": "normal"})
    await m.dispatch(ctx("ann"), "game", "start", {})
    engine = get_game("heroball")
    for _ in range(3):
        rec = await m.storage.live_game("c1")
        assert rec is not None
        legal = engine.legal_actions(m.state_of(rec), "ann")
        r = await m.dispatch(ctx("ann"), "heroball", legal[0].cmd, dict(legal[0].args))
        assert not r.ephemeral, r.text
    rec = await m.storage.live_game("c1")
    assert rec is not None
    log = [(e.player, e.action) for e in await m.storage.log(rec.id)]
    await store.close()
    return log, m


async def test_computers_decide_in_worker_processes_and_play_as_they_do_in_a_thread(tmp_path, clock):
    """Issue 17: the bot's computer players decide in a process pool (off the event loop, the GIL included);
    the console's thread gives the very same moves (the budget counts engine steps, never seconds); closing
    the table stops the pool's processes."""
    in_thread, m0 = await _heroball_against_a_computer(tmp_path, clock, 0)
    m0.close()
    in_process, m1 = await _heroball_against_a_computer(tmp_path, clock, 1)
    pool = m1.table._think
    assert pool is not None
    procs = list(pool._processes.values())  # type: ignore[attr-defined]
    assert procs, "a decision process ran"
    assert any(p == "computer-1" for p, _ in in_process), "the computer moved"
    assert in_process == in_thread
    m1.close()
    assert m1.table._think is None
    for p in procs:
        p.join(timeout=60)  # a generous bound for a loaded machine: they exit as soon as they see the shutdown
        assert p.exitcode is not None, "the decision process exited after close"


async def test_several_computer_heroes_waiting_the_team_order_picks_who_activates_first(manager, monkeypatch):
    """Issue 17: in the dungeon any hero may activate next; the table asks the game's team order
    (`first_to_act`, as selfplay does) instead of taking the first computer in seat order."""
    import bot.computers as computers

    asked: list[list[str]] = []

    def last_of(engine, state, players):
        asked.append(list(players))
        return players[-1]

    monkeypatch.setattr(computers, "first_to_act", last_of)
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "dungeon", "seed": 2})
    await manager.dispatch(ctx("ann"), "game", "join", {"hero": "Ruby"})
    for hero in ("Jacques", "Von Wilding"):
        await manager.dispatch(ctx("ann"), "game", "computer", {"level": "normal", "hero": hero})
    r = await manager.dispatch(ctx("ann"), "game", "start", {})
    assert asked and asked[0] == ["computer-1", "computer-2"], asked
    rec = await manager.storage.live_game("c1")
    log = await manager.storage.log(rec.id)
    assert log[0].player == "computer-2", (log[0].player, r.text)  # the order's choice moved first
