"""Play modes (rulebook "Scenario Types"): solo, co-op, free-for-all and teams, apart from each scenario's objective;
games saved before the modes load and play on unchanged."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from qhelpers import build

from games.core import Action
from games.quodd import ENGINE as E
from games.quodd.modes import play_mode, same_side, side_of, teammates
from games.quodd.scenarios import scenarios

SAVED = Path(__file__).parent / "saved"


@pytest.mark.parametrize("name, objective, mode", [("trial", "trial", "coop"), ("heist", "heist", "ffa")])
def test_a_game_saved_before_play_modes_loads_and_plays_on_unchanged(name: str, objective: str, mode: str) -> None:
    """The old `mode` (race / heist / solo) is the objective now (solo = the time trial); the play mode comes from
    the scenario (the trial seated with two: its co-op variant). The moves played on from the saved state by the
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
