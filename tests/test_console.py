"""The local console and `playpost script`: same commands, reproducible output."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import Console
from bot.parsing import parse_command
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
        f"import sys; sys.path.insert(0, {str(conftest_dir)!r}); import conftest; from bot.cli import main; "
        f"raise SystemExit(main(['script', {str(script)!r}, '--out', {out!r}]))"
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


async def test_a_buttons_number_alone_presses_it_and_a_new_console_finds_the_boards_buttons(manager, tmp_path):
    """Play-testers typed `2` for button 2 and were told a line is `name> /command`; a console opened later on a
    stored game said "There is no such button" until `/game status` was shown again."""
    from bot.console import typed_line

    assert typed_line("2", "you") == "you> 2" and typed_line("bob> 2", "you") == "bob> 2"
    out: list[str] = []
    con = Console(manager=manager, out_dir=tmp_path, write=out.append)
    for line in ["ann> /game new game:count", "bob> /game join", "ann> /game start"]:
        await con.line(line)
    pressed = await con.line("ann> 1")
    assert pressed is not None and not pressed.ephemeral and pressed.text.startswith("ann adds"), pressed.text
    later = Console(manager=manager, out_dir=tmp_path, write=out.append)  # the next day, a new console
    again = await later.line("ann> button 1")
    assert again is not None and not again.ephemeral and again.text.startswith("ann adds"), again.text


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


def test_script_reproduces_the_same_image_bytes(tmp_path):
    """Same transcript, same seed -> the same text and byte-identical board images."""
    script = tmp_path / "hb.txt"
    script.write_text(
        "ann> /game new game:heroball seed:11\n"
        "ann> /game join hero:Achilles god:Zeus\n"
        "bob> /game join hero:Helen god:Athena\n"
        "ann> /game start\n"
        "ann> /heroball seed to:A5\n"
        "bob> /heroball seed to:M5\n"
        "ann> /heroball seed to:A6\n"
        "bob> /heroball seed to:M6\n"
        "ann> /game status\n"
    )
    from bot.cli import main

    outs = []
    for run in ("one", "two"):
        out = tmp_path / run
        import contextlib
        import io

        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["script", str(script), "--out", str(out)]) == 0
        outs.append((buf.getvalue().replace(str(out), "OUT"), {p.name: p.read_bytes() for p in out.iterdir()}))
    (text1, files1), (text2, files2) = outs
    assert text1 == text2
    assert len(files1) >= 5 and files1 == files2


def test_console_shows_deadlines_in_utc():
    from bot.console import discord_times

    assert discord_times("deadline <t:1767398400:R>") == "deadline 2026-01-03 00:00 UTC"


async def test_playpost_replay_rebuilds_an_exported_game(manager, tmp_path, capsys):
    """`playpost replay FILE` on a finished game's export: identical state, said so."""
    from bot.cli import main
    from bot.reply import Context

    def c(u):
        return Context(channel_id="c9", user_id=u, user_name=u)

    await manager.dispatch(c("ann"), "game", "new", {"game": "count", "seed": 4})
    await manager.dispatch(c("ann"), "game", "start", {})
    for _ in range(40):
        rec = await manager.storage.live_game("c9")
        if rec is None:
            break
        await manager.dispatch(c("ann"), "count", "add", {"n": "2"})
        await manager.dispatch(c("ann"), "count", "add", {"n": "2"})
        await manager.dispatch(c("ann"), "count", "end", {})
    r = await manager.dispatch(c("ann"), "game", "export", {})
    path = tmp_path / "export.json"
    path.write_bytes(r.files[0].data)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "State identical to the recorded one." in out and "finished True" in out


async def test_console_votes_rematches_and_previews_like_the_buttons(manager, clock, tmp_path):
    """`/game vote`, `/game rematch` and `/game preview` are commands: the console reaches them too."""
    out: list[str] = []
    con = Console(manager=manager, out_dir=tmp_path, write=out.append)
    for line in ["ann> /game new game:count seed:3", "bob> /game join", "cy> /game join", "ann> /game start"]:
        await con.line(line)
    clock.now = (await manager.storage.live_game("local")).deadline_at + 1
    for line in ["bob> /game vote kind:skip", "cy> /game vote kind:SKIP", "ann> /game preview action:end"]:
        await con.line(line)
    text = "\n".join(out)
    assert "(only bob sees this) Vote counted: 1 of the 2 needed for skipping the turn." in text
    assert "The other players voted to skip ann's move: it counts as `end`." in text
    assert "(only ann sees this) Count has no previews." in text
    out.clear()
    clock.now = (await manager.storage.live_game("local")).deadline_at + 1  # now Bob is late
    await con.line("ann> /game vote kind:end")
    await con.line("cy> /game vote kind:end")
    assert "voted to end the game" in "\n".join(out)
    await con.line("ann> /game rematch")
    assert "Only a finished game can be played again." in out[-2]


def test_parse_command_knows_the_table_commands():
    assert parse_command("/game vote kind:skip").options == {"kind": "skip"}
    assert parse_command("/game rematch").name == "rematch"
    assert parse_command('/game preview action:"add n:1"').options == {"action": "add n:1"}
    assert parse_command('/heroball preview action:"step to:G2"').name == "preview"
    with pytest.raises(MalformedAction, match="not a choice"):
        parse_command("/game vote kind:maybe")


def test_a_preview_of_a_move_with_options_but_no_quotes_says_to_quote_it():
    with pytest.raises(MalformedAction) as caught:
        parse_command("/game preview action:seed to:G7")
    assert caught.value.reason == "`/game preview` has no option `to`."
    assert 'Quote a move with options: `action:"seed to:G7"`.' in caught.value.hint


async def test_hand_before_the_start_says_the_game_has_not_started_not_that_you_are_unseated(manager):
    from bot.reply import Context

    ann = Context(channel_id="c9", user_id="ann", user_name="Ann")
    await manager.dispatch(ann, "game", "new", {"game": "count"})
    r = await manager.dispatch(ann, "game", "hand", {})
    assert r.ephemeral and "has not started" in r.text and "/game start" in r.text, r.text


async def test_hand_moves_print_only_for_their_player_and_press_by_number(tmp_path):
    """Issues 11, 14: in the console and `playpost script`, moves naming a hand card are on a line only their player
    sees, numbered after the board's buttons; `/game hand` shows the same; only their player may press them."""
    from bot.console import transcript_output
    lines = (Path(__file__).parent / "quodd" / "transcripts" / "ffa_full.txt").read_text(encoding="utf-8")
    all_lines = lines.splitlines()
    first = next((i for i, ln in enumerate(all_lines) if ln.startswith("dan> /quodd upgrade")), None)
    assert first is not None, "the ffa transcript has dan's first upgrade, which opens his power-up phase"
    head = all_lines[:first + 1]
    script = tmp_path / "hand.txt"
    script.write_text("\n".join([*head, "dan> /game hand", "ann> button 2", "dan> button 2"]) + "\n")
    out = await transcript_output(script, tmp_path)
    assert "  buttons: [1] Done: to movement\n  (only dan sees this) buttons: [2] Play Pocket Wall Kit\n" in out
    after_hand = out.split("dan> /game hand")[1]
    assert "(only dan sees this) Your hand (1" in after_hand
    assert after_hand.split("ann> button 2")[0].rstrip().endswith(
        "(only dan sees this) buttons: [2] Play Pocket Wall Kit")
    refused = after_hand.split("ann> button 2")[1].split("dan> button 2")[0]
    assert "(only ann sees this) That button is not yours to press." in refused
    assert "dan plays Pocket Wall Kit." in after_hand.split("dan> button 2")[1]
