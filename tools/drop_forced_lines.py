"""Drop the transcript lines the table now plays by itself (issue 18: a move with nothing to choose, such as
ending a turn with no AP left, plays itself; `Game.forced_action`).

A transcript written before that still types those moves; typed again after the table played them they are
refused, or worse, land in the next phase. This runs each transcript through the console (images off) and drops
a line that repeats, by the same player, a move the previous line's reply says played itself (any of them when
several played in a chain, as an `end` an earlier run dropped, then the last hero left to activate; each line a
minute, as `playpost script` runs it: a transcript that waits for a deadline may need as many lines again). The
transcript generators skip forced moves themselves; this is for transcripts written by hand or before.
Run it once per transcript: it is not idempotent. On a transcript already cleaned, the line after a forced move
may be the same command for the next phase (Quodd's `done` ending the movement, then `done` ending the
exploration), and a second run would drop that one too.

    .venv/bin/python -m tools.drop_forced_lines tests/heroball/transcripts/*.txt
"""
from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
from pathlib import Path

from bot.console import Console, ScriptClock
from bot.manager import GameManager
from storage import open_storage

FORCED = re.compile(r"Nothing left to choose for (?P<who>.+?): `(?P<action>[^`]+)` plays itself\.")
LINE = re.compile(r"^(?P<who>[^>\s]+)> /(?P<group>\w+) (?P<action>.+)$")


async def kept_lines(lines: list[str]) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_storage(str(Path(tmp) / "t.sqlite3"))
        seeds = iter(range(1, 1 << 20))
        clock = ScriptClock()  # as `playpost script`: a minute per line
        manager = GameManager(store, clock=clock, seed_source=lambda: next(seeds), render=False)
        printed: list[str] = []
        console = Console(manager=manager, out_dir=Path(tmp) / "out", write=printed.append)
        pending: list[tuple[str, str]] = []
        out: list[str] = []
        try:
            for raw in lines:
                text = raw.strip()
                m = LINE.match(text)
                move = (m["who"], m["action"].strip()) if m and m["group"] != "game" else None
                if move is not None and move in pending:
                    del pending[:pending.index(move) + 1]  # a chain's earlier moves may have been dropped before
                    continue  # the table played it already
                out.append(raw)
                if not text or text.startswith("#"):
                    continue
                printed.clear()
                await console.line(text)
                clock.tick()
                pending = [(f["who"], f["action"]) for f in FORCED.finditer("\n".join(printed))]
        finally:
            manager.close()
            await store.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", type=Path)
    for path in ap.parse_args(argv).paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        kept = asyncio.run(kept_lines(lines))
        if kept != lines:
            path.write_text("\n".join(kept) + "\n", encoding="utf-8")
        print(f"{path}: {len(lines) - len(kept)} lines dropped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
