"""Whole games through `playpost script`: a hand-made dungeon won through all four levels, one lost, and a
dungeon built from tiles played from level 1 into level 2 (issue 16, Done means).

The transcripts are written by the scripted party of `tools/dungeon_script.py`; after a rules change that changes
the games, `python -m tools.dungeon_script --regenerate` writes them again (each from the `# regenerate:` line in
its header, searching seeds for the same ending), then regenerate the pinned files. Here they are replayed as
players would type them: every command must be accepted, and the games must go where the rules take them.
"""
from __future__ import annotations

import re
from pathlib import Path

from bot.console import transcript_output

HERE = Path(__file__).parent / "transcripts"


async def replay(name: str, tmp_path: Path) -> tuple[list[str], str]:
    commands = [ln for ln in (HERE / name).read_text(encoding="utf-8").splitlines()
                if ln.strip() and not ln.startswith("#")]
    return commands, await transcript_output(HERE / name, tmp_path)


def accepted_everything(out: str) -> None:
    assert "Traceback" not in out
    refusals = [ln for ln in out.splitlines() if "(only ann sees this)" in ln or "(only bob sees this)" in ln]
    assert not refusals, refusals[:3]


async def test_rule_a_four_hero_party_clears_all_four_levels_of_a_hand_made_dungeon_and_wins(tmp_path):
    commands, out = await replay("victory.txt", tmp_path)
    accepted_everything(out)
    assert re.fullmatch(r"ann> /game new game:dungeon dungeon:sunken_swamp seed:\d+ difficulty:explorer", commands[0])
    assert sum(c.startswith(("ann> /game join", "bob> /game join")) for c in commands) == 4
    assert "Seated: ann (hero Nyan-Nyan), ann (hero Jacques), bob (hero Candy), bob (hero Ruby)." in out
    assert "**SDE-S Dungeon** begins! Players: ann (hero Nyan-Nyan), ann (hero Jacques), bob (hero Candy), bob (hero " \
        "Ruby).\n  Explorer difficulty (a house option): each level opens with one monster fewer" in out
    # the levels fall in order, each opening the next (Game Progression), then the last one wins
    opened = re.findall(r"Level (\d), ([^:]+): its spawn point opens", out)
    assert opened == [("2", "Kobold Outpost"), ("3", "Drake Hollow"), ("4", "Witch Crypt")]
    for n in (1, 2, 3):
        assert f"Level {n} is clear!" in out
    assert out.count("The spawn point is destroyed; its pool is discarded.") == 4
    assert out.count("All four spawn points are destroyed: the heroes win!") == 1  # told once, then who won
    assert [ln for ln in out.splitlines() if "Game over" in ln] == ["  Game over: ann, bob win."]
    # between levels every player is ready before play goes on (The Next Level)
    assert out.count("waiting for ann, bob to equip, drop and `ready`") >= 3


async def test_rule_a_party_all_incapacitated_at_once_loses(tmp_path):
    commands, out = await replay("defeat.txt", tmp_path)
    accepted_everything(out)
    assert "difficulty:veteran" in commands[0]
    assert "Level 1 is clear!" in out and "Level 2, Kobold Outpost: its spawn point opens" in out
    assert "(veteran difficulty, a house option: each level opens with one monster more" in out
    assert "Every hero is incapacitated: the Dark Consul wins." in out
    # told once: the reply that ends the game closes with "Game over." after the game's own account
    assert out.count("the Dark Consul wins") == 1 and out.rstrip().endswith("Game over.")
    assert "heroes win" not in out


async def test_a_random_dungeon_is_played_from_level_one_to_the_opening_of_level_two(tmp_path):
    commands, out = await replay("random_level_one.txt", tmp_path)
    accepted_everything(out)
    assert re.fullmatch(r"ann> /game new game:dungeon dungeon:random seed:\d+", commands[0])
    assert re.search(r"begins! Players: .*\n  Random dungeon \d+, built from tiles by the seed: four levels", out)
    assert "The spawn point is destroyed; its pool is discarded." in out
    assert "Level 1 is clear!" in out and re.search(r"Level 2, [^:]+: its spawn point opens", out)
    last_status = [ln for ln in out.splitlines() if "SDE-S Dungeon · turn" in ln][-1]
    assert "intermission · waiting for ann, bob to equip, drop and `ready`" in last_status
