"""Each shipped scenario played to its end through the real CLI: `playpost script FILE --out DIR`.

The transcripts were written by tests/quodd/make_transcripts.py (a greedy planner) with a
fixed seed; every line must be accepted, the game must end with the recorded result, board
images are written, and the game's export (appended as a last `/game export` line) replays
to the same end with the summary fields the issue names.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import cli
from bot.manager import replay_export

HERE = Path(__file__).parent / "transcripts"
REFUSALS = ("not legal", "It is not your move", "could mean several", "is not a Quodd", "There is no",
            "does not take those options", "(only ")


@pytest.mark.parametrize("name,result", [
    ("tutorial", "ann reaches the last rally marker in round 10 and wins!"),
    ("heist", "ann banks 3 crystals and wins the heist!"),
    ("trial", "ann beat the clock in round 10!"),
])
def test_playpost_script_plays_the_scenario_to_its_end(tmp_path, capsys, name, result):
    lines = (HERE / f"{name}.txt").read_text().splitlines()
    script = tmp_path / f"{name}.txt"
    script.write_text("\n".join(lines + ["ann> /game export"]) + "\n")
    out_dir = tmp_path / "out"
    assert cli.main(["script", str(script), "--out", str(out_dir)]) == 0
    text = capsys.readouterr().out
    for bad in REFUSALS:
        assert bad not in text, f"a transcript line was refused: {bad}"
    assert f"Game over: ann wins. {result}" in text
    boards = sorted(out_dir.glob("*-board.png"))
    assert len(boards) >= len([ln for ln in lines if "/quodd " in ln]) // 2
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in boards[-3:])
    exports = list(out_dir.glob("*playpost-quodd-*.json"))
    assert len(exports) == 1
    data = json.loads(exports[0].read_text())
    engine, state = replay_export(data)  # checks the recorded state hash too
    status = engine.status(state)
    assert status.finished and status.result.text == result and status.result.winners == ["ann"]
    summary = data["summary"]
    assert summary["round"] >= 1 and summary["first_player"]
    for p in summary["players"]:
        assert {"name", "hero", "position", "top_face", "facing", "collectibles", "objective"} <= set(p)
    moves = [ln for ln in lines if "/quodd " in ln]
    assert any("tumble direction:" in ln for ln in moves) and any("move " in ln for ln in moves)
    if name == "heist":
        assert any("/quodd steal" in ln for ln in moves)  # stealing matters in the heist
