"""games/core: actions, RNG, coordinates."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import Action, MalformedAction, Rng
from games.core.grid import col_letters, label, parse_label
from games.core.hexgrid import HEX_DIRS, HexLabels, distance, hexagon, neighbor

keys = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)
values = st.text(alphabet=st.characters(blacklist_characters='"\n\r\t\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0',
                                        blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc")), max_size=12)


@settings(max_examples=200, deadline=None)
@given(cmd=keys, args=st.dictionaries(keys, values, max_size=4))
def test_action_text_round_trips(cmd, args):
    a = Action(cmd=cmd, args=args)
    assert Action.parse(a.text()) == a
    assert hash(Action.parse(a.text())) == hash(a)


def test_action_values_with_spaces_are_quoted():
    a = Action.parse('move path:"N N E"')
    assert a.get("path") == "N N E"
    assert a.text() == 'move path:"N N E"'


@pytest.mark.parametrize("bad", ['move path:"N N', "move to", "move :x", "move a:1 a:2"])
def test_malformed_actions_say_why(bad):
    with pytest.raises(MalformedAction) as exc:
        Action.parse(bad)
    assert exc.value.reason and exc.value.hint


def test_partial_action_matches_case_insensitively():
    assert Action.of("step", to="C4").matches(Action.of("step", to="c4"))
    assert Action.of("step", to="C4").matches(Action.of("step"))
    assert not Action.of("step", to="C4").matches(Action.of("run"))


def test_rng_is_deterministic_and_resumable():
    a = Rng(seed=42)
    first = [a.d(6) for _ in range(5)]
    b = Rng.model_validate_json(a.model_dump_json())
    assert [Rng(seed=42).d(6) for _ in range(1)] == first[:1]
    assert [a.d(6) for _ in range(5)] == [b.d(6) for _ in range(5)]


def test_rng_is_uniform_enough():
    r = Rng(seed=7)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.d(6) - 1] += 1
    assert all(850 < c < 1150 for c in counts)


def test_rng_sequence_is_pinned():
    """Old games must keep their dice across upgrades: the sequence is fixed forever."""
    r = Rng(seed=2026)
    assert [r.d(6) for _ in range(8)] == [2, 6, 3, 1, 4, 4, 1, 2]


def test_square_labels():
    assert label(0, 0) == "A1" and label(2, 3) == "C4" and label(26, 9) == "AA10"
    assert parse_label("c4") == (2, 3) and parse_label("AA10") == (26, 9) and parse_label("4C") is None


def test_hex_labels_round_trip_and_are_unique():
    cells = hexagon(6)
    assert len(cells) == 127
    labels = HexLabels(cells)
    seen = {labels.label(h) for h in cells}
    assert len(seen) == 127
    for h in cells:
        assert labels.parse(labels.label(h)) == h
    assert labels.label((0, 0)) == "G7"


def test_hex_neighbours_are_at_distance_one():
    for d in HEX_DIRS:
        assert distance((0, 0), neighbor((0, 0), d)) == 1


def test_anytime_commands_skip_the_whose_turn_check_only_for_themselves():
    """Player settings (Heroball's standing orders) may be changed off-turn; moves may not."""
    from games.core import IllegalAction, Seat, all_games
    from games.core.play import resolve

    engine = all_games()["heroball"]
    state = engine.setup({}, [Seat(player="a", name="A"), Seat(player="b", name="B")], 1)
    assert engine.status(state).to_act == ["a"]
    assert resolve(engine, state, "b", Action.parse("reactions defend:always")) == Action.parse(
        "reactions defend:always")
    with pytest.raises(IllegalAction, match="not your move"):
        resolve(engine, state, "b", Action.parse("end"))


def test_a_bare_word_after_a_value_continues_it():
    """Players type `hero:Von Wilding` without quotes; it means the same as the quoted form."""
    from games.core.actions import parse_pairs

    assert parse_pairs(["hero:Von", "Wilding", "god:Zeus"]) == {"hero": "Von Wilding", "god": "Zeus"}
    assert Action.parse("join hero:Von Wilding") == Action.parse('join hero:"Von Wilding"')
    with pytest.raises(MalformedAction):
        parse_pairs(["Wilding"])


def test_a_column_west_of_every_board_has_no_letters():
    """Square labels (DESIGN: coordinates): columns 0, 25, 26 are A, Z, AA; a negative column has no letters and
    returns at once (-2 once looped for ever when a Quodd sheep teleported off the west edge was named)."""
    assert [col_letters(0), col_letters(25), col_letters(26)] == ["A", "Z", "AA"]
    assert col_letters(-1) == col_letters(-2) == col_letters(-30) == ""


def test_a_hint_for_one_command_also_names_a_few_of_the_other_moves():
    """A refused `reroll die:3` listed only `reroll die:1`, `reroll die:2`: `keep`, the other way on, was not
    named. The command's moves come first, then a few others."""
    from games.core import Action
    from games.core.play import hint_for

    class Stub:
        anytime_commands = ("reactions",)

        def legal_actions(self, state, player):
            return [Action.parse(t) for t in ("reroll die:1", "reroll die:2", "keep", "reactions defend:ask")]

    assert hint_for(Stub(), None, "ann", "reroll") == "Legal now: `reroll die:1`, `reroll die:2`. Or: `keep`."  # type: ignore[arg-type]
    assert hint_for(Stub(), None, "ann") == "Legal now: `reroll die:1`, `reroll die:2`, `keep`."  # type: ignore[arg-type]
