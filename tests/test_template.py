"""The template game's rules (games/_template, id `count`), one test per rule.

A new game copies these along with the package: tests named as rules, a state built by
hand for each situation, `illegal` asserting the refusal and that nothing changed.
"""
from __future__ import annotations

import json

import pytest

from games._template import ENGINE
from games._template.data import House
from games._template.state import CountState
from games.core import Action, IllegalAction, Rng, RulesDataError, Seat
from games.core.play import resolve, step

TRANSCRIPT = """\
# the template game through the console (seed 5): a taken colour, two adds, the refused third, a decision
ann> /game new game:count seed:5
bob> /game join colour:blue
cat> /game join colour:blue
ann> /game start
ann> /count add n:1
ann> /count add n:1
ann> /count add n:1
ann> /count roll
ann> /count end
ann> /count discard
ann> /count end
bob> /game hand
bob> /count roll
bob> button 1
"""
SEATS = [Seat(player="ann", name="Ann"), Seat(player="bob", name="Bob")]


def game(**fields: object) -> CountState:
    """Ann and Bob, no bonus unless given, Ann to act; any field may be set."""
    base: dict[str, object] = {"players": ["ann", "bob"], "names": ["Ann", "Bob"], "totals": [0, 0],
                               "secrets": [0, 0], "rng": Rng(seed=1)}
    return CountState.model_validate(base | fields)


def do(s: CountState, player: str, text: str) -> tuple[CountState, list[str]]:
    _, after, events = step(ENGINE, s, player, Action.parse(text))
    assert isinstance(after, CountState)
    return after, [e.text for e in events]


def illegal(s: CountState, player: str, text: str) -> str:
    before = ENGINE.dump(s)
    with pytest.raises(IllegalAction) as refused:
        resolve(ENGINE, s, player, Action.parse(text))
    assert ENGINE.dump(s) == before
    return f"{refused.value.reason} {refused.value.hint}"


def legal(s: CountState, player: str = "ann") -> list[str]:
    return [a.text() for a in ENGINE.legal_actions(s, player)]


def test_a_turn_offers_add_roll_and_end_to_the_active_player_only():
    s = ENGINE.setup({}, SEATS, 7)
    assert legal(s) == ["add n:1", "add n:2", "roll", "end"]
    assert legal(s, "bob") == [] and legal(s, "cy") == []
    assert ENGINE.status(s).waiting_for == "Ann" and ENGINE.status(s).turn_key == "1:0"


def test_add_at_most_twice_a_turn_and_the_refusal_comes_from_the_same_candidates():
    s, events = do(game(), "ann", "add n:2")
    assert events == ["Ann adds 2."] and s.totals == [2, 0]
    s, _ = do(s, "ann", "add n:1")
    assert legal(s) == ["roll", "end"]
    assert illegal(s, "ann", "add n:1") == "You may add only 2 times a turn. Legal now: `roll`, `end`."
    s, _ = do(s, "ann", "end")
    s, _ = do(s, "bob", "end")
    assert s.adds == 0 and legal(s)[:2] == ["add n:1", "add n:2"]  # a new turn, two adds again


def test_an_amount_that_is_not_offered_is_refused_with_what_is_legal():
    assert "Legal now: `add n:1`, `add n:2`." in illegal(game(), "ann", "add n:7")


def test_roll_opens_a_keep_or_discard_decision_and_nothing_else():
    s, events = do(game(), "ann", "roll")
    assert s.pending_roll is not None and events == [f"Ann rolls {s.pending_roll}."]
    assert legal(s) == ["keep", "discard"]
    st = ENGINE.status(s)
    assert (st.phase, st.to_act, st.waiting_for) == ("deciding", ["ann"], "Ann")
    assert "not legal now" in illegal(s, "ann", "end")


def test_keep_scores_the_die_and_discard_does_not():
    kept, events = do(game(pending_roll=5), "ann", "keep")
    assert kept.totals == [5, 0] and kept.pending_roll is None and events == ["Ann keeps the 5."]
    dropped, events = do(game(pending_roll=5), "ann", "discard")
    assert dropped.totals == [0, 0] and dropped.pending_roll is None and events == ["Ann discards the 5."]
    assert legal(kept) == ["add n:1", "add n:2", "roll", "end"]  # the turn goes on


def test_the_pending_decision_waits_one_hour_then_counts_as_discard():
    s = game(pending_roll=4)
    pending = ENGINE.pending(s)
    assert pending is not None and pending.default == Action.of("discard") and pending.player == "ann"
    assert ENGINE.timeout(s, {}) == (1.0, Action.of("discard"))
    assert ENGINE.skip_action(s, "ann") == Action.of("discard")  # a skip vote plays what expiry plays
    assert ENGINE.timeout(game(), {}) is None  # an ordinary turn waits under the table's deadline
    assert ENGINE.skip_action(game(), "ann") == Action.of("end")


def test_end_passes_the_turn_and_a_new_round_starts_with_the_first_seat():
    s, events = do(game(), "ann", "end")
    assert events == ["Ann ends the turn."] and (s.active, s.round) == (1, 1)
    s, _ = do(s, "bob", "end")
    assert (s.active, s.round) == (0, 2) and ENGINE.status(s).turn_key == "2:0"


def test_the_secret_bonus_counts_for_reaching_twelve():
    s, events = do(game(totals=[9, 0], secrets=[2, 0]), "ann", "add n:1")
    assert s.finished and s.winners == ["ann"] and events[-1] == "The game ends."
    st = ENGINE.status(s)
    assert st.finished and st.phase == "over" and st.result is not None and st.result.winners == ["ann"]
    assert legal(s) == [] and ENGINE.skip_action(s, "ann") is None


def test_after_round_six_the_leader_wins_and_ties_share_the_win():
    s, _ = do(game(round=6, active=1, totals=[3, 1], secrets=[1, 3]), "bob", "end")
    assert s.finished and s.winners == ["ann", "bob"]
    assert ENGINE.status(s).round == 6  # the result says round 6, not the round that never started


def test_the_secret_bonus_is_private():
    s = ENGINE.setup({}, SEATS, 3)
    assert ENGINE.private_text(s, "bob") == f"Your secret bonus: {s.secrets[1]}"
    assert ENGINE.private_text(s, "spectator") == ""
    public = ENGINE.view(s, None).model_dump()
    assert "secrets" not in public and set(public) == {"names", "totals", "active", "round"}
    assert all(1 <= b <= 3 for b in s.secrets)


def test_no_two_seats_share_a_colour():
    seated = [Seat(player="ann", name="Ann", choices={"colour": "blue"})]
    with pytest.raises(IllegalAction) as refused:
        ENGINE.check_seat({}, seated, Seat(player="bob", name="Bob", choices={"colour": "blue"}))
    assert (refused.value.reason, refused.value.hint) == ("blue is taken.", "Free: red, green, gold.")
    ENGINE.check_seat({}, seated, Seat(player="bob", name="Bob", choices={"colour": "gold"}))
    ENGINE.check_seat({}, seated, Seat(player="bob", name="Bob"))  # no colour chosen: fine
    assert ENGINE.seat_choices({}, seated, "colour") == ["red", "green", "gold"]


def test_the_template_is_registered_by_the_tests_not_discovered_as_a_shipped_game():
    from games.core.registry import all_games

    assert "count" not in all_games.__wrapped__()  # a fresh discovery skips games/_template
    assert "count" in all_games()  # conftest registers it


async def test_a_game_through_the_console_as_a_transcript(tmp_path):
    """What players read, as `playpost script` prints it (a game keeps its transcripts in tests/<id>/transcripts)."""
    from bot.console import transcript_output

    path = tmp_path / "count.txt"
    path.write_text(TRANSCRIPT)
    out = await transcript_output(path, tmp_path)
    assert "(only cat sees this) blue is taken.\n  Free: red, green, gold." in out
    assert "buttons: [1] add n:1 | [2] add n:2 | [3] roll | [4] end" in out
    assert "(only ann sees this) You may add only 2 times a turn.\n  Legal now: `roll`, `end`." in out
    assert "Count · round 1 · deciding · waiting for ann (deadline 2026-01-01 01:07 UTC)" in out  # one hour
    assert "(only ann sees this) `end` is not legal now.\n  Legal now: `keep`, `discard`." in out
    assert "ann discards the 6." in out and "ann ends the turn." in out
    assert "(only bob sees this) Your secret bonus: 2" in out
    assert out.splitlines()[-3:-1] == ["  bob keeps the 6.",
                                       "  Count · round 1 · turn · waiting for bob (deadline 2026-01-03 00:13 UTC)"
                                       " · seed 5 chosen by the host"]  # the host chose the seed: it is announced


def test_a_broken_data_file_names_the_file_and_the_problem(tmp_path, monkeypatch):
    from games._template import data

    raw = json.loads((data.DATA_DIR / "house.json").read_text())
    assert House.model_validate(raw) == data.HOUSE
    with pytest.raises(ValueError, match="colours must be distinct"):
        House.model_validate(raw | {"colours": ["red", "red"]})
    (tmp_path / "house.json").write_text(json.dumps(raw | {"bonus": 1}))
    monkeypatch.setattr(data, "DATA_DIR", tmp_path)
    with pytest.raises(RulesDataError, match=r"(?s)house\.json: .*bonus"):
        data.house.__wrapped__()  # the uncached loader
