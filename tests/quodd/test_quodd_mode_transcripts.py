"""Issue 15's "done means" for the play modes this slice owns: for solo, co-op, free-for-all and teams a transcript
plays a shipped scenario of that mode to its end through `playpost script` and ends with `/game export`, whose
summary names the `scenario` and its `mode`. Written by `make_transcripts.py` (solo, coop, teams) and
`make_ffa_transcript.py` (ffa_full)."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.console import play_transcript
from bot.manager import replay_export
from games.quodd.scenarios import scenarios

HERE = Path(__file__).parent / "transcripts"


@pytest.mark.parametrize("name,mode,scenario", [
    ("solo", "solo", "trial"), ("coop", "coop", "rescue"), ("ffa_full", "ffa", "tutorial"),
    ("teams", "teams", "teamheist"),
])
def test_each_mode_transcript_plays_a_shipped_scenario_of_its_mode_to_its_export(tmp_path, capsys, name, mode,
                                                                                  scenario):
    lines = (HERE / f"{name}.txt").read_text().splitlines()
    assert lines[-1].endswith("> /game export")
    assert scenarios()[scenario].mode == mode
    assert f"scenario:{scenario}" in next(ln for ln in lines if "/game new" in ln)
    out_dir = tmp_path / "out"
    # as `playpost script` plays it (bot.console.play_transcript), boards left out: the pinned test draws them
    printed: list[str] = []
    asyncio.run(play_transcript(lines, out_dir, render=False, write=printed.append))
    text = "\n".join(printed)
    assert "not legal" not in text and "It is not your move" not in text
    (export,) = out_dir.glob("*playpost-quodd-*.json")
    data = json.loads(export.read_text())
    summary = data["summary"]
    assert (summary["scenario"], summary["mode"]) == (scenario, mode)
    assert summary["objective"] == scenarios()[scenario].objective
    engine, state = replay_export(data)  # checks the recorded state hash too
    status = engine.status(state)
    assert status.finished and status.result is not None and "Game over: " in text
    if mode == "coop":  # all win together, after passing cards
        assert sorted(status.result.winners) == sorted(h.player for h in state.heroes)
        assert "gives" in text and any("/quodd give" in ln for ln in lines)
    if mode == "teams":  # a whole team wins, and teams came from the lobby
        assert {p["team"] for p in summary["players"]} == {"Red", "Blue"}
        won = {h.team for h in state.heroes if h.player in status.result.winners}
        assert len(won) == 1 and sorted(status.result.winners) == sorted(
            h.player for h in state.heroes if h.team in won)
        assert any("team:Red" in ln for ln in lines)
