"""The local console and `playpost script`: same commands, reproducible output."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.console import Console
from bot.parsing import parse_command

import pytest

from games.core import MalformedAction

TRANSCRIPT = """\
# a short game of the test-only count game
ann> /game new game:count seed:3
bob> /game join colour:blue
ann> /game start
ann> /count add n:2
bob> /count add n:1
ann> /count roll
ann> button 1
ann> /count end
bob> /game hand
bob#other> /game status
ann> /game log count:3
"""


def run_script_cli(tmp_path: Path, out: str) -> str:
    script = tmp_path / "t.txt"
    script.write_text(TRANSCRIPT)
    conftest_dir = Path(__file__).parent
    code = (
        "import sys; sys.path.insert(0, %r); import conftest; from bot.cli import main; "
        "raise SystemExit(main(['script', %r, '--out', %r]))" % (str(conftest_dir), str(script), out)
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_script_output_is_identical_twice(tmp_path):
    first = run_script_cli(tmp_path, str(tmp_path / "out"))
    second = run_script_cli(tmp_path, str(tmp_path / "out"))
    assert first == second
    assert "ann> /game start" in first
    assert "(only bob sees this) It is not your move." in first
    assert "(only bob sees this) Your secret bonus" in first
    assert "There is no game in this channel." in first  # bob#other is another channel
    assert "ping: @bob" in first


def test_parse_command_checks_options_against_the_definition():
    inv = parse_command('/game new game:count seed:12')
    assert (inv.group, inv.name, inv.options) == ("game", "new", {"game": "count", "seed": 12})
    with pytest.raises(MalformedAction, match="whole number"):
        parse_command("/game new game:count seed:abc")
    with pytest.raises(MalformedAction, match="no option"):
        parse_command("/game start now:yes")
    with pytest.raises(MalformedAction, match="needs a subcommand"):
        parse_command("/game")
    with pytest.raises(MalformedAction, match="needs `game:`"):
        parse_command("/game new")


async def test_console_refuses_someone_elses_button(manager, tmp_path):
    out: list[str] = []
    con = Console(manager=manager, out_dir=tmp_path, write=out.append)
    for line in ["ann> /game new game:count", "bob> /game join", "ann> /game start", "bob> button 1"]:
        await con.line(line)
    assert "not yours to press" in "\n".join(out)


def test_token_never_appears_in_logs(caplog):
    import logging

    from bot.cli import RedactFilter

    logger = logging.getLogger("playpost.test")
    flt = RedactFilter("sekrit.token.value")
    handler = logging.StreamHandler()
    handler.addFilter(flt)
    record = logger.makeRecord("playpost.test", logging.INFO, __file__, 1, "login with %s", ("sekrit.token.value",),
                               None)
    flt.filter(record)
    assert "sekrit" not in record.getMessage() and "[token]" in record.getMessage()
