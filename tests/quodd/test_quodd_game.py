"""Setup, scenarios as data, the turn and round structure, and random-play conformance."""
from __future__ import annotations

import json

import pytest
from qhelpers import build, do, hero, legal

from games.core import Action, IllegalAction, RulesDataError, Seat
from games.core.play import replay
from games.core.playout import random_playout
from games.quodd import ENGINE as E
from games.quodd import data, scenarios
from games.quodd.skills import top_face


def seats(n: int, **choices: str) -> list[Seat]:
    names = ["ann", "bob", "cat", "dan", "eve", "fay"]
    return [Seat(player=p, name=p.capitalize(), choices={"hero": choices[p]} if p in choices else {})
            for p in names[:n]]


def test_every_bundled_data_file_loads_and_validates():
    assert set(data.skills()) == {"slide", "diagonal", "dash", "tumble", "jump"}
    assert len(data.heroes()) == 8  # six dealt at random, two chosen by name only (Wren, Ossian)
    assert {"tutorial", "heist", "trial"} <= set(data.scenarios())
    for sc in data.scenarios().values():
        data.check_scenario(sc)


def test_scenarios_use_every_printed_feature_and_every_token_kind():
    features, kinds = set(), set()
    for sc in data.scenarios().values():
        layout = data.compose(sc)
        features |= {ch for row in layout.rows for ch in row}
        kinds |= {t.kind for t in sc.tokens} | set(sc.secret_pool)
    assert set(data.FEATURES) <= features
    assert set(data.token_kinds()) <= kinds


RALLY = {"at": "J3", "kind": "rally", "number": 1}


def _scenario(**changes):
    base = data.scenarios()["tutorial"].model_dump()
    base.update(changes)
    return scenarios.ScenarioDef.model_validate(base)


def test_token_placement_rules_are_checked_at_load():
    with pytest.raises(RulesDataError, match="respawn"):
        data.check_scenario(_scenario(tokens=[{"at": "E2", "kind": "spring"}, RALLY]))
    with pytest.raises(RulesDataError, match="only walls"):
        data.check_scenario(_scenario(tokens=[{"at": "H3", "kind": "spring"}, RALLY]))
    data.check_scenario(_scenario(tokens=[{"at": "H3", "kind": "wall"}, RALLY]))
    with pytest.raises(RulesDataError, match="already lies"):
        data.check_scenario(_scenario(tokens=[{"at": "J3", "kind": "wall"}, RALLY]))
    with pytest.raises(RulesDataError, match="unknown token"):
        data.check_scenario(_scenario(tokens=[{"at": "J3", "kind": "lava"}]))
    with pytest.raises(RulesDataError, match="unknown board"):
        data.check_scenario(_scenario(boards=[{"board": "nowhere", "at": "A1"}]))
    with pytest.raises(RulesDataError, match="overlap"):
        data.check_scenario(_scenario(boards=[{"board": "meadow", "at": "A1"}, {"board": "river", "at": "E1"}]))


def test_a_board_file_with_a_bad_row_is_refused_with_a_clear_message():
    with pytest.raises(Exception, match="9 rows of 9"):
        data.BoardDef.model_validate({"id": "x", "name": "X", "kind": "board", "rows": ["..."] * 3})
    with pytest.raises(Exception, match="no letter"):
        data.BoardDef.model_validate({"id": "x", "name": "X", "kind": "board",
                                      "rows": ["w........"] + ["........."] * 8})


def test_boards_compose_into_one_map_turned_boards_turn_their_arrows_and_gaps_are_void():
    trial = data.compose(data.scenarios()["trial"])
    assert (trial.width, trial.height) == (18, 11)
    assert trial.rows[0].startswith("ss.sRs.ss") and trial.rows[0][9:] == "#" * 9  # start zone turned to the north
    sc = _scenario(boards=[{"board": "meadow", "at": "A1", "turn": 90}])
    turned = data.compose(sc)
    assert "v" in "".join(turned.rows) and ">" not in "".join(turned.rows)  # the east currents now run south


def test_heroes_are_chosen_at_join_or_assigned_and_a_taken_hero_is_refused():
    E.check_seat({"scenario": "heist"}, seats(1, ann="rok"), Seat(player="bob", name="Bob", choices={"hero": "Forest"}))
    with pytest.raises(IllegalAction, match="taken"):
        E.check_seat({"scenario": "heist"}, seats(1, ann="rok"),
                     Seat(player="bob", name="Bob", choices={"hero": "Rok"}))
    with pytest.raises(IllegalAction, match="no hero"):
        E.check_seat({}, [], Seat(player="bob", name="Bob", choices={"hero": "Zeus"}))
    st = E.setup({"scenario": "heist"}, seats(3, ann="rok"), 5)
    assert hero(st, "ann").hero == "rok"
    assert len({h.hero for h in st.heroes}) == 3
    with pytest.raises(IllegalAction):
        E.check_options({"scenario": "moon"})


def test_heroes_are_placed_counter_clockwise_from_the_right_of_the_first_player_q_up_facing_in():
    st = E.setup({"scenario": "heist"}, seats(4), 11)
    first = st.first
    order = []
    while st.pending is not None and st.pending.kind == "place":
        p = st.pending.player
        order.append(p)
        st, _ = do(st, p, f"choose option:{st.pending.options[0]}")
    n = 4
    assert order == [st.heroes[(first - k) % n].player for k in range(1, n + 1)]
    assert order[-1] == st.heroes[first].player
    for h in st.heroes:
        assert top_face(h) == "q"
        assert h.front == ("E" if h.pos.startswith("A") else "W")
    assert st.phase == "skills"


def test_skills_are_assigned_during_setup_with_a_default_when_the_player_just_confirms():
    st = E.setup({"scenario": "tutorial"}, seats(2, ann="rok", bob="forest"), 3)
    while st.pending is not None:
        st, _ = do(st, st.pending.player, f"choose option:{st.pending.options[0]}")
    assert sorted(E.status(st).to_act) == ["ann", "bob"]
    st, _ = do(st, "ann", "rearrange front:jump back:slide")
    assert hero(st, "ann").skills["front"] == "jump" and hero(st, "ann").skills["back"] == "slide"
    st, _ = do(st, "ann", "done")
    st, _ = do(st, "bob", "done")
    assert hero(st, "bob").skills == data.heroes()["forest"].default_skills
    # the first turn begins; phase 1 has nothing to play and passes by itself into the movement
    assert st.phase == "move" and not st.m.tumbled and st.round == 1 and st.turn == st.first


def test_turn_passes_clockwise_and_the_round_ends_with_the_coin_passing_left():
    st = build(["......"] * 3, heroes=[dict(pos="A1"), dict(pos="F3"), dict(pos="A3")], phase="explore")
    st.first, st.turn = 1, 0  # bob started the round, ann is last
    st, ev = do(st, "ann", "done")
    assert st.phase == "upgrade" and sorted(E.status(st).to_act) == ["ann", "bob", "cat"]  # end of round, step 4
    for p in ("ann", "bob"):
        st, ev = do(st, p, E.skip_action(st, p).text())
    assert st.phase == "upgrade" and E.status(st).to_act == ["cat"]
    st, ev = do(st, "cat", E.skip_action(st, "cat").text())
    assert st.round == 2 and st.first == 2 and st.turn == 2 and st.phase == "move"  # phase 1 passed: no cards
    assert any("first player coin" in e for e in ev)


def test_phases_one_three_and_four_are_passed_through_with_done():
    st = build(["......"] * 3, heroes=[dict(pos="B2")], phase="power")
    assert legal(st, "ann") == ["done"]
    st, _ = do(st, "ann", "done")
    assert st.phase == "move"


def test_the_game_ends_at_the_scenarios_round_limit():
    st = build(["......"] * 3, heroes=[dict(pos="B2", progress=1), dict(pos="E2")], phase="explore",
               rally=["F1", "F3"], round_limit=3)
    st.round, st.turn, st.first = 3, 1, 0
    st, ev = do(st, "bob", "done")
    s = E.status(st)
    assert s.finished and s.result.winners == ["ann"] and s.result.scores == {"ann": 1, "bob": 0}


def test_race_is_won_by_reaching_the_last_rally_marker_in_order():
    st = build(["......"] * 3, heroes=[dict(pos="A2", movement=3)], tumbled=True, ready="slide", points=3,
               rally=["D2", "B2"])
    st, ev = do(st, "ann", "move direction:E distance:3")  # passes B2 (marker 2) before marker 1: no credit
    assert hero(st, "ann").progress == 1 and not E.status(st).finished
    st.m.ready, st.m.points = "dash", 2
    st, ev = do(st, "ann", 'move path:"W W"')
    assert E.status(st).finished and E.status(st).result.winners == ["ann"]


def test_heist_is_won_by_banking_the_target_number_of_crystals():
    st = build(["......", "..D..."], heroes=[dict(pos="B2", carrying=["a-crystal"], banked=["b-crystal", "c-crystal"])],
               tumbled=True, ready="slide", points=1, mode="heist", target=3)
    st, ev = do(st, "ann", "move direction:E distance:1")
    assert E.status(st).finished and "banks 3" in E.status(st).result.text


def test_solo_trial_is_lost_when_the_clock_runs_out():
    st = build(["......"], heroes=[dict(pos="B1")], phase="explore", rally=["F1"], mode="solo", round_limit=1)
    st, _ = do(st, "ann", "done")
    s = E.status(st)
    assert s.finished and s.result.winners == [] and "clock" in s.result.text


def test_summary_has_the_export_fields():
    st = build(["......"] * 3, heroes=[dict(pos="B2", carrying=["red-crystal"])], rally=["F1"])
    s = E.summary(st)
    assert s["round"] == 1 and s["first_player"] == "Ann"
    p = s["players"][0]
    assert p["position"] == "B2" and p["top_face"] == "q" and p["facing"] == "E"
    assert p["collectibles"] == ["red-crystal"] and p["objective"] == "0/1 rally markers"


def test_preview_leaves_the_game_alone_and_never_tells_the_real_roll():
    st = build(["........"] * 5, heroes=[dict(pos="A3")], tokens={"B3": "teleporter"}, tumbled=True,
               ready="slide", points=1)
    before = E.dump(st)
    new, ev = E.preview(st, "ann", Action.parse("move direction:E distance:1"))
    assert E.dump(st) == before
    assert any("stand-ins" in e.text for e in ev)
    real, _ = E.apply(st, "ann", Action.parse("move direction:E distance:1"))
    assert real.rng.counter == new.rng.counter  # the same number of dice, from other dice


def test_rules_topics_cover_the_movement_rules():
    topics = E.rules_topics()
    assert {"overview", "turn", "movement", "skills", "elements", "pits", "pushing", "stealing",
            "scenarios"} <= set(topics)


def _random_game(scenario: str, n: int, seed: int, cap: int = 4000):
    """The shared random playout (a dead end fails it), each state round-tripping through JSON."""
    s = seats(n)

    def choose(pick, state, player, acts):
        # favour moving on so the games do not spend all their steps rearranging
        moves = [a for a in acts if a.cmd != "rearrange"] or acts
        return pick.choice(moves if pick.random() < 0.95 else acts)

    def round_trips(before, player, action, after, events):
        text = E.dump(after)
        assert E.dump(E.load(text)) == text

    out = random_playout(E, {"scenario": scenario}, s, seed, cap=cap, choose=choose, each=round_trips)
    return s, out.state, out.log


@pytest.mark.parametrize("scenario,n", [("tutorial", 2), ("heist", 4), ("trial", 1), ("tutorial", 4), ("heist", 6),
                                        ("trial", 3), ("heist", 1), ("pasture", 2), ("pasture", 4),
                                        ("foundry", 2), ("foundry", 4), ("flock", 1), ("flock", 3)])
def test_random_legal_play_finishes_without_dead_ends_round_trips_and_replays(scenario, n):
    for seed in range(4):
        s, state, log = _random_game(scenario, n, seed)
        assert E.status(state).finished, "random games end by the round limit"
        again = replay(E, {"scenario": scenario}, s, seed, log)
        assert E.dump(again) == E.dump(state)
        json.loads(E.view(state, None).model_dump_json())


def test_joining_again_to_change_hero_is_not_refused_as_a_full_table_or_a_taken_hero():
    table = seats(4, ann="rok")
    E.check_seat({"scenario": "trial"}, table, Seat(player="ann", name="Ann", choices={"hero": "rok"}))
    with pytest.raises(IllegalAction, match="at most 4"):
        E.check_seat({"scenario": "trial"}, table, Seat(player="eve", name="Eve"))


def test_a_scenario_may_say_which_way_heroes_face_into_the_board():
    """The trial's start zone lies along the north edge: heroes are placed facing south, into the board."""
    st = E.setup({"scenario": "trial"}, seats(1), 1)
    st, _ = do(st, "ann", f"choose option:{st.pending.options[0]}")
    h = st.heroes[0]
    assert (h.head, h.front, h.home_front) == ("U", "S", "S")
