"""Scenarios as data: the documented format (games/quodd/data/README.md), a server's own directory of scenario
files (`PLAYPOST_QUODD_SCENARIOS`), and a malformed file refused at load with its file, line and reason while the
good ones play."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.quodd import ENGINE as E
from games.quodd import scenarios
from games.quodd.data import DATA


@pytest.fixture
def server_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(scenarios.SERVER_DIR_ENV, str(tmp_path))
    scenarios.reload()
    yield tmp_path
    monkeypatch.delenv(scenarios.SERVER_DIR_ENV)
    scenarios.reload()


def _tutorial(**change: object) -> dict:
    raw = json.loads((DATA / "scenarios" / "tutorial.json").read_text())
    raw.update(change)
    return raw


def _write(path: Path, raw: dict) -> str:
    """One key a line, as a person would lay a file out; the text written."""
    text = json.dumps(raw, indent=2)
    path.write_text(text)
    return text


def _line_of(text: str, key: str) -> int:
    """The line where `"key":` (or the value `"key"` of a list item's key) first stands in the text."""
    at = text.find(f'"{key}":')
    return text[:at if at >= 0 else text.index(f'"{key}"')].count("\n") + 1


def test_a_server_scenario_is_loaded_listed_and_played(server_dir: Path) -> None:
    _write(server_dir / "sprint.json", _tutorial(id="sprint", name="Sprint", round_limit=6))
    assert "sprint" in scenarios.scenarios() and scenarios.refused() == ()
    assert "sprint" in E.option_choices("scenario")  # `/game new game:quodd scenario:` offers it
    E.check_options({"scenario": "sprint"})


def test_a_json_syntax_error_is_refused_with_its_line(server_dir: Path) -> None:
    (server_dir / "broken.json").write_text('{\n  "id": "broken",\n  "name": "Broken"\n  "mode": "ffa"\n}\n')
    _write(server_dir / "good.json", _tutorial(id="good"))
    assert scenarios.refused() == ("broken.json, line 4: not JSON: Expecting ',' delimiter",)
    assert "good" in scenarios.scenarios() and "broken" not in scenarios.scenarios()


def test_a_validation_error_points_at_the_line_of_the_offending_key(server_dir: Path) -> None:
    raw = _tutorial(id="badmode", mode="chaos")
    text = _write(server_dir / "badmode.json", raw)
    (problem,) = scenarios.refused()
    assert problem.startswith(f"badmode.json, line {_line_of(text, 'mode')}: mode: Input should be 'solo'")
    raw = _tutorial(id="badkind")
    raw["tokens"][4]["kind"] = "lava"
    text = _write(server_dir / "badmode.json", raw)
    scenarios.reload()
    (problem,) = scenarios.refused()
    assert problem == (f"badmode.json, line {_line_of(text, 'lava')}: scenario badkind: lava at "
                       f"{raw['tokens'][4]['at']}: unknown token kind")
    assert "badkind" not in scenarios.scenarios() and "tutorial" in scenarios.scenarios()


def test_a_rule_of_the_format_broken_is_refused_with_the_line_and_reason(server_dir: Path) -> None:
    """The checks after validation (a token on a respawn point, teams without two teams) point at their key too."""
    text = _write(server_dir / "lonely.json", _tutorial(id="lonely", mode="teams", teams=["Solo"], min_players=2))
    (problem,) = scenarios.refused()
    assert problem == (f"lonely.json, line {_line_of(text, 'teams')}: scenario lonely: a teams scenario "
                       "names two or more different teams")


def test_a_scenario_id_is_what_players_type(server_dir: Path) -> None:
    text = _write(server_dir / "caps.json", _tutorial(id="Big Race"))
    assert scenarios.refused() == (f"caps.json, line {_line_of(text, 'id')}: scenario 'Big Race': an id is "
                                   "lower-case letters, digits, - and _ (what players type)",)


def test_a_server_scenario_may_not_take_a_shipped_id(server_dir: Path) -> None:
    text = _write(server_dir / "again.json", _tutorial(name="Another tutorial"))
    assert scenarios.refused() == (f"again.json, line {_line_of(text, 'id')}: scenario id 'tutorial' is taken",)
    assert scenarios.scenarios()["tutorial"].name == "Tutorial: First Tumbles"


def test_coop_scenarios_need_two_players_and_teams_their_teams() -> None:
    base = _tutorial()
    with pytest.raises(scenarios.ScenarioError, match="co-op is for two or more"):
        scenarios.check_scenario(scenarios.ScenarioDef.model_validate({**base, "mode": "coop"}))
    with pytest.raises(scenarios.ScenarioError, match="only a scenario of mode teams names teams"):
        scenarios.check_scenario(scenarios.ScenarioDef.model_validate({**base, "teams": ["A", "B"]}))
    with pytest.raises(scenarios.ScenarioError, match="need min_players 4"):
        scenarios.check_scenario(scenarios.ScenarioDef.model_validate(
            {**base, "mode": "teams", "teams": ["A", "B"], "min_players": 2}))


def test_every_mode_this_issue_owns_has_a_shipped_scenario() -> None:
    shipped = {sc.mode for sc in scenarios.scenarios().values()}
    assert {"solo", "coop", "ffa", "teams"} <= shipped
