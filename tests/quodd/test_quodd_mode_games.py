"""The overlord, buddies and multi-part scenarios played to their end through the real CLI (`playpost script`),
each transcript written by `tests/quodd/make_mode_transcripts.py` and ending with `/game export`; and the seats,
set-ups and objectives of those modes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_quodd_transcripts import refused

from bot import cli
from bot.manager import replay_export

HERE = Path(__file__).parent / "transcripts"

GAMES = [  # transcript, scenario of its first line, mode, the last part's scenario
    ("expedition", "expedition", "solo", "expedition-2"),
]


@pytest.mark.parametrize("name,scenario,mode,last", GAMES)
def test_mode_transcript_plays_a_shipped_scenario_to_its_end_and_exports_scenario_and_mode(
        tmp_path, capsys, name, scenario, mode, last):
    lines = (HERE / f"{name}.txt").read_text().splitlines()
    result = lines[0].split(": ", 1)[1]
    assert f"scenario:{scenario}" in lines[1]
    host = lines[1].split(">")[0]
    script = tmp_path / f"{name}.txt"
    script.write_text("\n".join(lines + [f"{host}> /game export"]) + "\n")
    out_dir = tmp_path / "out"
    assert cli.main(["script", str(script), "--out", str(out_dir)]) == 0
    text = capsys.readouterr().out
    assert not refused(text), f"a transcript line was refused: {refused(text)}"
    assert result in text and "Game over" in text
    exports = list(out_dir.glob("*playpost-quodd-*.json"))
    assert len(exports) == 1
    data = json.loads(exports[0].read_text())
    engine, state = replay_export(data)  # checks the recorded state hash too
    status = engine.status(state)
    assert status.finished and status.result.text == result and status.result.winners
    summary = data["summary"]
    assert summary["scenario"] == last and summary.get("mode", mode) == mode
    if name == "expedition":  # two parts, on the B-side: the upgrades on faces came along into part 2
        assert summary["part"] == 2 and summary["board"] == "b"
        assert "Part 1 is done! On to part 2" in text
        assert summary["players"][0]["faces"] and len(summary["players"][0]["upgrades"]) >= 4
