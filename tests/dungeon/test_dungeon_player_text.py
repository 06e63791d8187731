"""What players read: the refusal to a player whose hero is down, and the compact monster turn (issue 16)."""
from __future__ import annotations

import pytest
from dhelpers import do, scene

from games.core import Action, IllegalAction
from games.core.play import resolve
from games.dungeon import ENGINE as E
from games.dungeon import stats


def refusal(st, player: str, text: str) -> str:
    with pytest.raises(IllegalAction) as err:
        resolve(E, st, player, Action.parse(text))
    return str(err.value)


def test_a_player_whose_hero_is_incapacitated_is_told_so_not_that_it_is_not_their_move():
    st = scene("ruby@B10:w5 candy@C10/bob")
    text = refusal(st, "ann", "activate hero:ruby")
    assert "Ruby is incapacitated and cannot act until a friend heals them (a heal or a heart) or the level is " \
           "cleared." in text and "not your move" not in text
    # while another hero acts, the same
    st, _ = do(st, "activate hero:candy", "bob")
    assert "Ruby is incapacitated" in refusal(st, "ann", "end")


def test_a_player_with_one_hero_down_and_the_other_done_hears_both():
    st = scene("ruby@B10:w5 candy@C10 emerald@D10/bob")
    st, _ = do(st, "activate hero:candy", "ann")
    st, _ = do(st, "end", "ann")
    text = refusal(st, "ann", "activate hero:candy")
    assert "Ruby is incapacitated" in text and "Candy has already activated this turn." in text


def test_a_player_whose_standing_hero_waits_still_hears_it_is_not_their_move():
    st = scene("ruby@B10:w5 candy@C10 emerald@D10/bob")
    st, _ = do(st, "activate hero:emerald", "bob")
    assert refusal(st, "ann", "activate hero:candy").startswith("It is not your move.")
    assert stats.is_incap(stats.hero(st, "ruby"))
