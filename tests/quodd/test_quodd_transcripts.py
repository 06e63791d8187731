"""Each shipped scenario played to its end through the real CLI: `playpost script FILE --out DIR`.

The transcripts were written by tests/quodd/make_transcripts.py (a greedy planner) with a
fixed seed; every line must be accepted, the game must end with the recorded result, board
images are written, and the game's export (appended as a last `/game export` line) replays
to the same end with the summary fields the issue names.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot import cli
from bot.console import transcript_output
from bot.manager import replay_export
from games.quodd import data

HERE = Path(__file__).parent / "transcripts"
REFUSALS = ("not legal", "It is not your move", "could mean several", "is not a Quodd", "There is no",
            "does not take those options", "(only ")
# a hand's moves are offered on a line only their player sees (bot/hand.py), and so are the cards a draw brought
# (deck.drawn_privately): an offer or a notice, not a refusal
OFFER = re.compile(r"^  \(only \w+ sees this\) ((buttons|menu \w+( \([^)]*\))?): |Your hand gets ).*$", re.MULTILINE)


def refused(text: str) -> list[str]:
    """The refusal markers in a transcript's output (the hand's private buttons and menus left out)."""
    rest = OFFER.sub("", text)
    return [bad for bad in REFUSALS if bad in rest]


@pytest.mark.parametrize("name,result,winner", [
    ("tutorial", "ann reaches the last rally marker in round 10 and wins!", "ann"),
    ("heist", "ann banks 3 crystals and wins the heist!", "ann"),
    ("trial", "ann beat the clock in round 10!", "ann"),
    ("pasture", "bob reaches the last rally marker in round 11 and wins!", "bob"),
    ("foundry", "ann reaches the last rally marker in round 6 and wins!", "ann"),
    ("flock", "bob banks 3 sheep and wins the heist!", "bob"),
])
def test_playpost_script_plays_the_scenario_to_its_end(tmp_path, capsys, name, result, winner):
    lines = (HERE / f"{name}.txt").read_text().splitlines()
    script = tmp_path / f"{name}.txt"
    script.write_text("\n".join(lines + ["ann> /game export"]) + "\n")
    out_dir = tmp_path / "out"
    assert cli.main(["script", str(script), "--out", str(out_dir)]) == 0
    text = capsys.readouterr().out
    assert not refused(text), f"a transcript line was refused: {refused(text)}"
    assert result in text and f"Game over: {winner} wins." in text  # the end told once, then who won
    boards = sorted(out_dir.glob("*-board.png"))
    assert len(boards) >= len([ln for ln in lines if "/quodd " in ln]) // 2
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in boards[-3:])
    exports = list(out_dir.glob("*playpost-quodd-*.json"))
    assert len(exports) == 1
    data = json.loads(exports[0].read_text())
    engine, state = replay_export(data)  # checks the recorded state hash too
    status = engine.status(state)
    assert status.finished and status.result.text == result and status.result.winners == [winner]
    summary = data["summary"]
    assert summary["round"] >= 1 and summary["first_player"]
    for p in summary["players"]:
        assert {"name", "hero", "position", "top_face", "facing", "collectibles", "objective"} <= set(p)
    moves = [ln for ln in lines if "/quodd " in ln]
    assert any("tumble direction:" in ln for ln in moves) and any("move " in ln for ln in moves)
    if name == "heist":
        assert any("/quodd steal" in ln for ln in moves)  # stealing matters in the heist
    if name == "pasture":  # the living board moved: sheep were picked up, the mover pushed its platform
        assert {"ann": ["black-sheep"], "bob": ["grey-sheep"]} == {h.player: h.carrying for h in state.heroes}
        assert "The beam mover pushes its platform E" in text and "sheep walks" in text
    if name == "foundry":  # the living board's tokens acted: cannons, the rotate board token, a rotate switch
        assert "sets off the cannon at D8" in text and "The standard bomb hits ann at G8." in text
        assert "reveals a rotate board token at N4" in text and "The rotate switch turns its platform" in text
    if name == "flock":  # sheep rule 1: the first player faced the flock; sheep banked like crystals won it
        assert "setup: the flock's facing" in text and "bob turns the white sheep at G2 to face" in text
        banked = next(h for h in state.heroes if h.player == "bob").banked
        assert sorted(banked) == ["black-sheep", "grey-sheep", "white-sheep"]


def test_a_hand_stays_out_of_public_text_images_and_the_export_during_play(tmp_path, capsys):
    """Cards drawn from the deck are seen only through `/game hand`; the table's text and the export of a
    game in play name how many cards a player holds, never which."""
    tutorial = (HERE / "tutorial.txt").read_text().splitlines()
    first_move = next(i for i, ln in enumerate(tutorial) if "/quodd move " in ln)
    # up to ann's first skill move: with no point left her movement ends by itself, phase 3 (no cards) passes
    lines = tutorial[1:first_move + 1]
    lines += ["ann> /quodd draw card:deck", "ann> /game export"]
    script = tmp_path / "hand.txt"
    script.write_text("\n".join(lines) + "\n")
    out_dir = tmp_path / "out"
    assert cli.main(["script", str(script), "--out", str(out_dir)]) == 0
    text = capsys.readouterr().out
    assert "draws 1 from the exploration deck" in text
    export = json.loads(next(out_dir.glob("*playpost-quodd-*.json")).read_text())
    assert export["seed"] is None  # while the game runs the export cannot be replayed to learn the hand
    dumped = json.dumps(export)
    for c in data.cards().values():  # no card is named anywhere in it
        assert f'"{c.id}' not in dumped and c.name not in dumped
    engine, state = replay_export({**export, "seed": 7})  # the host's seed, known to this test only
    hand = next(h for h in state.heroes if h.player == "ann").hand
    assert len(hand) == 1
    card = data.cards()[hand[0]]
    public = "\n".join(ln for ln in text.splitlines() if not ln.startswith("  (only ann sees this)"))
    assert card.name not in public and card.id not in public  # nothing public names it
    assert f"  (only ann sees this) Your hand gets {card.name}." in text  # ann alone is told what she drew
    ann = next(p for p in export["summary"]["players"] if p["name"] == "ann")
    assert ann["hand_size"] == 1
    assert card.name in engine.private_text(state, "ann")


async def test_ffa_full_a_four_player_race_with_the_whole_economy_to_its_export(tmp_path):
    """Issue 14's "done means": cards from the lineup and the deck, an impulse card on another player's turn, an item
    and a pet used, a rune placing a token, world events, upgrades on each side of a tile, every hero's Q-power, a
    hand discarded to the limit; the export summary names it all."""
    lines = (HERE / "ffa_full.txt").read_text().splitlines()
    out = await transcript_output(HERE / "ffa_full.txt", tmp_path)
    assert not refused(out), f"a transcript line was refused: {refused(out)}"
    assert any("/game new game:quodd" in ln and "events:on" in ln for ln in lines)
    assert sum("/game join" in ln for ln in lines) == 4
    assert "reaches the last rally marker" in out and lines[-1] == "ann> /game export"
    assert any("/quodd draw card:deck" in ln for ln in lines) and "from the lineup." in out
    impulse = next(ln for ln in lines if "/quodd impulse" in ln)
    who = impulse.split(">")[0]
    waiting = out[:out.index(impulse)].rsplit("waiting for ", 1)[1]
    assert not waiting.startswith(who) and "(impulse)." in out  # on another player's turn
    cards = data.cards()
    used = [ln.split("card:")[1].split()[0] for ln in lines if "/quodd use " in ln]
    assert {cards[c].kind for c in used} >= {"item", "pet"}
    assert any(f"plays {c.name}." in out for c in cards.values() if c.kind == "rune" and c.effect.do == "place")
    assert "World event, drawn by" in out
    assert "side A:" in out and "side B:" in out
    for name in ("ann", "bob", "cat", "dan"):
        assert f"{name} uses the Q-power" in out
    assert "discards down to 5" in out
    export = json.loads(next((tmp_path / "out").glob("*playpost-quodd-*.json")).read_text())
    summary = export["summary"]
    assert summary["world_events"] and len(summary["players"]) == 4
    for p in summary["players"]:
        assert {"movement", "explore", "hand_size", "upgrades", "items", "pets"} <= set(p)
        assert p["upgrades"] and all(": " in u for u in p["upgrades"])
