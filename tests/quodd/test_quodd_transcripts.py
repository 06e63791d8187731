"""Each shipped scenario played to its end through the console, as `playpost script` runs it.

The transcripts were written by tests/quodd/transcripts/make.py (a greedy planner) with a
fixed seed; every line must be accepted, and the game must end with the recorded result.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.console import ScriptClock, run_script
from bot.manager import GameManager
from games.quodd import ENGINE as E
from storage import open_storage

HERE = Path(__file__).parent / "transcripts"
REFUSALS = ("not legal", "It is not your move", "could mean several", "is not a Quodd", "There is no")


@pytest.mark.parametrize("name,render,result", [
    ("tutorial", False, "ann reaches the last rally marker in round 10 and wins!"),
    ("heist", False, "ann banks 3 crystals and wins the heist!"),
    ("trial", True, "ann beat the clock in round 12!"),
])
async def test_transcript_plays_the_scenario_to_its_end(tmp_path, name, render, result):
    clock = ScriptClock()
    store = await open_storage(str(tmp_path / "q.sqlite3"))
    try:
        manager = GameManager(store, clock=clock, render=render, seed_source=lambda: 1)
        out: list[str] = []
        lines = (HERE / f"{name}.txt").read_text().splitlines()
        await run_script(lines, manager, tmp_path / "out", write=out.append, clock=clock)
        rec = (await store.history("local", 1))[0]
        assert rec.kind == "quodd" and rec.state is not None
        final = E.load(rec.state)
    finally:
        await store.close()
    text = "\n".join(out)
    for bad in REFUSALS:
        assert bad not in text, f"a transcript line was refused: {bad}"
    assert result in text
    status = E.status(final)
    assert status.finished and status.result.text == result and status.result.winners == ["ann"]
    if render:
        assert list((tmp_path / "out").glob("*-board.png"))
    moves = [ln for ln in lines if "/quodd " in ln]
    assert any("tumble direction:" in ln for ln in moves) and any("move " in ln for ln in moves)
    if name == "heist":
        assert any("/quodd steal" in ln for ln in moves)  # stealing matters in the heist
