"""Behaviour pinned across refactors: every transcript gives the same text, PNG bytes and states.

Each transcript under `tests/*/transcripts/` is played as `playpost script` plays it, boards
rendered. The whole printed output, the SHA-256 of every board image and of every game's
stored state (at the end, and at the transcript's midpoint, where its game is still live) are
compared with the files in `tests/pinned/`. At the midpoint `playpost rebuild` must also find
every live game unchanged: the log replays to the stored state.

A change that alters what players see is a behaviour change and fails here. When it is on
purpose, look at the new output and images, then regenerate and commit them with the change:

    PLAYPOST_PINNED=update .venv/bin/python -m pytest tests/test_pinned_behaviour.py
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest

from bot.console import play_transcript
from bot.manager import GameManager
from bot.records import rebuild_all
from storage import open_storage

TESTS = Path(__file__).parent
PINNED = TESTS / "pinned"
TRANSCRIPTS = sorted(TESTS.glob("*/transcripts/*.txt"))
UPDATE = os.environ.get("PLAYPOST_PINNED") == "update"
FILE_LINE = re.compile(r"\[(image|file): (?P<path>[^\]]+)\]")


def _key(path: Path) -> str:
    return f"{path.parent.parent.name}__{path.stem}"


async def _play(lines: list[str], tmp: Path, tag: str) -> tuple[str, list[str]]:
    """Play `lines` into a fresh database; the normalised output and the files' and states' hashes."""
    out_dir, db = tmp / f"out-{tag}", tmp / f"{tag}.sqlite3"
    printed: list[str] = []
    await play_transcript(lines, out_dir, db=str(db), render=True, write=printed.append)
    hashes: list[str] = []

    def normalise(line: str) -> str:
        m = FILE_LINE.search(line)
        if m is None:
            return line
        path = Path(m.group("path"))
        hashes.append(f"{path.name} {hashlib.sha256(path.read_bytes()).hexdigest()}")
        return line.replace(str(path.parent), "OUT")

    text = "\n".join(normalise(ln) for ln in "\n".join(printed).splitlines()) + "\n"
    store = await open_storage(str(db))
    try:
        game_id = 1
        while (rec := await store.get_game(game_id)) is not None:
            state = rec.state or ""
            hashes.append(f"game {game_id} {rec.kind} {rec.status} v{rec.version} "
                          f"state {hashlib.sha256(state.encode()).hexdigest()}")
            game_id += 1
        manager = GameManager(store, render=False)
        try:
            for gid, verdict in await rebuild_all(manager, write=False):
                hashes.append(f"rebuild game {gid}: {verdict}")
                assert verdict == "unchanged", f"{tag}: playpost rebuild says game {gid} {verdict}"
        finally:
            manager.close()
    finally:
        await store.close()
    return text, hashes


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=_key)
async def test_transcript_output_images_and_states_are_pinned(path: Path, tmp_path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    commands = [i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")]
    half = lines[:commands[len(commands) // 2] + 1]
    text, hashes = await _play(lines, tmp_path, "full")
    _, half_hashes = await _play(half, tmp_path, "half")
    record = "\n".join(hashes + ["-- midpoint --"] + half_hashes) + "\n"
    out_file, hash_file = PINNED / f"{_key(path)}.out", PINNED / f"{_key(path)}.sha256"
    if UPDATE:
        PINNED.mkdir(exist_ok=True)
        out_file.write_text(text, encoding="utf-8")
        hash_file.write_text(record, encoding="utf-8")
        return
    assert out_file.exists(), f"no pinned output for {path.name}: run with PLAYPOST_PINNED=update"
    assert text == out_file.read_text(encoding="utf-8"), f"{path.name}: the printed output changed"
    assert record == hash_file.read_text(encoding="utf-8"), f"{path.name}: an image or a stored state changed"


def test_every_transcript_is_pinned() -> None:
    pinned = {p.stem for p in PINNED.glob("*.out")}
    assert pinned == {_key(p) for p in TRANSCRIPTS}, "each transcript has pinned output, and nothing else does"
