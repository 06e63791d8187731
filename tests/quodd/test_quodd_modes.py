"""Play modes (rulebook "Scenario Types"): solo, co-op, free-for-all and teams, apart from each scenario's objective;
games saved before the modes load and play on unchanged."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from qhelpers import build, do, hero, illegal, legal

from games.core import Action, IllegalAction, Seat
from games.core.ai import Budget, make_player
from games.core.play import step
from games.quodd import ENGINE as E
from games.quodd import data
from games.quodd.goals import check_win, game_over_at_limit
from games.quodd.modes import play_mode, same_side, side_of, teammates
from games.quodd.modes.teams import deal_teams
from games.quodd.scenarios import scenarios

SAVED = Path(__file__).parent / "saved"


@pytest.mark.parametrize("name, objective, mode", [("trial", "trial", "solo"), ("heist", "heist", "ffa")])
def test_a_game_saved_before_play_modes_loads_and_plays_on_unchanged(name: str, objective: str, mode: str) -> None:
    """The old `mode` (race / heist / solo) is the objective now (solo = the time trial); the play mode comes from
    the scenario (the trial seated with two stays solo, without the co-op variant's card sharing, which would change
    what is legal in it). The moves played on from the saved state by the
    engine of that day end the same way today."""
    saved = json.loads((SAVED / f"{name}_before_modes.json").read_text())
    assert "objective" not in saved["state"] and saved["state"]["mode"] in ("solo", "heist")
    st = E.load(json.dumps(saved["state"]))
    assert (st.objective, st.mode) == (objective, mode)
    assert all(h.team == "" for h in st.heroes)
    for player, text in saved["then"]:
        st, _ = E.apply(st, player, Action.parse(text))
    end = saved["end"]
    assert (st.phase, st.round, st.winners, st.result_text) == (end["phase"], end["round"], end["winners"],
                                                                end["result_text"])
    assert [h.pos for h in st.heroes] == end["positions"]
    assert [h.progress for h in st.heroes] == end["progress"]
    assert [len(h.banked) for h in st.heroes] == end["banked"]


def test_every_scenario_names_its_objective_and_play_mode() -> None:
    for sc in scenarios().values():
        assert sc.objective in ("race", "heist", "trial")
        assert sc.mode in ("solo", "coop", "ffa", "teams", "overlord", "buddies")
    assert (scenarios()["trial"].objective, scenarios()["trial"].mode) == ("trial", "solo")


def test_solo_scenario_seated_with_friends_is_its_coop_variant() -> None:
    """Rulebook: many solo scenarios can be played co-operatively."""
    assert play_mode("solo", 1) == "solo"
    assert play_mode("solo", 3) == "coop"
    assert play_mode("ffa", 1) == "ffa"


def test_sides_free_for_all_coop_and_teams() -> None:
    ffa = build(["....."], heroes=[dict(pos="A1"), dict(pos="C1"), dict(pos="E1")])
    a, b, c = ffa.heroes
    assert not same_side(ffa, a, b) and teammates(ffa, a) == []
    coop = build(["....."], heroes=[dict(pos="A1"), dict(pos="C1"), dict(pos="E1")], play="coop")
    assert teammates(coop, coop.heroes[0]) == coop.heroes[1:] and side_of(coop, coop.heroes[2]) == "all"
    teams = build(["....."], heroes=[dict(pos="A1"), dict(pos="C1"), dict(pos="E1"), dict(pos="E1")],
                  play="teams", teams=["Red", "Blue", "Red", "Blue"])
    r1, b1, r2, b2 = teams.heroes
    assert teammates(teams, r1) == [r2] and teammates(teams, b2) == [b1]
    assert same_side(teams, r1, r2) and not same_side(teams, r1, b1)


# ---- co-op and team card sharing (rulebook "Co-Op and Team Card Sharing") ---------------------------------------
OPEN = ["........", "........", "........", "........", "........", "........"]


def _sharing(play: str = "coop", pos2: str = "E3", phase: str = "power", teams: list[str] | None = None):
    st = build(OPEN, heroes=[dict(pos="A3"), dict(pos=pos2), dict(pos="A4")], phase=phase, play=play, teams=teams)
    hero(st, "ann").hand = list(st.deck[:2])
    return st


def test_card_sharing_within_4_spaces_counted_orthogonally_in_phase_1() -> None:
    """Co-op: within 4 spaces of a teammate (orthogonal count) a player passes cards freely in phase 1 or 3."""
    st = _sharing(pos2="C5")  # 2 east + 2 south = 4 spaces
    card = hero(st, "ann").hand[0]
    assert f"give card:{card} hero:bob" in legal(st, "ann", "give")
    st, texts = do(st, "ann", f"give card:{card} hero:bob")
    assert card in hero(st, "bob").hand and card not in hero(st, "ann").hand
    assert "Ann gives Bob a card." in texts


def test_card_sharing_in_phase_3_recovery_too() -> None:
    st = _sharing(phase="recovery")
    card = hero(st, "ann").hand[1]
    st, _ = do(st, "ann", f"give card:{card} hero:cat")
    assert hero(st, "cat").hand == [card]


def test_card_sharing_refused_out_of_range() -> None:
    """Five spaces counted orthogonally (3 east, 2 south) is beyond the 4 of card sharing, though only 3 away
    diagonally."""
    st = _sharing(pos2="D5")
    card = hero(st, "ann").hand[0]
    assert "5 spaces away" in str(illegal(st, "ann", f"give card:{card} hero:bob"))


def test_card_sharing_refused_in_the_movement_and_on_anothers_turn() -> None:
    st = _sharing(phase="move")
    card = hero(st, "ann").hand[0]
    assert "phase 1 (power-up) or phase 3" in str(illegal(st, "ann", f"give card:{card} hero:bob"))
    st = _sharing()
    hero(st, "bob").hand = [card]
    assert "not your move" in str(illegal(st, "bob", f"give card:{card} hero:ann"))


def test_card_sharing_refused_to_a_rival_and_in_free_for_all() -> None:
    """Teams: only your own team shares; a free-for-all shares nothing."""
    st = _sharing(play="teams", teams=["Red", "Blue", "Red"])
    card = hero(st, "ann").hand[0]
    assert "not on your side" in str(illegal(st, "ann", f"give card:{card} hero:bob"))
    st, _ = do(st, "ann", f"give card:{card} hero:cat")
    assert hero(st, "cat").hand == [card]
    ffa = _sharing(play="ffa")
    assert legal(ffa, "ann", "give") == []
    assert "only in co-op and team games" in str(illegal(ffa, "ann", f"give card:{card} hero:bob"))


def test_card_sharing_keeps_the_card_private() -> None:
    """The hand stays private: the button goes to the giver alone, the table reads only that a card passed."""
    st = _sharing()
    card = hero(st, "ann").hand[0]
    act = Action.parse(f"give card:{card} hero:bob")
    assert E.private_action(st, "ann", act)
    _, new, events = step(E, st, "ann", act)
    named = [e for e in events if data.cards()[card].name in e.text]
    assert named and all(e.to == ["ann", "bob"] for e in named)
    assert "You hold no card" in str(illegal(new, "ann", f"give card:{card} hero:bob"))


# ---- who wins: co-op all together, teams as a team (games/quodd/README.md, house readings) -----------------------
def _four(play: str, objective: str = "heist", teams: list[str] | None = None, **kw):
    return build(OPEN, heroes=[dict(pos="A1"), dict(pos="C1"), dict(pos="E1"), dict(pos="G1")], mode=objective,
                 play=play, teams=teams, rally=["H6"], target=3, **kw)


def test_coop_heist_crystals_banked_by_everyone_count_and_all_win_together() -> None:
    """Co-op: players share the objective; all win together."""
    st = _four("coop")
    hero(st, "ann").banked, hero(st, "cat").banked = ["red-crystal", "blue-crystal"], ["green-crystal"]
    ev: list = []
    check_win(st, ev)
    assert st.phase == "over" and st.winners == ["ann", "bob", "cat", "dan"]
    assert "between them" in st.result_text


def test_coop_all_lose_together_at_the_round_limit() -> None:
    """Co-op: short of the objective when the rounds run out, every player loses."""
    st = _four("coop")
    hero(st, "ann").banked = ["red-crystal", "blue-crystal"]
    ev: list = []
    check_win(st, ev)
    assert st.phase != "over"
    game_over_at_limit(st, ev)
    assert st.winners == [] and "the clock wins" in st.result_text


def test_teams_heist_the_team_banking_the_target_between_its_heroes_wins() -> None:
    st = _four("teams", teams=["Red", "Blue", "Red", "Blue"])
    hero(st, "bob").banked = ["red-crystal", "blue-crystal"]
    hero(st, "ann").banked = ["red-crystal"]
    ev: list = []
    check_win(st, ev)
    assert st.phase != "over"  # Red 1, Blue 2
    hero(st, "dan").banked = ["green-crystal"]
    check_win(st, ev)
    assert st.winners == ["bob", "dan"]
    assert st.result_text == "Team Blue (Bob, Dan) banks 3 crystals and wins the heist!"


def test_teams_race_the_first_hero_of_a_team_to_finish_wins_it_for_the_team() -> None:
    st = _four("teams", objective="race", teams=["Red", "Blue", "Red", "Blue"])
    hero(st, "cat").progress = 1
    ev: list = []
    check_win(st, ev)
    assert st.winners == ["ann", "cat"] and "Cat reaches the last rally marker" in st.result_text
    assert "Team Red wins" in st.result_text


def test_teams_at_the_round_limit_the_team_with_most_banked_wins_ties_share() -> None:
    st = _four("teams", teams=["Red", "Blue", "Red", "Blue"])
    hero(st, "ann").banked, hero(st, "cat").banked, hero(st, "bob").banked = ["a"], ["b"], ["c"]
    ev: list = []
    game_over_at_limit(st, ev)
    assert st.winners == ["ann", "cat"] and "Team Red wins with 2 crystals banked" in st.result_text
    st = _four("teams", teams=["Red", "Blue", "Red", "Blue"])
    hero(st, "ann").banked, hero(st, "bob").banked = ["a"], ["c"]
    game_over_at_limit(st, ev)
    assert st.winners == ["ann", "cat", "bob", "dan"] and "share the win" in st.result_text


def test_free_for_all_keeps_every_hero_for_themselves() -> None:
    """Free-for-all: the race and heist as before: one hero's crystals are theirs alone."""
    st = _four("ffa")
    hero(st, "ann").banked, hero(st, "cat").banked = ["a", "b"], ["c"]
    ev: list = []
    check_win(st, ev)
    assert st.phase != "over"
    game_over_at_limit(st, ev)
    assert st.winners == ["ann"] and st.result_text.endswith("Ann wins with 2 crystals banked.")


def test_teams_are_picked_in_the_lobby_or_dealt_in_seat_order() -> None:
    """Seat option `team:`; the rest go to the smaller team in seat order; every team needs two heroes."""
    sc = scenarios()["teamheist"]
    seats = [Seat(player=p, name=p, choices=c) for p, c in
             (("ann", {"team": "blue"}), ("bob", {}), ("cat", {}), ("dan", {}))]
    assert deal_teams(sc, seats) == ["Blue", "Red", "Red", "Blue"]
    with pytest.raises(IllegalAction, match="Red would have fewer"):
        deal_teams(sc, [Seat(player=p, name=p, choices={"team": "Blue"}) for p in ("a", "b", "c", "d")])
    st = E.setup({"scenario": "teamheist"}, seats, 3)
    assert [h.team for h in st.heroes] == ["Blue", "Red", "Red", "Blue"] and st.mode == "teams"
    assert E.summary(st)["mode"] == "teams" and E.summary(st)["players"][0]["team"] == "Blue"
    with pytest.raises(IllegalAction, match="no team called `Green`"):
        E.check_seat({"scenario": "teamheist"}, seats, Seat(player="eve", name="eve", choices={"team": "Green"}))
    with pytest.raises(IllegalAction, match="not played in teams"):
        E.check_seat({"scenario": "heist"}, [], Seat(player="eve", name="eve", choices={"team": "Red"}))
    assert E.seat_choices({"scenario": "teamheist"}, [], "team") == ["Red", "Blue"]


@pytest.mark.parametrize("scenario", sorted(scenarios()))
def test_computer_players_play_every_shipped_scenario_of_every_mode_to_its_end(scenario: str) -> None:
    """The computer player (normal level, a small budget) finishes each mode's scenario; a result names sides."""
    sc = scenarios()[scenario]
    n = max(sc.min_players, min(2, sc.max_players))
    st = E.setup({"scenario": scenario}, [Seat(player=f"p{i}", name=f"P{i}") for i in range(n)], 5)
    player = make_player("normal")
    for k in range(4000):
        status = E.status(st)
        if status.finished:
            break
        who = status.to_act[0]
        st, _ = E.apply(st, who, player.decide(E, st, who, random.Random(k), Budget(steps=60, playouts=1, depth=4,
                                                                                        width=3)))
    assert E.status(st).finished and st.result_text
    if st.winners and st.mode in ("coop", "solo"):
        assert sorted(st.winners) == sorted(h.player for h in st.heroes)  # all win together
    for h in st.heroes:  # a side wins or loses as one
        assert all((m.player in st.winners) == (h.player in st.winners) for m in teammates(st, h))


def test_the_solo_time_trial_seated_with_a_friend_is_played_coop_with_card_sharing() -> None:
    """Rulebook: many solo scenarios can be played co-operatively; the trial's co-op variant shares cards too."""
    seats = [Seat(player=p, name=p) for p in ("ann", "bob")]
    st = E.setup({"scenario": "trial"}, seats, 5)
    assert (st.objective, st.mode) == ("trial", "coop") and E.summary(st)["mode"] == "coop"
    alone = E.setup({"scenario": "trial"}, seats[:1], 5)
    assert (alone.objective, alone.mode) == ("trial", "solo")
    assert E.view(st, None).mode == "coop"  # the view shows the mode
