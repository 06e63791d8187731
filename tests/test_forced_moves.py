"""A choice with one legal option, or a phase with nothing to choose, resolves by itself (issue 18).

The rule (games/core/phases.py): a player's legal list holding one action is played for them at once, whatever its
arguments, when it is a plain pass/end/done or when they are the only player the game waits for (while others may
act too, when to make even a lone move is a choice). Played through the one apply path, logged under their seat and
said in the reply; undo takes it back with the move that led to it."""
from __future__ import annotations

import random

import pytest

from bot.manager import GameManager
from bot.reply import Context
from games.core import Action, Seat, get_game

SEATS = [Seat(player="ann", name="Ann"), Seat(player="bob", name="Bob")]
PASSING = ("pass", "end", "done")


def expected_forced(engine, state, player, status) -> Action | None:
    """The rule, written out again: one legal move (settings and other anytime commands aside), and it is a plain
    pass/end/done or the player is the only one the game waits for."""
    legal = [a for a in engine.legal_actions(state, player) if a.cmd not in engine.anytime_commands]
    if player not in status.to_act or len(legal) != 1:
        return None
    lone = legal[0]
    return lone if (lone.cmd in PASSING and not lone.args) or status.to_act == [player] else None


@pytest.mark.parametrize("game, seats, with_args", [("heroball", 2, 0), ("dungeon", 2, 1), ("dungeon", 3, 1),
                                                    ("quodd", 2, 0)])
def test_rule_a_lone_legal_move_plays_itself_only_when_it_is_the_players_only_option(game, seats, with_args):
    engine = get_game(game)
    players = [Seat(player=p, name=p.title()) for p in ("ann", "bob", "cat")[:seats]]
    state = engine.setup({}, players, 3)
    rng = random.Random(1)
    forced, forced_with_args, waited = 0, 0, 0
    for _ in range(800):
        st = engine.status(state)
        if st.finished:
            break
        for seat in players:
            got = engine.forced_action(state, seat.player)
            assert got == expected_forced(engine, state, seat.player, st), (st.phase, seat.player)
            if got is None and seat.player in st.to_act and len(st.to_act) > 1 and len(
                    [a for a in engine.legal_actions(state, seat.player) if a.cmd not in engine.anytime_commands]) == 1:
                waited += 1  # a lone move while another player may act first: when to make it is still a choice
        player = st.to_act[0]
        got = engine.forced_action(state, player)
        if got is not None:
            forced += 1
            forced_with_args += bool(got.args)
            state, _ = engine.apply(state, player, got)
            continue
        legal = [a for a in engine.legal_actions(state, player) if a.cmd not in engine.anytime_commands]
        state, _ = engine.apply(state, player, rng.choice(legal))
    assert forced >= 3 and forced_with_args >= with_args
    if game == "dungeon":
        assert waited >= 1  # the first activations of a turn: each player's one hero, both may start


def test_rule_the_last_hero_left_to_activate_plays_itself_but_not_while_another_player_may_go_first():
    engine = get_game("dungeon")
    seats = [Seat(player="ann", name="Ann", choices={"hero": "ruby"}),
             Seat(player="bob", name="Bob", choices={"hero": "candy"})]
    state = engine.setup({}, seats, 5)
    assert engine.status(state).to_act == ["ann", "bob"]
    assert engine.legal_actions(state, "ann") == [Action.of("activate", hero="ruby")]
    assert engine.forced_action(state, "ann") is None and engine.forced_action(state, "bob") is None
    state, _ = engine.apply(state, "ann", Action.of("activate", hero="ruby"))
    state, _ = engine.apply(state, "ann", Action.of("end"))
    assert engine.status(state).to_act == ["bob"]
    assert engine.forced_action(state, "bob") == Action.of("activate", hero="candy")


def test_rule_a_player_with_two_heroes_to_activate_chooses_and_the_last_one_plays_itself():
    engine = get_game("dungeon")
    seats = [Seat(player="ann", name="Ann", choices={"hero": "ruby"}),
             Seat(player="ann", name="Ann", choices={"hero": "candy"})]
    state = engine.setup({}, seats, 5)
    assert engine.status(state).to_act == ["ann"] and len(engine.legal_actions(state, "ann")) == 2
    assert engine.forced_action(state, "ann") is None  # two options: the player chooses
    state, _ = engine.apply(state, "ann", Action.of("activate", hero="candy"))
    state, _ = engine.apply(state, "ann", Action.of("end"))
    assert engine.forced_action(state, "ann") == Action.of("activate", hero="ruby")


def _teleported(rows: list[str]):
    """Ann slides onto a teleporter on a one-row board (the die rolls 2): where she lands is her choice."""
    from games.core import Rng
    from games.quodd import ENGINE as quodd
    from quodd.qhelpers import build, do

    seed = next(s for s in range(10_000) if Rng(seed=s).d(6) == 2)
    st = build(rows, tokens={"B1": "teleporter"}, heroes=[dict(pos="A1", movement=1)], tumbled=True, ready="slide",
               points=1, seed=seed)
    st, _ = do(st, "ann", "move direction:E distance:1")
    return quodd, st


def test_rule_a_mid_move_choice_with_one_answer_plays_itself_and_with_two_waits():
    quodd, two = _teleported(["..."])
    assert two.pending is not None and two.pending.options == ["A1", "C1"]
    assert quodd.forced_action(two, "ann") is None
    quodd, one = _teleported([".."])
    assert one.pending is not None and one.pending.kind == "teleport" and one.pending.options == ["A1"]
    assert quodd.forced_action(one, "ann") == Action.of("choose", option="A1")


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


async def test_undo_takes_back_a_forced_move_that_kept_the_turn_with_the_move_that_led_to_it(manager):
    """Quodd: the jump that spends the last point leaves only `done`, which plays itself and the turn goes on to
    exploring; undo takes both back, so the player is not left before a `done` nobody plays."""
    for user, group, name, options in [("ann", "game", "new", {"game": "quodd", "seed": 5, "scenario": "trial"}),
                                       ("ann", "game", "join", {"hero": "forest"}), ("ann", "game", "start", {}),
                                       ("ann", "quodd", "choose", {"option": "D1"}), ("ann", "quodd", "done", {}),
                                       ("ann", "quodd", "tumble", {"direction": "E"})]:
        reply = await manager.dispatch(ctx(user), group, name, options)
        assert not reply.ephemeral, reply.text
    reply = await manager.dispatch(ctx("ann"), "quodd", "move", {"direction": "S", "distance": 1})
    assert "Nothing left to choose for Ann: `done` plays itself." in reply.text
    undone = await manager.dispatch(ctx("ann"), "game", "undo", {})
    assert "Ann takes back `move direction:S distance:1` (and `done`, which followed by itself)." in undone.text
    rec = await manager.storage.live_game("c1")
    engine = get_game("quodd")
    state = manager.state_of(rec, engine)
    assert [e.action for e in await manager.storage.log(rec.id)][-1] == "tumble direction:E"
    assert Action.parse("move direction:S distance:1") in engine.legal_actions(state, "ann")


async def test_undo_of_a_move_that_played_itself_alone_says_there_is_nothing_of_the_players_to_undo(manager):
    """A solo dungeon starts with its one hero's activation played for the player: an undo says that was not
    their choice, not that their turn has passed."""
    await manager.dispatch(Context(channel_id="c1", user_id="ann", user_name="Ann"), "game", "new",
                           {"game": "dungeon", "seed": 3})
    ann = Context(channel_id="c1", user_id="ann", user_name="Ann")
    r = await manager.dispatch(ann, "game", "start", {})
    assert "plays itself" in r.text, r.text
    before = await manager.storage.live_game("c1")
    r = await manager.dispatch(ann, "game", "undo", {})
    assert r.ephemeral and "nothing of yours to undo: `activate hero:" in r.text and "played itself" in r.text, r.text
    assert "turn has passed" not in r.text
    after = await manager.storage.live_game("c1")
    assert (after.version, after.state) == (before.version, before.state)
