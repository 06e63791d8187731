"""The shipped dungeon played through the console, as `playpost script` plays it."""
from __future__ import annotations

import itertools
from pathlib import Path

from bot.console import ScriptClock, run_script, transcript_output
from bot.manager import GameManager
from bot.reply import Context
from games.core import Action
from storage import open_storage

HERE = Path(__file__).parent / "transcripts"


async def play(name: str, tmp_path: Path) -> str:
    return await transcript_output(HERE / name, tmp_path)


def after(text: str, line: str, n: int = 8) -> str:
    lines = text.splitlines()
    i = lines.index(line)
    return "\n".join(lines[i + 1:i + 1 + n])


async def test_level_one_to_the_opening_of_level_two(tmp_path):
    out = await play("level_one.txt", tmp_path)
    assert "Traceback" not in out
    # a refused command changes nothing
    assert "(only ann sees this) Nyan-Nyan belongs to bob." in after(out, "ann> /dungeon activate hero:nyannyan", 2)
    # chest opened by picking the lock, its treasure later carried and its card action used
    assert "Candy picks the lock: B2 R3 = 5 vs B- B1 = 1: it opens!\n  Sunlit Mace drops at K11." in out
    assert ("Nyan-Nyan uses Sunlit Mace: Sun Strike.\n  Nyan-Nyan (Sun Strike) rolls B1 B♥ B- R3 +1 = 5 vs Rex (G3) "
            "R2 R2 = 4: hit.") in out
    assert "Nyan-Nyan gains a buff from Sun Strike: immune to hex, bane." in out
    # a hero's attack fails on a tie
    assert ("Emerald (Emerald Volley) rolls B1 B♥ B♥ R♥ = 1 vs the spawn point (C3) +1 = 1: "
            "no effect (a tie goes to the defender).") in out
    # a reroll (Ruby's feint) and a heart used to heal a fallen hero
    assert "Reroll of die 1: B1 -> B2." in out
    assert "A heart heals 1 wound on Nyan-Nyan; Nyan-Nyan gets back up." in out
    # a player whose hero is down (and whose other hero has acted) is told so, not "It is not your move"
    assert ("(only ann sees this) Candy is incapacitated and cannot act until a friend heals them (a heal or a heart) "
            "or the level is cleared; Ruby has already activated this turn.") in out
    # a potion drunk
    assert "Nyan-Nyan drinks a potion (0 left)" in out
    # a hero incapacitated and healed back by a friend's heal action
    assert "Emerald is incapacitated!" in out
    assert "Candy heals Emerald: 3 wounds removed; Emerald gets back up." in out
    # the level-1 spawn point falls, the level is cleared and level 2 opens
    assert "The spawn point is destroyed; its pool is discarded." in out
    assert "Level 1 is clear!\n  Level 2, Mushroom Grotto: its spawn point opens and a chest appears." in out
    assert "waiting for ann, bob to equip, drop and `ready`" in out
    # between levels each button names its player and the hero it is for
    assert "buttons: [1] ann: Ruby: drop Spiked Buckler | [2] ann: Ruby: drop Clarity Circlet | " in out
    assert ("[5] ann: Candy: equip War Banner | [6] ann: Candy: drop Iron Sword | [7] ann: Candy: drop Lucky Coin | "
            "[8] ann: Ready") in out
    # a monster block: one header, then one line per monster with its roll and what it did (the modifiers are in
    # `/game log`), the monsters that only moved on one line
    assert "Candy's activation ends. The monsters react, closest first (equally close ones in a drawn order):\n" in out
    assert ("Knucklehead (E2) attacks Emerald: B2 B♥ B2 B1 +1 = 6 vs B1 B1 B- = 2: hit. "
            "Emerald takes 1 wound (1/5).") in out
    assert ("Candy's activation ends. The monsters react, closest first:\n"
            "  On the move: Gouger C2→I7, Knucklehead B2→I6, Flinger B3→H5, Knucklehead D2→H7.\n") in out
    assert "SDE-S Dungeon · turn 8 · activation" in out  # play goes on into level 2


def test_playpost_script_cli_renders_the_dungeon_boards(tmp_path):
    """The real `playpost script FILE --out DIR`, boards rendered."""
    import subprocess
    import sys

    tests_dir = Path(__file__).parent.parent
    script, out = str(HERE / "level_one.txt"), str(tmp_path / "out")
    code = (f"import sys; sys.path.insert(0, {str(tests_dir)!r}); import conftest; from bot.cli import main; "
            f"raise SystemExit(main(['script', {script!r}, '--out', {out!r}]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Level 2, Mushroom Grotto: its spawn point opens" in proc.stdout
    pngs = sorted((tmp_path / "out").glob("*.png"))
    assert len(pngs) > 80 and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs[:3])


async def test_mistakes_are_refused_with_reasons_and_every_player_who_may_activate_is_pinged(tmp_path):
    clock = ScriptClock()
    seeds = itertools.count(1)
    manager = GameManager(await open_storage(str(tmp_path / "t.sqlite3")), clock=clock,
                          seed_source=lambda: next(seeds), render=False)
    out: list[str] = []
    try:
        await run_script((HERE / "mistakes.txt").read_text(encoding="utf-8").splitlines(), manager, tmp_path / "out",
                         write=out.append, clock=clock)
        # autocomplete offers the values the command accepts: hero ids, and the id or the name both work
        ctx = Context(channel_id="local", user_id="bob", user_name="bob", guild_id="local")
        assert await manager.suggest(ctx, "dungeon", "activate", "hero", {}, "Jac") == ["jacques"]
        ctx = Context(channel_id="local", user_id="ann", user_name="ann", guild_id="local")
        assert await manager.suggest(ctx, "dungeon", "activate", "hero", {}, "") == ["kumiko"]
        reply = await manager.play(ctx, "dungeon", Action.parse('activate hero:Kumiko'))
        assert "ann activates Kumiko (3 AP)." in reply.text
    finally:
        await manager.storage.close()
    text = "\n".join(out)
    assert "Traceback" not in text
    # every seated player with a hero still to activate is pinged, one player running two heroes included
    assert "waiting for ann, bob, cat to activate a hero" in text and "ping: @ann @bob @cat" in text
    # several players act at once: each button names whose it is
    assert ("ann: Activate Von Wilding | [2] ann: Activate Kumiko | [3] bob: Activate Jacques | "
            "[4] cat: Activate Sophia") in text
    for reason in (
        "(only bob sees this) First activate a hero with `activate hero:`.",
        "(only bob sees this) Von Wilding belongs to ann.",
        "(only ann sees this) Von Wilding already stands on B10.",
        "(only ann sees this) `Z40` is not a square of this dungeon.",
        "(only ann sees this) E4 is a structure.",
        "(only ann sees this) The spawn point (C3) is 14 squares away by the shortest route; the range is 6.",
        "(only ann sees this) There is no enemy at D4.",
        "(only ann sees this) There are no hearts to use: they come only with a successful attack.",
        "(only ann sees this) There is no roll waiting for a reroll.",
        "(only ann sees this) Von Wilding has nothing a potion would mend.",
        "(only ann sees this) Crystal Mail is not lying on Von Wilding's tile",
        "(only ann sees this) There is no closed chest next to this hero.",
        "(only ann sees this) Jacques has no wounds to heal.",
        "(only cat sees this) The spawn point (C3) is 12 squares away by the shortest route; the range is 6.",
    ):
        assert reason in text, reason
    # a path of directions, then the End button; Sophia's first button is an attack on a visible monster
    assert "Von Wilding moves to E10 (1 AP)" in text and "Von Wilding's activation ends." in text
    assert "buttons: [1] Magic Knucklehead (H7): 2B1R vs 2B" in text
    assert "cat> button 1\n  Sophia (magic attack) rolls" in text
