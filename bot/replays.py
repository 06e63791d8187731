"""Animated replays (issue 18): `/game replay` and `playpost replay FILE --gif OUT`.

The drawing is `render.replay` (CPU-bound: the bot runs it in its render pool, never on the event
loop); here a game's record is read from storage, an export file or a transcript played into a
temporary database.
"""
from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

from games.core import Action, IllegalAction, Seat, get_game
from render.replay import replay_record
from storage import GameRecord, LogEntry, open_storage

from .defaults import seats_of
from .records import replay_export
from .reply import Attachment, Reply

MAX_BYTES = 10 * 1024 * 1024  # Discord's upload limit


def record_gif(rec: GameRecord, entries: list[LogEntry]) -> bytes:
    """The animated replay of a stored game (its log without undone moves)."""
    log = [(e.player, Action.parse(e.action)) for e in entries if not e.undone]
    return replay_record(get_game(rec.kind), rec.options, seats_of(rec), rec.seed, log)


def export_gif(data: dict[str, Any]) -> bytes:
    """The animated replay of a `/game export` file (checked against its recorded state first)."""
    replay_export(data)
    seats = [Seat(**s) for s in data["seats"]]
    log = [(e["player"], Action.parse(e["action"])) for e in data["log"]]
    return replay_record(get_game(data["game"]), data["options"], seats, int(data["seed"]), log)


async def transcript_records(path: Path) -> list[tuple[GameRecord, list[LogEntry]]]:
    """Play a transcript into a temporary database (no images) and return every game it started, with its log."""
    from .console import play_transcript  # the console is the application's edge: imported only here

    out: list[tuple[GameRecord, list[LogEntry]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "replay.sqlite3")
        await play_transcript(path.read_text(encoding="utf-8").splitlines(), Path(tmp) / "out", db=db,
                              render=False, write=lambda _: None)
        store = await open_storage(db)
        try:
            gid = 1
            while (rec := await store.get_game(gid)) is not None:
                if rec.status != "lobby":
                    out.append((rec, await store.log(gid)))
                gid += 1
        finally:
            await store.close()
    return out


async def replay_file_gif(path: Path) -> tuple[bytes, str]:
    """The replay GIF of an export file or of the last game a transcript plays, and a line saying what it is."""
    if path.suffix.lower() == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        return export_gif(data), f"{data['game']} game #{data['id']} ({len(data['log'])} actions)"
    games = await transcript_records(path)
    if not games:
        raise IllegalAction("The transcript starts no game.", "Give a transcript that plays a game, or an export.")
    rec, entries = games[-1]
    return record_gif(rec, entries), f"{rec.kind} game #{rec.id} ({len(entries)} actions, {rec.status})"


async def replay_main(path: Path, out: Path) -> int:
    started = time.perf_counter()
    try:
        gif, what = await replay_file_gif(path)
    except IllegalAction as exc:
        print(f"{exc.reason} {exc.hint}".strip())
        return 1
    out.write_bytes(gif)
    took = time.perf_counter() - started
    print(f"Replay of {what}: {out} ({len(gif) / 1e6:.2f} MB, {took:.1f} s).")
    if len(gif) > MAX_BYTES:
        print("Warning: larger than Discord's 10 MB upload limit.")
    return 0


async def game_replay(table: Any, rec: GameRecord) -> Reply:
    """`/game replay`: the animated replay of this channel's finished game, drawn in the render pool."""
    if rec.status in ("lobby", "active"):
        raise IllegalAction("A replay is drawn once the game is over.",
                            "`/game status` shows the board now; `/game log` the latest moves.")
    entries = await table.storage.log(rec.id)
    if not table.render_enabled:
        return Reply(text=f"Images are off on this bot: no replay of game #{rec.id}.", ephemeral=True)
    gif = await table.render.run(record_gif, rec, entries)
    if len(gif) > MAX_BYTES:
        return Reply(text=f"The replay of game #{rec.id} is {len(gif) / 1e6:.1f} MB, over Discord's upload limit.",
                     ephemeral=True)
    engine = get_game(rec.kind)
    result = ""
    if rec.state:
        st = engine.status(engine.load(rec.state))
        result = f" {st.result.text}" if st.result and st.result.text else ""
    return Reply(text=f"Replay of {engine.name} game #{rec.id}, one frame per turn.{result}",
                 files=[Attachment(name=f"playpost-{rec.kind}-{rec.id}-replay.gif", data=gif)])
