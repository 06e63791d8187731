"""The computer-player transcripts say what they claim: a finished Heroball game against a computer, a dungeon
level with three computer heroes, a Quodd seat handed to a computer by vote and taken back."""
from __future__ import annotations

from pathlib import Path

from bot.console import transcript_output

TESTS = Path(__file__).parent


async def test_a_human_and_a_computer_play_heroball_to_the_end(tmp_path):
    out = await transcript_output(TESTS / "heroball/transcripts/computer.txt", tmp_path)
    assert "Computer 1 (hard) joins" in out and "Computer 1 (computer) plays `step to:" in out
    assert out.count("Game over:") == 1 and out.rstrip().splitlines()[-1].startswith("  Game over:")
    assert "(only" not in out  # no line of the transcript was refused
    assert "GOAL!" in out


async def test_a_human_with_three_computer_heroes_clears_dungeon_level_one(tmp_path):
    out = await transcript_output(TESTS / "dungeon/transcripts/computer_heroes.txt", tmp_path)
    assert out.count("(normal) joins") == 3
    for n in (1, 2, 3):
        assert f"Computer {n} (computer) plays `attack" in out or f"Computer {n} (computer) plays `move" in out
    assert "The spawn point is destroyed" in out and "Level 2" in out
    assert "(only" not in out


async def test_a_computer_takes_a_late_quodd_seat_after_a_vote_and_gives_it_back(tmp_path):
    out = await transcript_output(TESTS / "quodd/transcripts/computer_vote.txt", tmp_path)
    assert "The turn deadline has not passed" in out  # the early vote is refused
    carried = out.index("voted to hand ann's seat to a computer (normal)")
    assert "ann (computer) plays" in out[carried:]
    back = out.index("ann takes their seat back from the computer")
    assert back > carried and "ann (computer) plays" not in out[back:]
