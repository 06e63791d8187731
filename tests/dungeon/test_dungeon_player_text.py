"""What players read: the refusal to a player whose hero is down, and the compact monster turn (issue 16)."""
from __future__ import annotations

import pytest
from dhelpers import do, scene

from bot.console import play_transcript
from games.core import Action, IllegalAction
from games.core.play import resolve, step
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


def test_the_monster_turn_reads_one_line_per_monster_with_the_movers_grouped_and_the_detail_in_the_event(dice):
    st = scene("ruby@C6", "gouger@C5 knucklehead@C4 flinger@N2 ironscale@O2")
    st, _ = do(st, "activate hero:ruby")
    dice.push("B0 B0 B2", "B0 B0 B0")  # the Gouger's STR 3B against Ruby's ARM 3B
    _, _, events = step(E, st, "ann", Action.parse("end"))
    text, detail = events[0].text, events[0].detail
    lines = text.splitlines()
    assert lines[0] == "Ruby's activation ends. The monsters react, closest first:"
    # the attacker: one line with its dice and result, the modifiers left to the full account
    assert lines[1] == "Gouger (C5) attacks Ruby: B- B- B2 +1 = 3 vs B- B- B- = 0: hit. Ruby takes 1 wound (1/5)."
    assert "= 0 [aura +1]: hit" in detail and "[aura" not in text
    # the monsters that only moved: one shared line; each move in full in the detail
    movers = [ln for ln in lines if ln.startswith("On the move: ")]
    assert len(movers) == 1 and movers[0].count("→") == 3, text
    assert detail.count(" moves to ") == 3 and "On the move" not in detail
    assert sum(1 for ln in lines if "(C4)" in ln or "C4→" in ln) == 1  # one mention per monster


async def test_game_log_shows_the_full_account_of_the_monster_turn(tmp_path):
    script = ["ann> /game new game:dungeon seed:25", "ann> /game join hero:Ruby", "ann> /game start",
              "ann> /dungeon activate hero:ruby", "ann> /dungeon end", "ann> /game log count:2"]
    out: list[str] = []
    await play_transcript(script, tmp_path / "out", render=False, write=out.append)
    text = "\n".join(out)
    table, log = text.split("ann> /game log count:2")
    assert "On the move: " in table and " moves to " not in table
    assert "`activate hero:ruby`" in log and "`end`" in log
    assert "    Ruby's activation ends. The monsters react" in log and " moves to " in log and "On the move" not in log
