"""Whole games through the console, as `playpost script` plays them."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from bot.console import transcript_output

HERE = Path(__file__).parent / "transcripts"


async def play(name: str, tmp_path: Path) -> str:
    return await transcript_output(HERE / name, tmp_path)


def after(text: str, line: str, n: int = 6) -> str:
    """The `n` lines printed after `line`, the recaps that open replies pinging someone left out."""
    lines: list[str] = []
    recap = False
    for ln in text.splitlines():
        if ln.strip() == "**Since your last move:**":
            recap = True
            continue
        if recap and ln.startswith("  - "):
            continue
        recap = False
        lines.append(ln)
    i = lines.index(line)
    return "\n".join(lines[i + 1:i + 1 + n])


async def test_two_player_game_to_round_12(tmp_path):
    out = await play("two_player.txt", tmp_path)
    assert "(only bob sees this) Hermes has been barred from Heroball" in out
    assert "Pegasus (bob) sprints H8 → H7.\n  Pegasus (bob) tramples Gorgo (ann): knocked down." in out
    assert "(only ann sees this) You are knocked down: a plain `step` stands you up" in out
    assert "Pegasus (bob) defends: the push by Gorgo (ann) fails." in out
    assert "Pegasus (bob) does not defend.\n  Pegasus (bob) fumbles the Godball; Gorgo (ann) places it on G6." in out
    assert "GOAL! Gorgo (ann) runs the Godball into their goal on H1: 2 points." in out
    assert ("Pegasus (bob) kicks the Godball to H12.\n"
            "  GOAL! The Godball reaches the goal of Pegasus (bob) on H12: 1 point for bob.") in out
    # the illegal step onto a pillar changes nothing: Bob still has 2 AP when he rests
    assert "(only bob sees this) G10 holds a Pillar of Heaven" in after(out, "bob> /heroball step to:G10")
    assert "Pegasus (bob) rests (+1 AP, now 3)." in after(out, "bob> /heroball step to:G10", 8)
    assert out.splitlines()[-1].strip() == "Game over: ann wins with 2 points. Final scores: ann 2, bob 1."


async def test_four_player_game_to_round_12(tmp_path):
    out = await play("four_player.txt", tmp_path)
    pummel = after(out, "ann> /heroball hero action:pummel target:Perseus place:G8")
    assert "Gorgo (ann) knocks Perseus (dan) down." in pummel
    assert "Perseus (dan) fumbles the Godball; Gorgo (ann) places it on G8." in pummel
    assert "Achilles (cat) may react" in pummel  # Achilles is nearer the fumbler than Herakles: asked first
    assert ("(only bob sees this) It is not your move.\n"
            "  Waiting for cat to catch the Godball coming down on G8 or pass.") in out
    assert "Achilles (cat) lets the pole fall on F7.\n  Achilles (cat) catches the Godball (1 AP)." in out
    assert "Gorgo (ann) defends: the push by Herakles (bob) fails." in out
    assert "(only ann sees this) Achilles is Invulnerable right now" in out
    assert "Gorgo (ann) rests (+1 AP, now 3)." in after(out, "ann> /heroball push target:Achilles to:B9")
    assert "GOAL! Achilles (cat) runs the Godball into their goal on A9: 2 points." in out
    assert "GOAL! The Godball reaches the goal of Perseus (dan) on B3: 1 point for dan." in out
    assert out.splitlines()[-1].strip() == (
        "Game over: cat wins with 2 points. Final scores: ann 0, bob 0, cat 2, dan 1.")


def test_playpost_script_cli_renders_the_two_player_game(tmp_path):
    """The real `playpost script FILE --out DIR`, boards rendered."""
    conftest_dir = Path(__file__).parent.parent
    args = ["script", str(HERE / "two_player.txt"), "--out", str(tmp_path / "out")]
    code = f"import conftest; from bot.cli import main; raise SystemExit(main({args!r}))"
    path = os.pathsep.join(p for p in (str(conftest_dir), os.environ.get("PYTHONPATH", "")) if p)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": path})
    assert proc.returncode == 0, proc.stderr
    assert "Final scores: ann 2, bob 1." in proc.stdout
    pngs = sorted((tmp_path / "out").glob("*.png"))
    assert len(pngs) > 50 and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs[:3])


async def test_a_new_players_mistakes_are_refused_with_their_reason_and_change_nothing(tmp_path):
    out = await play("mistakes.txt", tmp_path)
    for typed, reason in [
        ("ann> /heroball seed to:G4", "G4 holds a Pillar of Heaven; seed terrain goes on an empty hex."),
        ("ann> /heroball seed to:G7", "G7 is the centre post"),
        ("ann> /heroball seed to:H1", "H1 is part of ann's goal tile"),
        ("ann> /heroball step to:G2", "Setup first: place your seed terrain"),
        ("bob> /heroball seed to:G3", "G3 already has mountain terrain."),
        ("ann> /heroball run to:G2", "You must step before you can run"),
        ("ann> /heroball step to:G3", "G3 is not next to Gorgo (G1)"),
        ("ann> /heroball sprint to:G4", "G4 holds a Pillar of Heaven; nobody can enter it."),
        ("ann> /heroball hold", "There is nothing loose in your hex (G3) to hold."),
        ("ann> /heroball throw to:G5", "You hold nothing to throw."),
        ("ann> /heroball react", "There is nothing to react to right now"),
        ("bob> /heroball sprint to:G10", "G10 holds a Pillar of Heaven"),
    ]:
        assert f"(only {typed[:3]} sees this) {reason}" in after(out, typed, 1), typed
    # the refused moves cost nothing: the step after them is the first move, and AP is what it should be
    assert len(re.findall(r"(?<!- )Gorgo \(ann\) steps G1 → G2\.", out)) == 1  # (a later recap line aside)
    assert "(only ann sees this) You have already used your step this turn" in out
    # a setting, allowed during someone else's seed turn; Helen's plan is told to her alone
    assert "(only bob sees this) Your standing orders now: defend ask, intercept ask, distract never." in out
    assert "sets standing orders" not in out
    # 5 - 1 (step) - 0 (run onto mountain) + 1
    assert "ann's turn (Gorgo, 5 AP)." in after(out, "bob> /heroball end", 3)
