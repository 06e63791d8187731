"""A phase with nothing to choose resolves by itself (issue 18): a hero with no AP left whose only legal move is
"end turn" (Heroball), "end activation" (dungeon) or "done moving" (Quodd) has it played for them at once,
through the one apply path, logged under their seat and said in the reply; undo takes it back with the move that
led to it."""
from __future__ import annotations

import random

import pytest

from bot.manager import GameManager
from bot.reply import Context
from games.core import Action, Seat, get_game

SEATS = [Seat(player="ann", name="Ann"), Seat(player="bob", name="Bob")]


@pytest.mark.parametrize("game, phase, move", [("heroball", "action", "end"), ("dungeon", "activation", "end"),
                                               ("quodd", "phase 2: movement", "done")])
def test_rule_the_only_move_left_is_forced_and_never_a_real_choice(game, phase, move):
    engine = get_game(game)
    state = engine.setup({}, SEATS, 3)
    rng = random.Random(1)
    forced = 0
    for _ in range(500):
        st = engine.status(state)
        if st.finished:
            break
        player = st.to_act[0]
        legal = [a for a in engine.legal_actions(state, player) if a.cmd not in engine.anytime_commands]
        got = engine.forced_action(state, player)
        if got is not None:
            assert legal == [got] and got.text() == move and st.phase == phase
            forced += 1
        else:
            assert len(legal) != 1 or legal[0].args  # one move with arguments is still a choice (where to go)
        for other in SEATS:
            if other.player not in st.to_act:
                assert engine.forced_action(state, other.player) is None  # never for a player who waits
        state, _ = engine.apply(state, player, got or rng.choice(legal))
    assert forced >= 3


def ctx(user: str) -> Context:
    return Context(channel_id="c1", user_id=user, user_name=user.title())


async def _heroball_until_ap_runs_out(manager: GameManager):
    """A Heroball game where Ann spends AP until she has none: returns the reply of her last move."""
    await manager.dispatch(ctx("ann"), "game", "new", {"game": "heroball", "seed": 7})
    await manager.dispatch(ctx("bob"), "game", "join", {})
    await manager.dispatch(ctx("ann"), "game", "start", {})
    engine = get_game("heroball")
    for _ in range(60):
        rec = await manager.storage.live_game("c1")
        state = manager.state_of(rec, engine)
        player = engine.status(state).to_act[0]
        legal = [a for a in engine.legal_actions(state, player) if a.cmd not in engine.anytime_commands]
        if state.phase == "play" and player == "ann":
            moves = [a for a in legal if a.cmd in ("step", "run", "sprint")] or [a for a in legal if a.cmd != "end"]
            reply = await manager.dispatch(ctx("ann"), "heroball", moves[0].cmd, dict(moves[0].args))
            if "Nothing left to choose" in reply.text:
                return reply
        else:
            a = next(a for a in legal if a.cmd != "end") if state.phase != "play" else Action.of("end")
            await manager.dispatch(ctx(player), "heroball", a.cmd, dict(a.args))
    raise AssertionError("Ann never ran out of AP")


async def test_a_hero_out_of_ap_ends_the_turn_by_itself_logged_and_said(manager):
    reply = await _heroball_until_ap_runs_out(manager)
    assert "Nothing left to choose for Ann: `end` plays itself." in reply.text
    assert reply.ping == ["bob"]  # the next player is pinged by the same reply
    rec = await manager.storage.live_game("c1")
    log = await manager.storage.log(rec.id)
    assert (log[-1].player, log[-1].action) == ("ann", "end")
    engine = get_game("heroball")
    assert engine.status(manager.state_of(rec, engine)).to_act == ["bob"]


async def test_undo_takes_back_the_forced_end_with_the_move_that_used_the_last_ap(manager):
    await _heroball_until_ap_runs_out(manager)
    rec = await manager.storage.live_game("c1")
    log = await manager.storage.log(rec.id)
    step = log[-2]
    undone = await manager.dispatch(ctx("ann"), "game", "undo", {})
    assert not undone.ephemeral, undone.text
    assert f"takes back `{step.action}` (and `end`, which followed by itself)" in undone.text
    rec = await manager.storage.live_game("c1")
    assert [e.seq for e in await manager.storage.log(rec.id)] == [e.seq for e in log[:-2]]
    engine = get_game("heroball")
    state = manager.state_of(rec, engine)
    assert engine.status(state).to_act == ["ann"] and engine.forced_action(state, "ann") is None
