"""The overlord, buddies and multi-part scenarios played to their end through the real CLI (`playpost script`),
each transcript written by `tests/quodd/make_mode_transcripts.py` and ending with `/game export`; and the seats,
set-ups and objectives of those modes."""
from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from test_quodd_transcripts import refused

from bot.console import play_transcript
from bot.manager import replay_export
from games.core import Action, Event, IllegalAction, Seat
from games.core.ai import Budget, make_player
from games.core.play import replay
from games.core.playout import random_playout
from games.quodd import ENGINE as E
from games.quodd import data
from games.quodd.ai import prune
from games.quodd.goals import check_win, game_over_at_limit
from games.quodd.jobs import decide
from games.quodd.state import QState, Token

HERE = Path(__file__).parent / "transcripts"

GAMES = [  # transcript, scenario of its first line, mode, the last part's scenario
    ("expedition", "expedition", "solo", "expedition-2"),
    ("overlord", "overlord", "overlord", "overlord"),
    ("buddies", "buddies", "buddies", "buddies"),
]


@pytest.mark.parametrize("name,scenario,mode,last", GAMES)
def test_mode_transcript_plays_a_shipped_scenario_to_its_end_and_exports_scenario_and_mode(
        tmp_path, capsys, name, scenario, mode, last):
    lines = (HERE / f"{name}.txt").read_text().splitlines()
    result = lines[0].split(": ", 1)[1]
    assert f"scenario:{scenario}" in lines[1]
    host = lines[1].split(">")[0]
    assert lines[-1] == f"{host}> /game export"  # the transcript itself ends with the export
    script = tmp_path / f"{name}.txt"
    script.write_text("\n".join(lines) + "\n")
    out_dir = tmp_path / "out"
    # as `playpost script` plays it (bot.console.play_transcript), boards left out: the pinned test draws them
    printed: list[str] = []
    asyncio.run(play_transcript(script.read_text().splitlines(), out_dir, render=False, write=printed.append))
    text = "\n".join(printed)
    assert not refused(text), f"a transcript line was refused: {refused(text)}"
    assert result in text and "Game over" in text
    exports = list(out_dir.glob("*playpost-quodd-*.json"))
    assert len(exports) == 1
    data = json.loads(exports[0].read_text())
    engine, state = replay_export(data)  # checks the recorded state hash too
    status = engine.status(state)
    assert status.finished and status.result.text == result and status.result.winners
    summary = data["summary"]
    assert summary["scenario"] == last and summary["mode"] == mode
    if name == "expedition":  # two parts, on the B-side: the upgrades on faces came along into part 2
        assert summary["part"] == 2 and summary["board"] == "b"
        assert "Part 1 is done! On to part 2" in text
        assert summary["players"][0]["faces"] and len(summary["players"][0]["upgrades"]) >= 4
    if name == "overlord":  # bob joined as the overlord and drew from the overlord deck
        assert [p["name"] for p in summary["players"] if p.get("overlord")] == ["bob"]
        assert "from the overlord deck" in text and summary["overlord_deck"] < 33
    if name == "buddies":  # two players ran two heroes each: the buddies' turns were played by their controllers
        assert sorted(p.get("buddy_of", "") for p in summary["players"]) == ["", "", "ann", "bob"]
        assert "Forest (ann)" in text and not any(ln.startswith("ann/") for ln in lines)


# ---- seats, set-up and objectives of the overlord and buddies scenarios ---------------------------------------

def seat(player: str, **choices: str) -> Seat:
    return Seat(player=player, name=player.capitalize(), choices=choices)


def test_overlord_is_the_seat_that_joined_with_role_overlord_else_the_first_seat():
    st = E.setup({"scenario": "overlord"}, [seat("ann"), seat("bob", role="overlord"), seat("cat")], 1)
    assert [h.player for h in st.heroes if h.overlord] == ["bob"]
    st = E.setup({"scenario": "overlord"}, [seat("ann"), seat("bob")], 1)
    assert [h.player for h in st.heroes if h.overlord] == ["ann"]
    assert E.summary(st)["mode"] == "overlord" and E.summary(st)["players"][0]["overlord"] is True


def test_role_overlord_is_refused_outside_overlord_scenarios_and_for_a_second_overlord():
    with pytest.raises(IllegalAction, match="role:overlord"):
        E.check_seat({"scenario": "heist"}, [], seat("ann", role="overlord"))
    with pytest.raises(IllegalAction, match="role:overlord"):
        E.check_seat({"scenario": "overlord"}, [seat("ann", role="overlord")], seat("bob", role="overlord"))
    E.check_seat({"scenario": "overlord"}, [seat("ann", role="overlord")], seat("bob", role="hero"))


def test_overlord_sets_up_with_its_movement_bonus_its_own_deck_and_its_own_objective():
    sc = data.scenarios()["overlord"]
    st = E.setup({"scenario": "overlord"}, [seat("ann"), seat("bob")], 1)
    lord, other = st.heroes
    assert lord.movement == other.movement + sc.overlord_movement
    assert len(st.overlord_deck) == 33 and st.overlord_target == sc.overlord_target
    assert not set(st.overlord_deck) & set(st.deck + st.lineup)
    assert "(overlord)" in E.summary(st)["players"][0]["objective"]


def overlord_heist() -> QState:
    st = E.setup({"scenario": "overlord"}, [seat("ann"), seat("bob"), seat("cat")], 1)
    st.phase, st.pending = "move", None
    for h, at in zip(st.heroes, ("E5", "H5", "K5"), strict=True):
        h.pos = at
    return st


def test_overlord_the_heroes_win_together_by_banking_the_target_between_them():
    st = overlord_heist()
    bob, cat = st.heroes[1], st.heroes[2]
    bob.banked, cat.banked = ["red-crystal"], ["blue-crystal", "red-crystal"]
    ev: list[Event] = []
    check_win(st, ev)
    assert st.phase == "over" and sorted(st.winners) == ["bob", "cat"] and "win the heist together" in st.result_text


def test_overlord_wins_by_reaching_its_own_objective():
    st = overlord_heist()
    st.heroes[0].banked = ["red-crystal"] * st.overlord_target
    st.heroes[1].banked = ["blue-crystal"] * (st.target - 1)
    check_win(st, [])
    assert st.winners == ["ann"] and st.result_text.startswith("The overlord Ann banks")


def test_overlord_wins_when_the_heroes_run_out_of_time():
    st = overlord_heist()
    st.heroes[1].banked = ["blue-crystal"] * (st.target - 1)
    game_over_at_limit(st, [])
    assert st.winners == ["ann"] and "the overlord Ann wins" in st.result_text


def test_buddies_scenario_gives_each_player_a_buddy_after_every_players_own_hero():
    st = E.setup({"scenario": "buddies"}, [seat("ann", hero="rok", buddy="forest"), seat("bob", hero="trixie")], 3)
    assert [(h.player, h.hero, h.controller) for h in st.heroes[:3]] == [
        ("ann", "rok", ""), ("bob", "trixie", ""), ("ann/forest", "forest", "ann")]
    bob_buddy = st.heroes[3]
    assert bob_buddy.controller == "bob" and bob_buddy.hero not in ("rok", "trixie", "forest")
    assert st.heroes[2].name == "Forest (Ann)"
    assert E.summary(st)["players"][2]["buddy_of"] == "ann"
    assert set(E.status(st).to_act) <= {"ann", "bob"}  # the platform only ever sees the players


def test_buddy_seat_option_is_refused_outside_buddies_scenarios_and_for_a_taken_hero():
    with pytest.raises(IllegalAction, match="buddy"):
        E.check_seat({"scenario": "heist"}, [], seat("ann", buddy="forest"))
    with pytest.raises(IllegalAction, match="taken"):
        E.check_seat({"scenario": "buddies"}, [seat("ann", hero="forest")], seat("bob", buddy="forest"))
    with pytest.raises(IllegalAction, match="taken"):
        E.check_seat({"scenario": "buddies"}, [seat("ann", buddy="forest")], seat("bob", hero="forest"))


def test_buddies_a_buddy_reaching_the_last_marker_wins_for_its_controller():
    st = E.setup({"scenario": "buddies"}, [seat("ann", hero="rok"), seat("bob", hero="trixie")], 3)
    st.phase, st.pending = "move", None
    buddy = st.heroes[2]
    buddy.pos, buddy.progress = "E5", len(st.rally)
    check_win(st, [])
    assert st.phase == "over" and sorted(st.winners) == ["ann", "ann/" + buddy.hero]
    result = E.status(st).result
    assert result is not None and result.winners == ["ann"] and set(result.scores) == {"ann", "bob"}


@pytest.mark.parametrize("options,n", [({"scenario": "overlord"}, 2), ({"scenario": "overlord"}, 4),
                                       ({"scenario": "buddies"}, 1), ({"scenario": "buddies"}, 3),
                                       ({"scenario": "expedition", "board": "b"}, 2),
                                       ({"scenario": "buddies", "board": "b"}, 2)])
def test_random_legal_play_of_the_overlord_buddies_and_multi_part_scenarios_finishes_and_replays(options, n):
    seats = [seat(p) for p in ("ann", "bob", "cat", "dan")[:n]]
    for seed in range(3):
        out = random_playout(E, options, seats, seed, cap=4000, choose=lambda pick, st, p, acts: pick.choice(
            [a for a in acts if a.cmd != "rearrange"] or acts))
        assert E.status(out.state).finished, "random games end by the round limit"
        again = replay(E, options, seats, seed, out.log)
        assert E.dump(again) == E.dump(out.state)


@pytest.mark.parametrize("scenario,n", [("overlord", 2), ("buddies", 2)])
def test_computer_players_play_overlord_and_buddies_scenarios_to_their_end(scenario, n):
    seats = [seat(p) for p in ("ann", "bob", "cat")[:n]]
    st = E.setup({"scenario": scenario}, seats, 1)
    computer = make_player("normal")
    for i in range(3000):
        status = E.status(st)
        if status.finished:
            break
        who = status.to_act[0]
        st, _ = E.apply(st, who, computer.decide(E, st, who, random.Random(i), Budget(steps=200)))
    assert E.status(st).finished


def test_computer_spring_pruning_looks_at_a_throw_off_the_map_without_naming_its_square():
    """Found by a buddies game of computers: a spring on A1 threw north, off the map, and naming that square
    never ended (a column label of a negative number)."""
    st = E.setup({"scenario": "buddies"}, [seat("ann")], 1)
    h = st.heroes[0]
    h.pos = "A1"
    st.tokens["A1"] = Token(kind="spring")
    decide(st, "spring", h.player, h, ["N", "E", "S", "W"], "where the spring throws")
    moves = [Action.of("choose", option=o) for o in ("N", "E", "S", "W")]
    assert prune(E, st, "ann", moves) == moves
